// Printing of `tokenscope bench --roofline` (bench_roofline.h): the probe ceilings, one line per
// shape for the speeds, one line per shape for the ratios with the targets beside them
// (met / missed), and the same figures as JSON under "roofline".
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "bench/bench_roofline.h"

namespace ts::bench {

// The "model name" line of /proc/cpuinfo and the hardware threads, e.g. "Intel(R) ... (2 threads)".
std::string roofline_machine();
std::string roofline_table(const RooflineReport& rep);
nlohmann::json roofline_json(const RooflineReport& rep);

}  // namespace ts::bench
