// What each of the poll server's three paths does (internal to src/poll): the gate every request
// passes first (per-client rate, Host, path, method; for POST the Origin and the body's size,
// type and encoding), then the page, the state and the guess, each answering with poll_page.h's
// text. Runs on the server's threads.
#pragma once
#include <httplib.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "poll/poll_page.h"
#include "poll/poll_server.h"
#include "poll/poll_state.h"
#include "poll/rate_limit.h"

namespace ts {

class PollRoutes {
 public:
  PollRoutes(std::shared_ptr<PollState> state, const PollServerLimits& limits);
  void install(httplib::Server& server);
  void add_counters(PollServerCounters& c) const;

 private:
  httplib::Server::HandlerResponse gate(const httplib::Request& req, httplib::Response& res);
  void page(const httplib::Request& req, httplib::Response& res);
  void state(const httplib::Request& req, httplib::Response& res);
  void guess(const httplib::Request& req, httplib::Response& res);
  void page_with(PageView v, int status, httplib::Response& res);

  std::shared_ptr<PollState> state_;
  const PollServerLimits limits_;
  std::mutex rate_mu_;
  BucketMap per_client_;
  std::atomic<uint64_t> requests_{0}, rate_limited_{0}, refused_{0}, counted_{0};
};

}  // namespace ts
