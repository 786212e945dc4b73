// The class poll's HTTP server, inside the app's process and off until started: students' phones
// open its page, send guesses and ask whether a question is open. It serves exactly GET / (the
// page), GET /state?code=NNNN (whether a question is open, for the page's "waiting" state) and
// POST /guess (form fields code, name, guess); HEAD where GET is; every other path 404, every
// other method 405; never a file. Its own threads (one accepting, `workers` serving) run until
// stop() or the destructor, which join them all. The state it fills is shared with the app.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "base/error.h"
#include "poll/listen_address.h"
#include "poll/poll_state.h"
#include "poll/rate_limit.h"

namespace ts {

struct PollServerLimits {
  size_t max_body_bytes = 4096;      // POST /guess bodies (Content-Length, never chunked)
  size_t max_request_bytes = 16384;  // a connection's request line, headers and body together
  int workers = 4;                   // threads serving requests (one request per connection)
  int max_connections = 64;          // served or waiting, all clients; more are refused (503)
  int max_per_client = 8;            // the same, per client address
  std::chrono::milliseconds deadline{5000};  // a whole connection, however slowly it trickles
  std::chrono::milliseconds idle{2000};      // silence within it
  RateLimit per_client{60, 20};              // requests of any kind, per client address (then 429)
  size_t max_clients = 1024;                 // client addresses whose rate is remembered
};

struct PollServerCounters {
  uint64_t connections = 0;          // admitted
  uint64_t refused_connections = 0;  // over max_connections / max_per_client (503 and closed)
  uint64_t timed_out = 0;            // ran into the deadline or the silence limit
  uint64_t over_budget = 0;          // sent more than max_request_bytes
  uint64_t requests = 0;             // parsed requests that reached the routes
  uint64_t rate_limited = 0;         // answered 429 by the per-client limit
  uint64_t refused_requests = 0;     // 4xx other than 429 (bad path, method, size, form, code...)
  uint64_t guesses_counted = 0;
};

class PollServer {
 public:
  // Binds `at` and starts serving `state`. Errors: the port is taken, the address is not this
  // machine's. Port 0 binds any free port: port() tells which.
  static Result<std::unique_ptr<PollServer>> start(const ListenAddress& at,
                                                   std::shared_ptr<PollState> state,
                                                   PollServerLimits limits = {});
  ~PollServer();  // stop()
  PollServer(const PollServer&) = delete;
  PollServer& operator=(const PollServer&) = delete;

  // Stops accepting, ends the requests in flight (a slow one is cut off) and joins every
  // thread; returns within a few milliseconds. Safe to call twice.
  void stop();
  // False once stopped, or when the accepting loop ended by itself (httplib ends it on an
  // unexpected accept() error): the app then says the poll is off and may start it again.
  bool running() const;
  const std::string& host() const;
  int port() const;
  PollState& state() const;
  PollServerCounters counters() const;  // thread-safe

 private:
  struct Impl;
  explicit PollServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ts
