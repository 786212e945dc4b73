// This machine's roofline ceilings for the Cost panel, measured with bench's probes (bench/
// bench_probes.h) at the thread count the session's forward pass uses: main-memory read
// bandwidth, read bandwidth over a buffer the size of the model's weights (it may sit in cache),
// and peak fp32 FMA throughput. Cached in a JSON file next to the settings, so a class never
// waits twice. place_on_roofline() says where a measured pass sits against these roofs.
#pragma once
#include <cstddef>
#include <string>

#include "base/error.h"

namespace ts {

struct MachineCeilings {
  bool valid = false;
  std::string cpu;             // /proc/cpuinfo "model name" (the cache key, with threads)
  int threads = 1;
  double dram_bytes_per_s = 0;   // over a buffer far larger than the caches
  double working_set_bytes = 0;  // the buffer of the second bandwidth probe (the weights' size)
  double working_set_bytes_per_s = 0;
  double flops_per_s = 0;        // peak fp32 FMA throughput (2 FLOPs per multiply-add)
};

// Runs the probes (about a second); `working_set` is the model's weight bytes.
MachineCeilings measure_ceilings(int threads, double working_set);
std::string cpu_model_name();  // "" when unknown
std::string ceilings_to_json(const MachineCeilings& c);
Result<MachineCeilings> ceilings_from_json(const std::string& text);
// A cached measurement fits when it was taken on this CPU with these threads and a working set
// within a factor 2 of this one.
bool ceilings_fit(const MachineCeilings& c, const std::string& cpu, int threads,
                  double working_set);
std::string ceilings_cache_path();  // next to the settings file

// Where a pass with `intensity` FLOPs per byte and `flops_per_s` achieved sits under roofs
// `peak` (FLOP/s) and `bandwidth` (bytes/s): left of the ridge (memory-bound) or right of it,
// and the fraction of the roof above it that it reaches (> 1: above the roof).
struct RoofPlace {
  double ridge = 0;      // peak / bandwidth, FLOPs per byte
  bool memory_side = false;
  double roof = 0;       // min(peak, bandwidth * intensity)
  double fraction = 0;   // flops_per_s / roof
};
RoofPlace place_on_roofline(double intensity, double flops_per_s, double peak, double bandwidth);

}  // namespace ts
