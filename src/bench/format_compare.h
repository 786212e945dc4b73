// The same model with its matrices as F32, Q8_0 and Q4_K, side by side: the weight bytes one
// decode step reads (engine/cost.h at each format's bytes per value) and the decode tokens per
// second measured here, each format timed in turn, best of a few runs. "Decode is memory-bound"
// made visible a second way: fewer bytes per weight, more tokens per second (as far as the
// integer kernels keep up; a model that fits in the cache gains less). The quantized copies are
// made in memory with the GGUF writer's quantizers; a matrix whose rows do not fill whole blocks
// stays fp32, as the writer would store it.
#pragma once
#include <string>
#include <vector>

#include "base/error.h"
#include "engine/model.h"

namespace ts {

struct FormatSpeed {
  std::string type;            // "F32", "Q8_0", "Q4_K"
  double bytes_per_token = 0;  // weight bytes read by one decode step
  double weight_bytes = 0;     // resident weights
  double tokens_per_s = 0;     // decode, record off, best run
};

struct FormatComparison {
  int threads = 0;
  int steps = 0;  // decode steps per timed run
  int runs = 0;
  std::vector<FormatSpeed> rows;  // F32, Q8_0, Q4_K

  const FormatSpeed* find(const std::string& type) const;
};

// The three copies of `model` (quantized or not: it is decoded to fp32 first), each timed over
// `steps` greedy decode steps after a short prefill, `runs` times in turn.
Result<FormatComparison> compare_formats(const Model& model, int threads, int steps = 24,
                                         int runs = 3);

}  // namespace ts
