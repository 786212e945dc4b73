// Sampler settings written as short text, for the CLI (--lanes), lessons and scripts:
// "greedy", "temp=0.8 top-k=40 top-p=0.9 min-p=0.05 seed=7 rep=1.1 freq=0.2 presence=0.1
// last-n=64 order=top-k,top-p,temperature label=careful"; several lanes separated by ';'. A
// value in double quotes may hold spaces and ';': one-of="once upon a time|the end".
// Parsing only: the values are then checked by validate().
#pragma once
#include <string_view>
#include <vector>

#include "base/error.h"
#include "sampling/sampler.h"

namespace ts {

// Starts from `base` (defaults) and applies each key=value; "greedy" sets temperature 0.
// The label defaults to the spec text itself (trimmed). Errors name the bad key or value.
Result<SamplerSettings> parse_sampler_spec(std::string_view spec, const SamplerSettings& base = {});
// "a; b; c" -> one SamplerSettings per non-empty part.
Result<std::vector<SamplerSettings>> parse_lane_specs(std::string_view specs,
                                                      const SamplerSettings& base = {});

}  // namespace ts
