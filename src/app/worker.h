// Worker: one background thread that runs session commands (model load, prefill, recomputation)
// so the window keeps drawing while they run. One job at a time; the main thread must not touch
// the session while busy() (the job owns it), and sees the job's effects after busy() turns
// false (the mutex hand-off orders the memory). No UI here.
#pragma once
#include <chrono>
#include <condition_variable>
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

 private:
  void loop();
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> job_;
  std::string label_;
  bool has_job_ = false;
  bool running_ = false;
  bool stop_ = false;
  std::chrono::steady_clock::time_point started_;
  std::thread thread_;  // last: starts after the members above exist
};

}  // namespace ts
