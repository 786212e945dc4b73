// Out of memory is a refusal, never an abort: metadata arrays and tables are charged against a
// cap and the memory budget before they are allocated, the budget includes RLIMIT_AS, lanes'
// KV caches are checked before they are allocated, and devices are never read as inputs.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <filesystem>

#include "base/read_file.h"
#include "cli_run.h"
#include "formats/gguf.h"
#include "formats/memory_budget.h"
#include "formats/model_file.h"
#include "fuzz/seed_models.h"
#include "lesson/lesson.h"
#include "raw_gguf.h"
#include "session/session.h"
#include "session/session_access.h"
#include "trace/trace_json.h"

namespace ts {

namespace {

using test::RawGguf;

// A sparse file of `size` bytes that starts with `head` (no disk space used beyond the head).
std::string sparse_file(const std::string& name, const std::vector<uint8_t>& head, uint64_t size) {
  const std::string p = test::write_scratch(name, head);
  std::filesystem::resize_file(p, size);
  return p;
}

struct BudgetOverride {
  explicit BudgetOverride(uint64_t bytes) { set_available_memory_for_testing(bytes); }
  ~BudgetOverride() { set_available_memory_for_testing(std::nullopt); }
};

}  // namespace

TEST_CASE("memory: a 4 GB sparse GGUF with one huge metadata array is refused at once") {
  // 3e9 uint8 items: 24 GB as decoded values; the file really has the bytes (sparse zeros).
  const std::vector<uint8_t> head =
      RawGguf().header(0, 1).str("big").u32(9).u32(0).u64(3'000'000'000ull).b;
  const std::string p = sparse_file("sparse-array.gguf", head, uint64_t{4} << 30);
  Result<ModelFileInfo> info = inspect_model_file(p);
  REQUIRE_FALSE(info.ok());
  test::check_refusal(info.error(), p, "array of 3000000000 items");
  const test::CliRun r = test::cli({"info", "--model", p});
  CHECK(r.code == 1);
  CHECK(r.err.find("array of 3000000000 items") != std::string::npos);
  std::filesystem::remove(p);
}

TEST_CASE("memory: metadata is charged against the budget before it is allocated") {
  // 2^21 strings of 8 bytes each: ~144 MiB decoded, refused under a small budget (which the
  // metadata raises to its floor of 64 MiB).
  RawGguf g;
  g.header(0, 1).str("tokenizer.ggml.tokens").u32(9).u32(8).u64(1u << 21);
  for (int k = 0; k < (1 << 21); ++k) g.str("abcdefgh");
  BudgetOverride small(uint64_t{16} << 20);
  Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(g.b, "tokens.gguf"));
  REQUIRE_FALSE(f.ok());
  test::check_refusal(f.error(), "tokens.gguf", "more than the metadata may use");
  // Arrays of arrays are charged per item too (each is a whole value).
  RawGguf nested;
  nested.header(0, 1).str("n").u32(9).u32(9).u64(1000000);
  for (int k = 0; k < 1000000; ++k) nested.u32(0).u64(0);
  BudgetOverride tiny(uint64_t{1} << 20);
  Result<GgufFile> n = GgufFile::read(ByteSource::from_memory(nested.b, "nested.gguf"));
  REQUIRE_FALSE(n.ok());
  test::check_refusal(n.error(), "nested.gguf", "more than the metadata may use");
}

TEST_CASE("memory: the budget includes the process's RLIMIT_AS") {
  struct rlimit old {};
  REQUIRE(getrlimit(RLIMIT_AS, &old) == 0);
  // What is mapped now plus 512 MiB: the budget can be no more than that less the margin.
  const std::optional<uint64_t> before = available_memory_bytes();
  uint64_t pages = 0;
  {
    std::ifstream statm("/proc/self/statm");
    REQUIRE(static_cast<bool>(statm >> pages));
  }
  const uint64_t mapped = pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  struct rlimit lim = old;
  lim.rlim_cur = mapped + (uint64_t{512} << 20);
  if (old.rlim_max != RLIM_INFINITY && lim.rlim_cur > old.rlim_max) lim.rlim_cur = old.rlim_max;
  REQUIRE(setrlimit(RLIMIT_AS, &lim) == 0);
  const std::optional<uint64_t> limited = available_memory_bytes();
  REQUIRE(setrlimit(RLIMIT_AS, &old) == 0);
  REQUIRE(limited.has_value());
  CHECK(*limited <= (uint64_t{512} << 20) - kMemoryMargin);
  if (before) CHECK(*limited <= *before);
}

TEST_CASE("memory: the load peak (not only the fp32 weights) is checked before loading") {
  const Model m = fuzz::small_model("llama", 4000, 32, 2);  // weights dominate the metadata
  const std::string p =
      test::write_scratch("peak.gguf", fuzz::gguf_bytes(m, fuzz::small_spm(40, false, "\xE2\x96\x81")));
  Result<ModelFileInfo> info = inspect_model_file(p);
  REQUIRE(info.ok());
  CHECK(info->peak_bytes > info->memory_bytes);
  {
    BudgetOverride just_weights(info->memory_bytes);  // the weights fit, the peak does not
    Result<LoadedModel> lm = load_model_file(p);
    REQUIRE_FALSE(lm.ok());
    test::check_refusal(lm.error(), p, "of memory is available");
    const test::CliRun r = test::cli({"info", "--model", p});
    CHECK(r.code == 1);  // info says what generate would: refused
  }
  BudgetOverride enough(info->peak_bytes);
  CHECK(load_model_file(p).ok());
}

TEST_CASE("memory: each lane's KV cache is checked before it is allocated") {
  Session s;
  // n_ctx 4096, 1 layer, kv_dim 4: 128 KiB per lane.
  REQUIRE(s.set_model(fuzz::small_loaded("llama", fuzz::small_spm(40, false, "\xE2\x96\x81"),
                                         4096))
              .ok());
  REQUIRE(s.set_prompt("the").ok());
  REQUIRE(s.step().ok());
  {
    BudgetOverride tiny(64 << 10);
    SamplerSettings lane;
    stage<Temperature>(lane).t = 0.5f;
    Result<int> added = s.add_lane(lane);
    REQUIRE_FALSE(added.ok());
    CHECK(added.error().message.find("lane 2's KV cache needs") != std::string::npos);
    CHECK(lane_count(s) == 1);
    CHECK(s.step().ok());  // the session goes on
  }
  SamplerSettings lane;
  CHECK(s.add_lane(lane).ok());
}

TEST_CASE("devices are never read as inputs: /dev/zero as model, tokenizer, lesson, trace") {
  if (!std::filesystem::exists("/dev/zero")) return;
  const std::string z = "/dev/zero";
  for (const Error& e : {load_model_file(z).error(), load_tokenizer_file(z).error(),
                         inspect_model_file(z).error(), load_lesson(z).error(),
                         read_trace_json(z).error()}) {
    test::check_refusal(e, z, "not a regular file");
  }
  Session s;
  CHECK_FALSE(s.load_model(z).ok());
  const test::CliRun r = test::cli({"info", "--model", z});
  CHECK(r.code == 1);
  CHECK(r.err.find("not a regular file") != std::string::npos);
  // A FIFO would block a reader forever: refused without opening it.
  const std::string fifo = (test::scratch_dir() / "fifo").string();
  std::filesystem::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  test::check_refusal(read_regular_file(fifo, 1024, "test").error(), fifo, "a pipe");
  test::check_refusal(load_model_file(fifo).error(), fifo, "a pipe");
  std::filesystem::remove(fifo);
  // A regular file over the cap is refused by size.
  const std::string big = test::write_scratch_text("big.txt", std::string(2048, 'x'));
  test::check_refusal(read_regular_file(big, 1024, "test file").error(), big, "a test file may hold");
}

}  // namespace ts
