// A raw HTTP/1.1 client for the poll server's tests on loopback: sends exactly the bytes given
// (so a test can send what no browser would) from a chosen 127.x address (each simulated
// student or attacker is its own client address) and reads until the server closes.
#pragma once
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace ts::test {

struct Reply {
  int status = 0;    // 0: no status line came (refused, reset, timed out)
  std::string head;  // status line and headers
  std::string body;
  bool connected = false;
  bool closed = false;  // the server closed (or reset) the connection before the wait ended
  bool has_header(const std::string& line) const { return head.find(line) != std::string::npos; }
};

// A socket connected from `from` to 127.0.0.1:port, or -1.
inline int connect_from(int port, const std::string& from = "127.0.0.1") {
  const int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return -1;
  sockaddr_in src{};
  src.sin_family = AF_INET;
  inet_pton(AF_INET, from.c_str(), &src.sin_addr);
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr);
  if (bind(s, reinterpret_cast<sockaddr*>(&src), sizeof src) != 0 ||
      connect(s, reinterpret_cast<sockaddr*>(&dst), sizeof dst) != 0) {
    close(s);
    return -1;
  }
  return s;
}

inline bool send_all(int s, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = send(s, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// Everything the server sends until it closes (or `wait` passes); then splits the reply.
inline Reply read_reply(int s, std::chrono::milliseconds wait = std::chrono::seconds(10)) {
  Reply r;
  r.connected = true;
  std::string raw;
  const auto until = std::chrono::steady_clock::now() + wait;
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    pollfd p{s, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t n = recv(s, buf, sizeof buf, 0);
    if (n <= 0) {
      r.closed = true;
      break;
    }
    raw.append(buf, static_cast<size_t>(n));
  }
  const size_t end = raw.find("\r\n\r\n");
  r.head = raw.substr(0, end);
  if (end != std::string::npos) r.body = raw.substr(end + 4);
  if (raw.rfind("HTTP/1.1 ", 0) == 0 && raw.size() >= 12) r.status = std::stoi(raw.substr(9, 3));
  return r;
}

inline Reply exchange(int port, const std::string& request, const std::string& from = "127.0.0.1") {
  const int s = connect_from(port, from);
  if (s < 0) return {};
  Reply r;
  if (send_all(s, request)) r = read_reply(s);
  r.connected = true;
  close(s);
  return r;
}

inline std::string get_request(const std::string& target, const std::string& extra = "",
                               const std::string& host = "127.0.0.1") {
  return "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + extra +
         "Connection: close\r\n\r\n";
}

inline std::string form_request(const std::string& body, bool json = true,
                                const std::string& extra = "") {
  return "POST /guess HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
         "application/x-www-form-urlencoded\r\n" +
         std::string(json ? "Accept: application/json\r\n" : "") + extra +
         "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace ts::test
