// `tokenscope bench --step` (issue #13): the step a user waits for next to the bare forward.
// Per shape, decode tokens/s of the bare Forward (record off, argmax), of a Session step at record
// summary with the realistic chain (penalties, top-k 40, top-p 0.95, min-p 0.05, T 0.8), and of a
// greedy Session step, interleaved in short blocks at the same positions: tokens/s the best of a
// few rounds, ratios the median of the rounds' own ratios.
// With `reference`, both Sessions are also timed with the reference sampler (the "before").
// Printing (table and JSON) is here too; cmd_bench.cpp only parses the flags.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/error.h"
#include "sampling/sampler.h"

namespace ts::bench {

inline constexpr double kTargetStepRatio = 0.90;  // end-to-end / bare forward tokens/s
inline constexpr const char* kDefaultStepShapes = "15M,42M,110M,152k,0.5B";

// The chain the end-to-end step runs (rep 1.1 over the last 64 tokens, top-k 40, top-p 0.95,
// min-p 0.05, temperature 0.8, the default order).
SamplerSettings step_bench_chain();
// The chains without top-k: temperature 0.8 alone, and top-p 0.95 then temperature 0.8.
SamplerSettings step_bench_temperature_chain();
SamplerSettings step_bench_top_p_chain();

struct StepOptions {
  std::vector<std::string> shapes = {"15M", "42M", "110M", "152k", "0.5B"};
  int threads = 2;
  int steps = 128;         // decode steps per round, clamped to the context
  int rounds = 3;          // best round counts
  bool reference = false;  // also time both sessions with the reference sampler (before)
};

struct StepShapeResult {
  std::string name;
  bool ran = false;
  std::string note;  // the shape's description, or why it did not run
  int vocab = 0;
  int steps = 0;
  double forward_tps = 0;  // bare Forward, record off, argmax (the best run's weights)
  double chain_tps = 0;    // Session::step, record summary, step_bench_chain()
  double greedy_tps = 0;   // Session::step, record summary, greedy
  double temp_tps = 0;     // Session::step, record summary, step_bench_temperature_chain()
  double top_p_tps = 0;    // Session::step, record summary, step_bench_top_p_chain()
  double chain_ref_tps = 0, greedy_ref_tps = 0;  // the same with the reference sampler
  // Tokens/s over the bare forward's on the same Session's weights, per round (the runs of a
  // round take turns, so they saw the same machine), median of the rounds: a shared host's load
  // drifts between rounds.
  double chain_ratio = 0, greedy_ratio = 0, chain_ref_ratio = 0, greedy_ref_ratio = 0;
  double temp_ratio = 0, top_p_ratio = 0;
  // One sample() of the chain on the forward's last logits, one thread, best of 5 (microseconds).
  double sampler_us = 0, reference_sampler_us = 0;
  double temp_sampler_us = 0, top_p_sampler_us = 0;  // the chains without top-k, fast path
};

struct StepReport {
  std::string machine;  // roofline_machine(): the CPU's model name and hardware threads
  int threads = 0;
  std::string chain;  // describe(step_bench_chain())
  bool reference = false;
  std::vector<StepShapeResult> shapes;
};

// Shapes: the roofline's (15M, 42M, 110M, tiny, 152k: the 15M body with Qwen2.5's 151,936-token
// vocabulary; 0.5B: Qwen2-0.5B's shape as a Q8_0 file, bench_models.h). progress: one line per stage (may be empty).
Result<StepReport> run_step_bench(const StepOptions& opt,
                                  const std::function<void(const std::string&)>& progress);
std::string step_table(const StepReport& rep);
nlohmann::json step_json(const StepReport& rep);

}  // namespace ts::bench
