// Refusing a model that would not fit: every weight is dequantized to fp32 at load, so a 4-bit
// GGUF takes about 7 times its file size in memory. The loaders compare that fp32 size with the
// memory the machine can still give (MemAvailable from /proc/meminfo minus a safety margin)
// before they allocate anything, and refuse with one line saying what is needed and available.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "base/error.h"

namespace ts {

constexpr uint64_t kMemoryMargin = uint64_t{256} << 20;  // left for the KV cache, records, UI

// MemAvailable minus kMemoryMargin (0 when less); nullopt when it cannot be read (no check then).
std::optional<uint64_t> available_memory_bytes();
// Tests: make available_memory_bytes() return `bytes` (nullopt: read /proc/meminfo again).
void set_available_memory_for_testing(std::optional<uint64_t> bytes);
// ok when `need` fits in `available` (or available is unknown), else
// "<path>: needs 6.20 GiB for its weights dequantized to fp32, but only 3.10 GiB of memory is
// available".
Status check_memory_fits(const std::string& path, uint64_t need, std::optional<uint64_t> available);
// "1.50 GiB", "12.0 MiB", "3.0 KiB".
std::string format_bytes(uint64_t bytes);

}  // namespace ts
