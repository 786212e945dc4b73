// ADDR:PORT parsed with inet_pton: only numeric addresses, so starting the poll never waits on DNS.
#include "poll/listen_address.h"

#include <arpa/inet.h>

#include <charconv>

namespace ts {

Result<ListenAddress> parse_listen_address(std::string_view text) {
  const auto bad = [&](const char* why) {
    return make_error("poll address '" + std::string(text.substr(0, 80)) + "': " + why +
                      " (expected ADDR:PORT, e.g. 0.0.0.0:8080 or [::1]:0)");
  };
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("no port");
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  int port = -1;
  const auto [end, ec] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() ||
      port < 0 || port > 65535)
    return bad("the port is a number from 0 to 65535");
  const bool bracketed = host.size() >= 2 && host.front() == '[' && host.back() == ']';
  if (bracketed) host = host.substr(1, host.size() - 2);
  unsigned char buf[16];
  const std::string h(host);
  const bool v4 = !bracketed && inet_pton(AF_INET, h.c_str(), buf) == 1;
  const bool v6 = bracketed && inet_pton(AF_INET6, h.c_str(), buf) == 1;
  if (!v4 && !v6) return bad("not a numeric IPv4 address or a bracketed IPv6 address");
  return ListenAddress{h, port};
}

std::string poll_url(std::string_view host, int port, std::string_view code) {
  const bool v6 = host.find(':') != std::string_view::npos;
  std::string url = "http://";
  url += v6 ? "[" + std::string(host) + "]" : std::string(host);
  url += ":" + std::to_string(port) + "/";
  if (!code.empty()) url += "?code=" + std::string(code);
  return url;
}

}  // namespace ts
