// This machine's ceilings (see machine_ceilings.h).
#include "app/machine_ceilings.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/settings.h"
#include "bench/bench_probes.h"
#include "engine/thread_pool.h"

namespace ts {

using json = nlohmann::json;

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const size_t c = line.find(':');
      if (c != std::string::npos) return line.substr(line.find_first_not_of(" \t", c + 1));
    }
  return "";
}

MachineCeilings measure_ceilings(int threads, double working_set) {
  MachineCeilings m;
  m.cpu = cpu_model_name();
  m.threads = std::max(1, threads);
  ThreadPool pool(m.threads);
  const bench::FmaProbe fma = bench::run_fma_probe(pool, 4e9, 3);
  double dram = 0;
  {
    bench::ReadProbe big(pool, size_t{256} << 20);  // far larger than any cache
    for (int i = 0; i < 4; ++i) dram = std::max(dram, big.pass());
  }
  // The weights' own size: a small model's weights stay in cache between passes.
  const size_t ws = static_cast<size_t>(std::clamp(working_set, 64.0 * 1024, 4096.0 * 1048576));
  double ws_bw = 0;
  {
    bench::ReadProbe small(pool, ws);
    const int passes = static_cast<int>(std::clamp((256.0 * 1048576) / ws, 4.0, 2000.0));
    for (int i = 0; i < passes; ++i) ws_bw = std::max(ws_bw, small.pass());
  }
  m.flops_per_s = fma.flops_per_s;
  m.dram_bytes_per_s = dram;
  m.working_set_bytes = static_cast<double>(ws);
  m.working_set_bytes_per_s = ws_bw;
  m.valid = fma.checked && m.flops_per_s > 0 && dram > 0 && ws_bw > 0;
  return m;
}

std::string ceilings_to_json(const MachineCeilings& c) {
  return json{{"cpu", c.cpu},
              {"threads", c.threads},
              {"dram_bytes_per_s", c.dram_bytes_per_s},
              {"working_set_bytes", c.working_set_bytes},
              {"working_set_bytes_per_s", c.working_set_bytes_per_s},
              {"flops_per_s", c.flops_per_s}}
      .dump(2);
}

Result<MachineCeilings> ceilings_from_json(const std::string& text) {
  try {
    const json j = json::parse(text);
    MachineCeilings c;
    c.cpu = j.at("cpu").get<std::string>();
    c.threads = j.at("threads").get<int>();
    c.dram_bytes_per_s = j.at("dram_bytes_per_s").get<double>();
    c.working_set_bytes = j.at("working_set_bytes").get<double>();
    c.working_set_bytes_per_s = j.at("working_set_bytes_per_s").get<double>();
    c.flops_per_s = j.at("flops_per_s").get<double>();
    c.valid = c.threads >= 1 && c.dram_bytes_per_s > 0 && c.working_set_bytes_per_s > 0 &&
              c.flops_per_s > 0;
    if (!c.valid) return make_error("the cached ceilings are not positive numbers");
    return c;
  } catch (const std::exception& e) {
    return make_error(std::string("cannot read the cached ceilings: ") + e.what());
  }
}

bool ceilings_fit(const MachineCeilings& c, const std::string& cpu, int threads,
                  double working_set) {
  if (!c.valid || c.cpu != cpu || c.threads != threads) return false;
  const double r = working_set > 0 ? c.working_set_bytes / working_set : 0;
  return r >= 0.5 && r <= 2.0;
}

std::string ceilings_cache_path() {
  const std::string settings = default_settings_path();
  if (settings.empty()) return "";
  return (std::filesystem::path(settings).parent_path() / "ceilings.json").string();
}

RoofPlace place_on_roofline(double intensity, double flops_per_s, double peak, double bandwidth) {
  RoofPlace r;
  if (peak <= 0 || bandwidth <= 0) return r;
  r.ridge = peak / bandwidth;
  r.memory_side = intensity < r.ridge;
  r.roof = std::min(peak, bandwidth * intensity);
  r.fraction = r.roof > 0 ? flops_per_s / r.roof : 0;
  return r;
}

}  // namespace ts
