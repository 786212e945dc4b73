// The fast sampler chain behind sample(): the same stages, records and draw as
// reference_sampler.h, in O(vocabulary) with small constants. While every token is alive the
// logits stay a view of the raw floats (dense_scan.h: selection, vectorised sums on the pool);
// after the first stage that cuts, only the kept tokens are held, in the reference's arithmetic.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "sampling/sampler.h"

namespace ts {

// False when the fast path cannot take these inputs (a logit that is NaN or infinite, or an
// empty vocabulary); sample() then runs reference_sample.
bool fast_path_applies(const SamplerSettings& clamped, std::span<const float> logits,
                       ThreadPool* pool);
// sample() on clamped settings: nullopt (rec untouched) unless fast_path_applies(), else the
// chosen id, with rec (may be null) filled as reference_sample fills it.
std::optional<int> fast_sample(const SamplerSettings& clamped, std::span<const float> logits,
                               std::span<const int> history, uint64_t step, SamplingRecord* rec,
                               int top, ThreadPool* pool);

}  // namespace ts
