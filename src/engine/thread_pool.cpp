// ThreadPool (see thread_pool.h). Protocol of one job: the caller writes (fn, ctx, n_chunks),
// opens the job in state_, bumps generation_ and wakes sleepers; then claims chunks itself. A
// worker joins by incrementing the "inside" count in state_ only while the job is still open;
// when the chunks run out the caller closes the job and waits only for workers already inside.
#include "engine/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TS_CPU_RELAX() _mm_pause()
#else
#define TS_CPU_RELAX() std::this_thread::yield()
#endif

namespace ts {

namespace {

constexpr uint64_t kClosed = 1ull << 31;
constexpr uint64_t kInsideMask = kClosed - 1;
// How long an idle worker spins before it sleeps. Long enough to bridge the single-threaded
// stretches between the jobs of one forward pass: a worker that fell asleep there cost a
// 256-token prefill of the 15M shape about 20% (futex wake-ups, a cold core). An idle session
// spins 2 ms after its last pass, then sleeps.
constexpr auto kSpin = std::chrono::microseconds(2000);

uint32_t job_of(uint64_t state) { return static_cast<uint32_t>(state >> 32); }

// Spins until pred() holds or the spin budget is spent; returns pred().
template <class Pred>
bool spin_until(Pred pred) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0;; ++i) {
    if (pred()) return true;
    TS_CPU_RELAX();
    if ((i & 63) == 63 && std::chrono::steady_clock::now() - start > kSpin) return pred();
  }
}

}  // namespace

Range split_range(int n, int t, int nt, int align) {
  if (nt <= 1) return {0, n};
  const int blocks = (n + align - 1) / align;
  const int b0 = static_cast<int>(static_cast<long long>(blocks) * t / nt);
  const int b1 = static_cast<int>(static_cast<long long>(blocks) * (t + 1) / nt);
  return {std::min(n, b0 * align), std::min(n, b1 * align)};
}

ThreadPool::ThreadPool(int n_threads) : n_threads_(std::max(1, n_threads)) {
  state_.store(kClosed);  // job 0: closed, nobody inside
  threads_.reserve(n_threads_ - 1);
  for (int i = 1; i < n_threads_; ++i) threads_.emplace_back([this] { worker(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
    generation_.fetch_add(1);
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::work_chunks() {
  for (int c = next_chunk_.fetch_add(1); c < n_chunks_; c = next_chunk_.fetch_add(1)) {
    try {
      fn_(ctx_, c, n_chunks_);
    } catch (...) {  // keep the first; skip the chunks nobody has started
      {
        std::lock_guard<std::mutex> lock(error_mutex_);
        if (!error_) error_ = std::current_exception();
        failed_.store(true);
      }
      next_chunk_.store(n_chunks_);
    }
  }
}

void ThreadPool::run_erased(Fn fn, void* ctx, int n_chunks) {
  fn_ = fn;
  ctx_ = ctx;
  n_chunks_ = n_chunks;
  next_chunk_.store(0, std::memory_order_relaxed);
  ++job_;
  state_.store(static_cast<uint64_t>(job_) << 32);  // open, nobody inside (publishes the job)
  // seq_cst store + load: pairs with the worker's sleepers_ increment and generation_ check.
  generation_.store(job_);
  if (sleepers_.load() > 0) {
    { std::lock_guard<std::mutex> lock(mutex_); }
    cv_.notify_all();
  }
  work_chunks();
  // No chunks left: close the job, then wait for the workers that joined it to finish theirs.
  state_.fetch_or(kClosed);
  if (!spin_until([&] { return (state_.load(std::memory_order_acquire) & kInsideMask) == 0; })) {
    while ((state_.load(std::memory_order_acquire) & kInsideMask) != 0) std::this_thread::yield();
  }
  if (!failed_.load()) return;
  std::exception_ptr e;
  {
    std::lock_guard<std::mutex> lock(error_mutex_);
    e = std::exchange(error_, nullptr);
    failed_.store(false);
  }
  std::rethrow_exception(e);
}

void ThreadPool::worker() {
  uint32_t seen = 0;  // the generation at construction, so the first job is never missed
  for (;;) {
    if (!spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; })) {
      std::unique_lock<std::mutex> lock(mutex_);
      sleepers_.fetch_add(1);
      cv_.wait(lock, [&] { return generation_.load() != seen; });
      sleepers_.fetch_sub(1);
    }
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load()) return;
    // Join job `seen` only while it is open; a job already closed (or replaced) is skipped.
    uint64_t s = state_.load(std::memory_order_acquire);
    bool joined = false;
    while (job_of(s) == seen && !(s & kClosed)) {
      if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel)) {
        joined = true;
        break;
      }
    }
    if (!joined) continue;
    work_chunks();
    state_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace ts
