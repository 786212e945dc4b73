// Human-readable numbers for the visual panels: FLOP counts, bytes, durations, rates, written
// with SI prefixes ("1.23 MFLOP", "4.0 KiB", "850 µs"). Formatting only; no ImGui here.
#pragma once
#include <cstddef>
#include <string>

namespace ts {

std::string format_si(double v, const char* unit);  // 1234567, "FLOP" -> "1.23 MFLOP"
std::string format_bytes(double bytes);             // binary prefixes: "1.5 MiB"
std::string format_seconds(double s);               // "1.20 s", "35.0 ms", "850 µs", "-"
std::string format_ratio(double r);                 // "12.5x", "1.0x", "320x"
// A probability as a percentage that never reads 0.0% for a possible token: one decimal from
// 0.1% up, two significant digits below ("0.045%"), "0%" only for exactly zero.
std::string percent_text(double p);
// "1 pass", "3 passes": a count and its noun (`plural` is the noun's plural form).
std::string count_text(long n, const char* singular, const char* plural);

}  // namespace ts
