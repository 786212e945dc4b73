// Refusing what would not fit in memory. Every weight is dequantized to fp32 at load, so a 4-bit
// GGUF takes about 7 times its file size; loading also holds one tensor's raw bytes and fp32
// copy on top. The budget is the least of what the machine can still give (MemAvailable), what
// the process may still map (RLIMIT_AS minus its current size) and what its cgroup allows
// (memory.max minus memory.current), minus a safety margin. Loaders and the session compare
// their peak with it before they allocate, and refuse with one line saying what is needed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "base/error.h"

namespace ts {

constexpr uint64_t kMemoryMargin = uint64_t{256} << 20;  // left for the KV cache, records, UI

// The budget described above (0 when the margin is not left); nullopt when no limit can be read
// (no check then).
std::optional<uint64_t> available_memory_bytes();
// Tests: make available_memory_bytes() return `bytes` (nullopt: read the limits again).
void set_available_memory_for_testing(std::optional<uint64_t> bytes);
// ok when `need` fits in `available` (or available is unknown), else
// "<path>: needs 6.20 GiB for its weights, but only 3.10 GiB of memory is available".
Status check_memory_fits(const std::string& path, uint64_t need, std::optional<uint64_t> available);
// The same check for any allocation sized by a file or the user: "<what> needs 1.50 GiB of
// memory, but only 800.0 MiB is available".
Status check_allocation(const std::string& what, uint64_t need);
// "1.50 GiB", "12.0 MiB", "3.0 KiB".
std::string format_bytes(uint64_t bytes);

}  // namespace ts
