// The worker thread (see worker.h): a condition variable hands one job at a time to the thread
// and signals its completion; an exception that escapes a job is kept as its failure line.
#include "app/worker.h"

#include <utility>

namespace ts {

Worker::Worker() : thread_([this] { loop(); }) {}

Worker::~Worker() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !has_job_ && !running_; });
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Worker::submit(std::string label, std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    label_ = std::move(label);
    job_ = std::move(job);
    has_job_ = true;
    started_ = std::chrono::steady_clock::now();
  }
  cv_.notify_all();
}

bool Worker::busy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return has_job_ || running_;
}

bool Worker::wait_idle(double seconds) {
  std::unique_lock<std::mutex> lock(mu_);
  auto idle = [&] { return !has_job_ && !running_; };
  if (seconds < 0) {
    cv_.wait(lock, idle);
    return true;
  }
  return cv_.wait_for(lock, std::chrono::duration<double>(seconds), idle);
}

std::string Worker::take_failure() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::exchange(failure_, std::string());
}

std::string Worker::label() const {
  std::lock_guard<std::mutex> lock(mu_);
  return label_;
}

double Worker::elapsed() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!has_job_ && !running_) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void Worker::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || has_job_; });
    if (stop_ && !has_job_) return;
    std::function<void()> job = std::move(job_);
    const std::string label = label_;
    has_job_ = false;
    running_ = true;
    lock.unlock();
    std::string failure = run_job_catching(label, job);
    lock.lock();
    failure_ = std::move(failure);
    running_ = false;
    cv_.notify_all();
  }
}

}  // namespace ts
