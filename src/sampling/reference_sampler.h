// The reference sampler: the plain implementation of sample() and final_distribution() that the
// fast path (sampler.cpp) must agree with: every stage over the whole vocabulary in double, a
// full softmax per recorded stage, the cumulative strip sorted over every token. sample() also
// uses it for logits that are not all finite. The agreement tests compare the two.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "sampling/sampler.h"

namespace ts {

// Same contract as sample() / final_distribution() (sampler.h); opt.pool is not used.
int reference_sample(const SamplerSettings& s, std::span<const float> logits,
                     std::span<const int> history, uint64_t step, SamplingRecord* rec,
                     const SampleOptions& opt = {});
std::vector<float> reference_final_distribution(const SamplerSettings& s,
                                                std::span<const float> logits,
                                                std::span<const int> history, uint64_t step = 0,
                                                const SampleOptions& opt = {});

}  // namespace ts
