// The chain inspector: which stages of a sampler chain do something. From the settings alone,
// the stages that can never act (off values, a temperature of 1, anything after a stage that
// leaves one token, such as greedy or top-k 1); from a step's record, the stages that changed
// nothing at that step (the same tokens kept with the same probabilities as before them).
#pragma once
#include <string>
#include <vector>

#include "sampling/sampler.h"

namespace ts {

enum class StageVerdict {
  Acts,       // changed the distribution at this step (or: can act, without a record)
  Unchanged,  // could act, but changed nothing at this step
  NeverActs,  // cannot act with these settings, at any step
};

struct StageCheck {
  StageVerdict verdict = StageVerdict::Acts;
  std::string why;  // "off", "after greedy temperature: one token left", "no change at this step"
  bool at_off_values = false;  // never acts because its own values are off (or temperature 1)
};

// One entry per stage of s.chain. rec (may be null) is a step sampled with s: its stages are
// compared with what came before them; a record whose stage count differs is not used.
std::vector<StageCheck> inspect_chain(const SamplerSettings& s, const SamplingRecord* rec);

// "top-p: never acts (after greedy temperature: one token left) · min-p: never acts (off)", or
// "" when every stage acts. with_off = false leaves out the stages at their off values (the
// app's strip already hides those).
std::string inspector_line(const SamplerSettings& s, const std::vector<StageCheck>& checks,
                           bool with_off = true);

}  // namespace ts
