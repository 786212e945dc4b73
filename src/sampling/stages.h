// The maths of the five original sampler stages over the full vocabulary, on a working state of logits
// (double, so a tiny temperature does not overflow) plus an alive mask. A stage never removes
// the last alive token. Stage values are in stage.h; no recording and no drawing here: the
// reference sampler strings them together.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sampling/chain_state.h"
#include "sampling/sampler.h"

namespace ts {

// sample() promises never to crash on unvalidated settings: each stage clamped (stage.h).
SamplerSettings clamp_settings(SamplerSettings s);

// NaN and -inf become dead tokens; if none is left alive, every token becomes alive at logit 0.
ChainState make_chain_state(std::span<const float> logits);

// softmax over the alive tokens (dead ones get 0). Max-subtracted; if the max is +inf, the +inf
// tokens share the mass equally.
std::vector<double> softmax_alive(const ChainState& st);
// Alive ids sorted by logit descending, ties by id ascending (= by probability descending).
// With n_sorted < alive count only the first n_sorted are in order (partial sort, O(V log n)).
std::vector<int> ranked_alive(const ChainState& st, size_t n_sorted = SIZE_MAX);
// Entropy in bits of a probability vector (zeros skipped).
double entropy_bits(std::span<const double> p);

// Applies the stage with its own parameters (clamped first by the caller): its descriptor's
// apply(). The outcome's name is record_name(stage) (a stage may add what it found: XTC's coin).
StageOutcome apply_stage(const Stage& stage, const StageContext& ctx, ChainState& st);
StageOutcome apply_stage(const Stage& stage, std::span<const int> history, ChainState& st);

// Individual stages (apply_stage calls these).
// Tokens among the last `last_n` of history: repetition penalty (positive logits divided,
// negative multiplied, as CTRL/llama.cpp), then minus count * freq + presence.
StageOutcome apply_penalties(const Penalties& s, std::span<const int> history, ChainState& st);
// T > 0: divide logits by T. T = 0: keep only the argmax (ties: lowest id).
StageOutcome apply_temperature(float temperature, ChainState& st);
// Keep the k highest logits (ties by lowest id); k = 0 or k >= alive count keeps all.
StageOutcome apply_top_k(int k, ChainState& st);
// Keep the smallest prefix (by probability, ties by id) whose mass reaches p (within 1e-6, so
// hand-written examples behave as on paper); at least one token; p >= 1 keeps all.
StageOutcome apply_top_p(float p, ChainState& st);
// Keep tokens with p >= min_p * p_max (within 1e-6 relative); min_p = 0 keeps all.
StageOutcome apply_min_p(float min_p, ChainState& st);

}  // namespace ts
