// The machine's IPv4 addresses from getifaddrs.
#include "poll/lan_addresses.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

namespace ts {

bool offerable_ipv4(const std::string& dotted) {
  in_addr a{};
  if (inet_pton(AF_INET, dotted.c_str(), &a) != 1) return false;
  const uint32_t ip = ntohl(a.s_addr);
  const uint32_t first = ip >> 24;
  if (ip == 0 || first == 127 || first >= 224) return false;  // unspecified, loopback, multicast+
  if ((ip >> 16) == ((169u << 8) | 254u)) return false;       // link-local
  return true;
}

std::vector<LanAddress> lan_ipv4_addresses() {
  std::vector<LanAddress> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (const ifaddrs* it = list; it; it = it->ifa_next) {
    if (!it->ifa_addr || it->ifa_addr->sa_family != AF_INET) continue;
    if (!(it->ifa_flags & IFF_UP) || (it->ifa_flags & IFF_LOOPBACK)) continue;
    char buf[INET_ADDRSTRLEN] = {};
    const auto* sin = reinterpret_cast<const sockaddr_in*>(it->ifa_addr);
    if (!inet_ntop(AF_INET, &sin->sin_addr, buf, sizeof buf)) continue;
    if (!offerable_ipv4(buf)) continue;
    out.push_back({it->ifa_name ? it->ifa_name : "", buf});
  }
  freeifaddrs(list);
  return out;
}

}  // namespace ts
