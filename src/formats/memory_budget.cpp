// The memory check before a model is loaded: /proc/meminfo's MemAvailable (the kernel's estimate
// of what can be allocated without swapping) minus a margin, with a test override.
#include "formats/memory_budget.h"

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

}  // namespace

std::optional<uint64_t> available_memory_bytes() {
  const int64_t o = g_memory_override.load();
  if (o >= 0) return static_cast<uint64_t>(o);
  const std::optional<uint64_t> avail = meminfo_available();
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
                    " for its weights dequantized to fp32, but only " + format_bytes(*available) +
                    " of memory is available");
}

}  // namespace ts
