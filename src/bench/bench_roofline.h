// `tokenscope bench --roofline`: how close the forward pass gets to this machine's ceilings.
// The probes (bench_probes.h) give memory bandwidth and FMA peak at 1 and 2 threads; then per
// model shape (random-weight Llama shapes built here, plus the shipped model when found):
// prefill tokens/s on a short and a long prompt, decode tokens/s at record levels off / summary /
// full, and the ratios against the ceilings (decode x weight bytes per token / bandwidth;
// prefill FLOPs from engine/cost.h / peak; recording overhead as time ratios). Each shape is also
// checked against reference_forward (greedy ids and logits). Printing: bench_roofline_report.h.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/error.h"
#include "bench/bench_probes.h"
#include "engine/config.h"
#include "formats/model_file.h"

namespace ts::bench {

// The targets of issue #6, printed next to the ratios.
inline constexpr double kTargetMemoryFraction = 0.85;   // decode, of the memory roofline
inline constexpr double kTargetComputeFraction = 0.50;  // long prefill, of the FMA peak
inline constexpr int kTargetPrefillTokens = 512;        // ... on a prompt this long
inline constexpr double kTargetSummaryRatio = 1.10;     // decode time summary / off
inline constexpr double kTargetFullRatio = 1.50;        // decode time full / off

// "15M", "42M", "110M" (llama2.c stories shapes), "152k" (the 15M body with a 151,936-token
// vocabulary), "0.5B" (Qwen2-0.5B's shape, bench_receipt.h) and the hidden test shape "tiny"
// (2 layers, d 64, vocab 512, ctx 128). "model" (the shipped or --model file) is not a config.
Result<ModelConfig> roofline_shape_config(const std::string& name);
// The random weights of a shape: in memory (F32), except "0.5B": written as a Q8_0 GGUF file by
// our writer and read back (530 MB, the file a class would open next).
Result<LoadedModel> roofline_shape_model(const std::string& name, const ModelConfig& c);
// The seed of a shape's random weights, so that `bench --write-shape` writes exactly the weights
// the roofline measures.
inline uint64_t roofline_seed(const ModelConfig& c) {
  return 1000 + static_cast<uint64_t>(c.d_model);
}
inline constexpr const char* kDefaultRooflineShapes = "15M,42M,110M,model";

struct RooflineOptions {
  ProbeOptions probe;
  std::vector<std::string> shapes = {"15M", "42M", "110M", "model"};
  std::string model_path;      // for "model"; "" = skipped with model_note
  std::string tokenizer_path;  // llama2.c tokenizer for model_path
  std::string model_note;      // why there is no model
  int threads = 2;             // the multi-threaded runs (1 thread is measured too)
  std::vector<int> prefill_lengths = {64, 512};  // clamped to the context
  int decode_steps = 200;      // clamped to the context after the decode prompt
  int check_steps = 8;         // greedy steps compared with reference_forward
};

struct PrefillResult {
  int tokens = 0;           // prompt length after clamping
  double tokens_per_s = 0;  // best of a few runs, record level off
  double flops = 0;         // engine/cost.h estimate of the pass
  double flops_per_s = 0;
  double compute_fraction = 0;  // best FLOP/s / best FMA peak probed between the runs
                                // (options.threads threads)
};

struct RooflineShapeResult {
  std::string name;
  bool ran = false;
  std::string note;  // why it did not run, or the model file
  ModelConfig config;
  double params = 0;
  double weight_bytes_per_token = 0;  // engine/cost.h, one decode step
  std::vector<PrefillResult> prefill;
  int decode_steps = 0;
  double decode_off_1t = 0, decode_off = 0, decode_summary = 0, decode_full = 0;  // tokens/s
  double decode_read_bytes_per_s = 0;  // best bandwidth probe pass between the decode steps
  double memory_fraction = 0;  // decode_off x weight bytes per token / decode_read_bytes_per_s
  double summary_ratio = 0;    // decode time summary / off
  double full_ratio = 0;       // decode time full / off
  double lens_seconds = 0;     // one logit lens computed on demand from a full record
  // Agreement with reference_forward: greedy ids over check_steps steps (a near tie within the
  // tolerance counts as agreeing) and |logit - reference| <= 1e-4 x max(1, max |reference|).
  bool agrees = false;
  int checked_steps = 0;
  double max_logit_diff = 0;
  double logit_scale = 0;  // max |reference logit| over the checked rows
  std::string agree_note;
  double seconds = 0;      // wall time of the whole shape
};

struct RooflineReport {
  ProbeResult probe_1t, probe_nt;  // 1 thread and options.threads
  int vector_floats = 0;
  std::vector<RooflineShapeResult> shapes;
  bool probes_checked() const { return probe_1t.checked && probe_nt.checked; }
  bool all_agree() const;  // every shape that ran
};

// progress: one line per stage (may be empty).
Result<RooflineReport> run_roofline(const RooflineOptions& opt,
                                    const std::function<void(const std::string&)>& progress);

}  // namespace ts::bench
