// ThreadPool: a small persistent pool that runs the chunks of one job on all its threads (the
// caller included), used to split matrix rows and attention heads across cores. Chunks are
// claimed through an atomic counter, so a worker the OS has not scheduled yet is simply left out
// (the caller does its chunks) instead of stalling the step. Workers spin briefly after a job
// and then sleep; a dispatch allocates nothing. With one thread no thread is created.
// Not a task queue: one job at a time, from one caller thread.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace ts {

class ThreadPool {
 public:
  explicit ThreadPool(int n_threads = 1);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return n_threads_; }

  // Calls f(chunk, n_chunks) once for every chunk in [0, n_chunks), on whichever threads are
  // free, and returns when all are done. Which thread runs a chunk never changes the result as
  // long as f's work depends only on the chunk index. If f throws (std::bad_alloc in a chunk),
  // the chunks not yet started are skipped, the job still ends on every thread, and the first
  // exception is rethrown here on the caller's thread: a worker never terminates the program.
  template <class F>
  void run(int n_chunks, F&& f) {
    if (n_chunks <= 1 || n_threads_ == 1) {
      for (int c = 0; c < n_chunks; ++c) f(c, n_chunks);
      return;
    }
    run_erased(&trampoline<std::remove_reference_t<F>>, &f, n_chunks);
  }

 private:
  using Fn = void (*)(void* ctx, int chunk, int n_chunks);
  template <class F>
  static void trampoline(void* ctx, int chunk, int n_chunks) {
    (*static_cast<F*>(ctx))(chunk, n_chunks);
  }
  void run_erased(Fn fn, void* ctx, int n_chunks);
  void work_chunks();
  void worker();

  int n_threads_ = 1;
  std::vector<std::thread> threads_;
  // The current job; written by the caller before it is published through state_.
  Fn fn_ = nullptr;
  void* ctx_ = nullptr;
  int n_chunks_ = 0;
  std::atomic<int> next_chunk_{0};
  // state_: job number (high 32 bits), closed flag (bit 31), workers inside the job (low bits).
  std::atomic<uint64_t> state_{0};
  uint32_t job_ = 0;                     // caller-side job number
  std::atomic<uint32_t> generation_{0};  // what idle workers watch (== job_ once published)
  std::atomic<int> sleepers_{0};         // workers blocked on cv_
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable cv_;
  // The first exception a chunk of the current job threw (guarded by error_mutex_).
  std::mutex error_mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};  // error_ is set (read without the lock on every job)
};

// The part [begin, end) of n items that chunk t of nt handles; boundaries are multiples of
// `align` (except the last) so SIMD-friendly row blocks stay whole.
struct Range {
  int begin = 0;
  int end = 0;
  int size() const { return end - begin; }
};
Range split_range(int n, int t, int nt, int align = 1);

}  // namespace ts
