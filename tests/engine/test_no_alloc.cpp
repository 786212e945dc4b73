// A decode step allocates nothing: malloc and friends are counted around Forward::run (record
// level Off, with and without a reused record, 1 and 2 threads). The counting hooks replace
// glibc's allocator entry points in this test program, so they are left out under sanitizers.
#include <doctest/doctest.h>

#include <atomic>
#include <cstddef>

#include "engine/forward.h"
#include "engine_test_util.h"

#if defined(__has_feature)  // clang names its sanitizers this way
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TS_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(TS_SANITIZED)
#define TS_COUNT_ALLOCS 0
#else
#define TS_COUNT_ALLOCS 1
#endif

#if TS_COUNT_ALLOCS
namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocs{0};
void note() {
  if (g_counting.load(std::memory_order_relaxed)) g_allocs.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void* memalign(size_t, size_t);  // glibc's, declared in <malloc.h> (not included here)
void* malloc(size_t n) {
  note();
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t s) {
  note();
  return __libc_calloc(n, s);
}
void* realloc(void* p, size_t n) {
  note();
  return __libc_realloc(p, n);
}
void* aligned_alloc(size_t a, size_t n) {
  note();
  return __libc_memalign(a, n);
}
void* memalign(size_t a, size_t n) {
  note();
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, size_t a, size_t n) {
  note();
  *out = __libc_memalign(a, n);
  return *out ? 0 : 12;  // ENOMEM
}
}

TEST_CASE("the hooks see allocations (the no-allocation checks below can fail)") {
  g_allocs = 0;
  g_counting = true;
  { ts::Vec v(1000); v.setZero(); }
  g_counting = false;
  CHECK(g_allocs.load() >= 1);
}

TEST_CASE("a decode step allocates nothing (record level Off)") {
  using namespace ts;
  using namespace ts::test;
  for (int n_threads : {1, 2}) {
    for (const ModelConfig& cfg : {threaded_config(), gpt2_config(), qwen2_config()}) {
      CAPTURE(n_threads);
      CAPTURE(cfg.architecture);
      const Model model = random_model(cfg, 3);
      Forward fwd(model, n_threads);
      KvCache kv(cfg, cfg.n_ctx);
      const std::vector<int> tokens = random_tokens(cfg.n_ctx, cfg.vocab_size, 4);
      REQUIRE(fwd.run(kv, std::span<const int>(tokens).first(10), {RecordLevel::Off, 0, 0}, nullptr).ok());
      ForwardRecord rec;  // a reused record: its first fill allocates, later ones must not
      REQUIRE(fwd.run(kv, std::span<const int>(&tokens[10], 1), {RecordLevel::Off, 0, 0}, &rec).ok());
      long allocs = 0;
      for (int p = 11; p < cfg.n_ctx; ++p) {
        g_allocs = 0;
        g_counting = true;
        const Status s = fwd.run(kv, std::span<const int>(&tokens[p], 1), {RecordLevel::Off, 0, 0},
                                 (p % 2) ? &rec : nullptr);
        g_counting = false;
        REQUIRE(s.ok());
        allocs += g_allocs.load();
      }
      CHECK(allocs == 0);
    }
  }
}
#endif
