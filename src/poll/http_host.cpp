// Connections of the poll server: admission on httplib's accepting thread, a worker pool that
// serves one request per connection, a socket stream with a deadline, and a clean stop.
// httplib's own thread pool is replaced (new_task_queue runs each accepted socket's task inline:
// that task is our process_and_close_socket, which only admits or refuses).
#include "poll/http_host.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;

class InlineQueue final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

std::string address_text(const sockaddr_storage& a, int* port) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
    inet_ntop(AF_INET, &v4->sin_addr, buf, sizeof buf);
    if (port) *port = ntohs(v4->sin_port);
  } else if (a.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
    inet_ntop(AF_INET6, &v6->sin6_addr, buf, sizeof buf);
    if (port) *port = ntohs(v6->sin6_port);
  }
  return buf;
}

std::string peer_address(int sock, int* port = nullptr) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  if (getpeername(sock, reinterpret_cast<sockaddr*>(&a), &len) != 0) return "?";
  return address_text(a, port);
}

// One connection's bytes: reads are buffered (httplib reads request lines a byte at a time),
// every wait is bounded by the silence limit and the connection's deadline, and at most
// `budget` bytes are read in all.
class ConnStream final : public httplib::Stream {
 public:
  ConnStream(int sock, Clock::time_point deadline, std::chrono::milliseconds idle, size_t budget)
      : sock_(sock), deadline_(deadline), idle_(idle), budget_(budget) {}

  bool is_readable() const override { return pos_ < len_ || wait(POLLIN); }
  bool is_writable() const override { return wait(POLLOUT); }

  ssize_t read(char* ptr, size_t size) override {
    if (pos_ == len_) {
      if (budget_ == 0) {
        over_budget_ = true;
        return -1;
      }
      if (!wait(POLLIN)) return -1;
      ssize_t n;
      do n = recv(sock_, buf_, std::min(sizeof buf_, budget_), 0);
      while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      budget_ -= static_cast<size_t>(n);
      pos_ = 0;
      len_ = static_cast<size_t>(n);
    }
    const size_t k = std::min(size, len_ - pos_);
    std::memcpy(ptr, buf_ + pos_, k);
    pos_ += k;
    return static_cast<ssize_t>(k);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!wait(POLLOUT)) return -1;
    ssize_t n;
    do n = send(sock_, ptr, size, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_address(sock_, &port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    port = 0;
    ip = getsockname(sock_, reinterpret_cast<sockaddr*>(&a), &len) == 0 ? address_text(a, &port)
                                                                        : "?";
  }
  socket_t socket() const override { return sock_; }

  bool timed_out() const { return timed_out_; }
  bool over_budget() const { return over_budget_; }

 private:
  bool wait(short events) const {
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
      const auto ms = std::min(left, idle_).count();
      if (ms <= 0) break;
      pollfd p{sock_, events, 0};
      const int r = ::poll(&p, 1, static_cast<int>(ms));
      if (r > 0) return true;  // ready, or hung up / failed: the read or write then says which
      if (r == 0 && ms == idle_.count()) break;  // silent for the whole silence limit
      if (r < 0 && errno != EINTR) return false;
    }
    timed_out_ = true;
    return false;
  }

  int sock_;
  Clock::time_point deadline_;
  std::chrono::milliseconds idle_;
  size_t budget_;
  char buf_[4096];
  size_t pos_ = 0, len_ = 0;
  mutable bool timed_out_ = false;
  bool over_budget_ = false;
};

// After the response: stop sending, and when the client had sent more than was read (a refused
// body), read it away for a moment so that closing does not reset the connection before the
// client has read the answer.
void finish_connection(int sock, Clock::time_point deadline) {
  shutdown(sock, SHUT_WR);
  const Clock::time_point until = std::min(deadline, Clock::now() + std::chrono::milliseconds(200));
  char junk[4096];
  size_t drained = 0;
  while (drained < 65536) {
    const ssize_t n = recv(sock, junk, sizeof junk, MSG_DONTWAIT);
    if (n > 0) {
      drained += static_cast<size_t>(n);
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return;
    if (drained == 0) return;  // nothing was left unread: an ordinary request
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    pollfd p{sock, POLLIN, 0};
    if (ms.count() <= 0 || ::poll(&p, 1, static_cast<int>(ms.count())) <= 0) return;
  }
}

void refuse_connection(int sock) {
  static const char busy[] =
      "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain\r\n"
      "Content-Length: 25\r\nRetry-After: 2\r\n\r\nToo many connections now.";
  (void)!send(sock, busy, sizeof busy - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
  shutdown(sock, SHUT_WR);
  close(sock);
}

}  // namespace

HttpHost::HttpHost(HostLimits limits) : limits_(limits) {
  new_task_queue = [] { return new InlineQueue(); };
  // httplib's default sets SO_REUSEPORT, which would let a second server (ours or anyone's)
  // share the port and take part of the class's connections. SO_REUSEADDR only.
  set_socket_options([](socket_t s) {
    int yes = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
}

HttpHost::~HttpHost() { stop_serving(); }

Result<int> HttpHost::start(const std::string& host, int port) {
  if (started_) return make_error("the poll server is already running");
  const int bound = port == 0 ? bind_to_any_port(host, AI_NUMERICHOST)
                              : (bind_to_port(host, port, AI_NUMERICHOST) ? port : -1);
  if (bound <= 0)
    return make_error("cannot listen on " + host + ":" + std::to_string(port) +
                      " (the port is in use, or the address is not one of this machine's)");
  // httplib listens with a backlog of 5; a class arriving at once needs more.
  ::listen(svr_sock_.load(), 128);
  started_ = true;
  for (int i = 0; i < std::max(1, limits_.workers); ++i) workers_.emplace_back([this] { work(); });
  listener_ = std::thread([this] {
    listen_after_bind();
    listener_done_ = true;
  });
  while (!is_running() && !listener_done_)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!is_running()) {
    stop_serving();
    return make_error("the poll server stopped as it started");
  }
  return bound;
}

void HttpHost::stop_serving() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!started_ || stopping_) return;
    stopping_ = true;
    for (const int s : serving_) shutdown(s, SHUT_RDWR);  // their waits end at once
  }
  cv_.notify_all();
  stop();  // closes the listening socket: the accepting loop ends
  if (listener_.joinable()) listener_.join();
  for (std::thread& w : workers_)
    if (w.joinable()) w.join();
  workers_.clear();
}

HostCounters HttpHost::counters() const {
  std::lock_guard<std::mutex> lock(mu_);
  return counters_;
}

bool HttpHost::process_and_close_socket(socket_t sock) {
  fcntl(sock, F_SETFD, FD_CLOEXEC);
  const std::string client = peer_address(sock);
  {
    std::lock_guard<std::mutex> lock(mu_);
    int& mine = per_client_[client];
    if (!stopping_ && admitted_ < limits_.max_connections && mine < limits_.max_per_client) {
      ++mine;
      ++admitted_;
      ++counters_.accepted;
      waiting_.push_back({sock, client});
      cv_.notify_one();
      return true;
    }
    if (mine == 0) per_client_.erase(client);
    ++counters_.refused;
  }
  refuse_connection(sock);
  return false;
}

void HttpHost::work() {
  for (;;) {
    Conn c;
    bool serve_it = false;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
      if (waiting_.empty()) return;  // stopping, and nobody waits
      c = waiting_.front();
      waiting_.pop_front();
      serve_it = !stopping_;
      if (serve_it) serving_.insert(c.sock);
    }
    if (serve_it) serve(c);
    release(c);
  }
}

void HttpHost::serve(const Conn& c) {
  const Clock::time_point deadline = Clock::now() + limits_.deadline;
  ConnStream strm(c.sock, deadline, limits_.idle, limits_.max_request_bytes);
  bool closed = false;
  try {
    process_request(strm, /*close_connection=*/true, closed, nullptr);
  } catch (...) {  // out of memory while parsing: this connection ends, the server goes on
  }
  if (strm.timed_out() || strm.over_budget()) {
    std::lock_guard<std::mutex> lock(mu_);
    counters_.timed_out += strm.timed_out();
    counters_.over_budget += strm.over_budget();
  }
  finish_connection(c.sock, deadline);
}

void HttpHost::release(const Conn& c) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    serving_.erase(c.sock);
    --admitted_;
    if (--per_client_[c.client] <= 0) per_client_.erase(c.client);
  }
  close(c.sock);  // after leaving serving_: stop_serving never touches a closed number
}

}  // namespace ts
