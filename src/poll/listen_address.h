// Where the poll's server listens: "ADDR:PORT" with a numeric IPv4 address or a bracketed IPv6
// one ("0.0.0.0:8080", "192.168.1.20:0", "[::1]:8080"); port 0 asks for any free port. No host
// names (nothing is looked up). Also the address students type or scan.
#pragma once
#include <string>
#include <string_view>

#include "base/error.h"

namespace ts {

struct ListenAddress {
  std::string host;  // numeric, without brackets
  int port = 0;      // 0..65535
};

Result<ListenAddress> parse_listen_address(std::string_view text);

// "http://HOST:PORT/?code=CODE" (IPv6 hosts in brackets); the code is left out when empty.
std::string poll_url(std::string_view host, int port, std::string_view code);

}  // namespace ts
