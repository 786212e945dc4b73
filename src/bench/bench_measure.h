// The measurements behind `tokenscope bench`: record memory of a run against its budget, seek
// and branch-switch time on a long timeline, and decode speed per record level. Each runs a
// Session exactly as the app would; printing is cmd_bench.cpp's job.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "engine/config.h"

#include "session/session.h"

namespace ts::bench {

struct MemoryResult {
  std::string name;
  bool ran = false;
  std::string note;         // why it did not run, or what was run
  size_t bytes = 0;         // Session::record_bytes()
  size_t budget = 0;
  int prompt_tokens = 0;
  int generated = 0;        // tokens generated (prefill + decode passes)
  double seconds = 0;
  bool within() const { return ran && bytes <= budget; }
};

struct SeekResult {
  bool ran = false;
  std::string note;
  int steps = 0;
  int seeks = 0;
  double seek_mean_us = 0, seek_max_us = 0;
  double switch_mean_us = 0;  // switch_branch between two long branches (KV rows restored)
};

struct SpeedResult {
  std::string level;
  int decode_steps = 0;
  double tokens_per_second = 0;
};

// Steps until every lane stopped; a lane that ends on EOS before `until_step` has the EOS
// replaced by its most probable other token (a forced branch), so the run fills what it should.
Status run_without_eos(Session& s, int until_step);

MemoryResult bench_memory_default(const std::string& model_path, int n_threads);
MemoryResult bench_memory_gpt2(int n_threads);
// A random-weight model of `shape` (its context widened to steps + 64 if needed), a `steps`-long
// timeline at record level summary, then seeks and branch switches.
SeekResult bench_seek(int steps, int n_threads, ModelConfig shape);
std::vector<SpeedResult> bench_speed(const std::string& model_path, int n_threads,
                                     std::string& note);

}  // namespace ts::bench
