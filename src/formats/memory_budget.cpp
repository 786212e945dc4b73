// The memory budget (memory_budget.h): /proc/meminfo's MemAvailable, RLIMIT_AS less the
// process's mapped size (/proc/self/statm), and the cgroup v2 memory.max less memory.current,
// the least of them minus a margin, with a test override.
#include "formats/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace ts {

namespace {

std::atomic<int64_t> g_memory_override{-1};  // -1: none

std::optional<uint64_t> meminfo_available() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    uint64_t kib = 0;
    if (!(fields >> kib)) return std::nullopt;
    return kib * 1024;
  }
  return std::nullopt;
}

// RLIMIT_AS (ulimit -v) less what the process has mapped already.
std::optional<uint64_t> address_space_left() {
  struct rlimit rl {};
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return std::nullopt;
  uint64_t pages = 0;
  std::ifstream statm("/proc/self/statm");
  if (!(statm >> pages)) return std::nullopt;
  const uint64_t used = pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return rl.rlim_cur > used ? rl.rlim_cur - used : 0;
}

std::optional<uint64_t> read_number(const std::string& path) {
  std::ifstream in(path);
  uint64_t v = 0;
  if (!(in >> v)) return std::nullopt;  // "max" (no limit) or no such file
  return v;
}

// cgroup v2: the "0::/path" line of /proc/self/cgroup names the group.
std::optional<uint64_t> cgroup_left() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("0::", 0) != 0) continue;
    const std::string dir = "/sys/fs/cgroup" + line.substr(3);
    const std::optional<uint64_t> max = read_number(dir + "/memory.max");
    if (!max) return std::nullopt;
    const uint64_t cur = read_number(dir + "/memory.current").value_or(0);
    return *max > cur ? *max - cur : 0;
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> available_memory_bytes() {
  const int64_t o = g_memory_override.load();
  if (o >= 0) return static_cast<uint64_t>(o);
  std::optional<uint64_t> avail;
  for (std::optional<uint64_t> v : {meminfo_available(), address_space_left(), cgroup_left()}) {
    if (v) avail = avail ? std::min(*avail, *v) : *v;
  }
  if (!avail) return std::nullopt;
  return *avail > kMemoryMargin ? *avail - kMemoryMargin : 0;
}

void set_available_memory_for_testing(std::optional<uint64_t> bytes) {
  g_memory_override.store(bytes ? static_cast<int64_t>(std::min<uint64_t>(*bytes, INT64_MAX)) : -1);
}

std::string format_bytes(uint64_t bytes) {
  char buf[48];
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024.0 * 1024.0) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024.0 * 1024.0));
  } else if (b >= 1024.0 * 1024.0) {
    std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1024.0 * 1024.0));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  }
  return buf;
}

Status check_memory_fits(const std::string& path, uint64_t need,
                         std::optional<uint64_t> available) {
  if (!available || need <= *available) return ok_status();
  return make_error(path + ": needs " + format_bytes(need) +
                    " for its weights, but only " + format_bytes(*available) +
                    " of memory is available");
}

Status check_allocation(const std::string& what, uint64_t need) {
  const std::optional<uint64_t> available = available_memory_bytes();
  if (!available || need <= *available) return ok_status();
  return make_error(what + " needs " + format_bytes(need) + " of memory, but only " +
                    format_bytes(*available) + " is available");
}

}  // namespace ts
