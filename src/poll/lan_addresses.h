// Which addresses of this machine students could reach: its IPv4 addresses on interfaces that
// are up, loopback (127.0.0.0/8) and link-local (169.254.0.0/16) left out, for the app's menu of
// where to start the poll. Lists only; opens nothing.
#pragma once
#include <string>
#include <vector>

namespace ts {

struct LanAddress {
  std::string interface;  // "wlan0", "eth0", ...
  std::string address;    // dotted IPv4
};

// In the order the system lists them; empty when there is none (or getifaddrs fails).
std::vector<LanAddress> lan_ipv4_addresses();

// Whether a dotted IPv4 address is one to offer: not loopback, link-local, unspecified or
// multicast (and parses at all).
bool offerable_ipv4(const std::string& dotted);

}  // namespace ts
