// Worker: one background thread that runs session commands (model load, prefill, recomputation)
// so the window keeps drawing while they run. One job at a time; the main thread must not touch
// the session while busy() (the job owns it), and sees the job's effects after busy() turns
// false (the mutex hand-off orders the memory). An exception that escapes a job ends that job
// only: it becomes a one-line failure (take_failure) instead of terminating the program. No UI.
#pragma once
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace ts {

class Worker {
 public:
  Worker();
  ~Worker();  // waits for the running job, then joins
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Starts `job` on the worker thread. Precondition: !busy().
  void submit(std::string label, std::function<void()> job);
  bool busy() const;
  // Waits up to `seconds` for the job to finish; true when idle. seconds < 0: wait forever.
  bool wait_idle(double seconds);
  std::string label() const;  // of the running (or last) job
  double elapsed() const;     // seconds since the running job started
  // "LABEL failed: WHAT" when an exception escaped the last finished job, else ""; cleared by
  // the call. The job's own results may be partial then.
  std::string take_failure();

 private:
  void loop();
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> job_;
  std::string label_;
  std::string failure_;
  bool has_job_ = false;
  bool running_ = false;
  bool stop_ = false;
  std::chrono::steady_clock::time_point started_;
  std::thread thread_;  // last: starts after the members above exist
};

// Runs `job`; an exception it throws becomes the returned line "LABEL failed: WHAT" ("" when it
// returned normally). Both workers (desktop/worker.cpp, web/worker_inline.cpp) run jobs through
// it.
inline std::string run_job_catching(const std::string& label, const std::function<void()>& job) {
  try {
    job();
  } catch (const std::exception& e) {
    return label + " failed: " + e.what();
  } catch (...) {
    return label + " failed: an unknown exception";
  }
  return "";
}

}  // namespace ts
