// What the next-token panel's header says about one view of a step: the chosen token's
// probability and 1-based rank in that distribution and the distribution's entropy, for the raw
// model (softmax of the logits), a sampler stage and the final distribution. Pure functions of
// the step's SamplingRecord, so the header can never show the final numbers in the raw view.
#pragma once
#include "sampling/sampler.h"

namespace ts {

struct Step;

struct ViewStats {
  float p = 0;              // the chosen token's probability in this distribution
  bool p_known = false;     // false: not among the recorded candidates (p is then an upper bound)
  int rank = 0;             // 1 = most probable; 0 = unknown (below the recorded candidates)
  float entropy = 0;        // bits
  bool entropy_known = false;  // a stage's entropy is known only when all its kept tokens were recorded
};

// softmax(raw logits): p and rank from rec.raw, entropy = draw.raw_entropy.
ViewStats raw_stats(const SamplingRecord& rec, int token);
// After chain stage `index`: p and rank among its kept candidates; entropy when n_kept tokens
// are all in the record.
ViewStats stage_stats(const SamplingRecord& rec, int index, int token);
// The distribution the draw used: the step's chosen_p / chosen_rank, entropy = draw.entropy.
ViewStats final_stats(const Step& st);

}  // namespace ts
