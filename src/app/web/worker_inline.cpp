// The web page's Worker (worker.h without a thread): a page built without threads runs each job
// to completion inside submit(), so busy() is false again when submit() returns. The app's
// frame loop is unchanged; a long job (a model load) holds that one frame.
#include <utility>

#include "app/worker.h"

namespace ts {

Worker::Worker() = default;

Worker::~Worker() { stop_ = true; }

void Worker::submit(std::string label, std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    label_ = std::move(label);
    has_job_ = true;
    running_ = true;
    started_ = std::chrono::steady_clock::now();
  }
  std::string failure = run_job_catching(label_, job);
  std::lock_guard<std::mutex> lock(mu_);
  failure_ = std::move(failure);
  has_job_ = false;
  running_ = false;
}

bool Worker::busy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_;
}

bool Worker::wait_idle(double) { return !busy(); }

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
  if (!running_) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void Worker::loop() {}

}  // namespace ts
