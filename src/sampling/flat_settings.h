// The flat form of the sampler settings: one value per stage kind plus an order of kinds. It is
// how settings files, traces, CLI flags and sampler specs spelled the settings before each
// stage carried its own parameters, and they still read and write it, so nothing saved is lost.
// A chain with no kind twice converts to this form and back exactly.
#pragma once
#include <vector>

#include "sampling/sampler.h"

namespace ts {

struct FlatSettings {
  float temperature = 1.0f;         // 0 = greedy (even when "temperature" is not in `order`)
  int top_k = 0;                    // 0 = off
  float top_p = 1.0f;               // 1 = off
  float min_p = 0.0f;               // 0 = off
  float repetition_penalty = 1.0f;  // 1 = off
  float frequency_penalty = 0.0f;   // 0 = off
  float presence_penalty = 0.0f;    // 0 = off
  int penalty_last_n = 64;
  std::vector<StageKind> order = {StageKind::Penalties, StageKind::TopK, StageKind::TopP,
                                  StageKind::MinP, StageKind::Temperature};
};

// The first stage of each kind gives its values (off values for a kind not in the chain); the
// order lists each kind once, where it first appears. Stages without a flat form are left out.
FlatSettings flatten(const std::vector<Stage>& chain);
// The order's stages with their values. Temperature 0 with no "temperature" in the order was
// greedy all the same: the chain then ends with a Temperature 0 stage.
std::vector<Stage> chain_of(const FlatSettings& f);
// True when no stage kind appears twice and every stage is one of the first kFlatStageCount
// (chain_of(flatten(chain)) == chain).
bool flat_expressible(const std::vector<Stage>& chain);

}  // namespace ts
