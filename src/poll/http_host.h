// The poll server's connections (internal to src/poll): httplib parses each request and routes
// it; this class decides which connections are served and for how long. Admission happens on
// the accepting thread (a cap on connections in all and per client address), a fixed pool of
// workers serves one request per connection through a socket stream with a deadline for the
// whole connection, a silence limit and a byte budget, and stop() ends everything it started.
#pragma once
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/error.h"

namespace ts {

struct HostLimits {
  int workers = 4;
  int max_connections = 64;                  // served or waiting, all clients together
  int max_per_client = 8;                    // served or waiting, one client address
  std::chrono::milliseconds deadline{5000};  // one connection, from the start of its service
  std::chrono::milliseconds idle{2000};      // silence while reading or writing
  size_t max_request_bytes = 16384;          // request line, headers and body together
};

struct HostCounters {
  uint64_t accepted = 0;     // connections admitted
  uint64_t refused = 0;      // connections closed at once (over a cap, or stopping)
  uint64_t timed_out = 0;    // connections that ran into their deadline or silence limit
  uint64_t over_budget = 0;  // connections that sent more than max_request_bytes
};

class HttpHost : public httplib::Server {
 public:
  explicit HttpHost(HostLimits limits);
  ~HttpHost() override;  // stops

  // Binds host:port (numeric; port 0 = any free port) and starts the threads. The bound port.
  Result<int> start(const std::string& host, int port);
  // Stops accepting, ends the connections being served, closes the waiting ones and joins every
  // thread. Safe to call twice.
  void stop_serving();
  HostCounters counters() const;

  struct Conn {  // an admitted connection
    int sock = -1;
    std::string client;
  };

 private:
  bool process_and_close_socket(socket_t sock) override;  // called on the accepting thread
  void work();
  void serve(const Conn& c);
  void release(const Conn& c);

  const HostLimits limits_;
  std::thread listener_;
  std::atomic<bool> listener_done_{false};
  std::vector<std::thread> workers_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Conn> waiting_;
  std::set<int> serving_;                  // sockets being served (shut down on stop)
  std::map<std::string, int> per_client_;  // admitted connections per client address
  int admitted_ = 0;
  bool stopping_ = false;
  bool started_ = false;
  HostCounters counters_;
};

}  // namespace ts
