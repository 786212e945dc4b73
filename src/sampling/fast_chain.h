// The fast sampler chain behind sample(): the same stages, records and draw as
// reference_sampler.h, in O(vocabulary) with small constants. While every token is alive the
// logits stay a view of the raw floats (dense_scan.h: selection, vectorised sums on the pool);
// after the first stage that cuts, only the kept tokens are held, in the reference's arithmetic.
#pragma once
#include <cstdint>
#include <span>

#include "sampling/sampler.h"

namespace ts {

// False when the fast path cannot take these inputs (a logit that is NaN or infinite, an empty
// vocabulary, or a chain with no stage that cuts under T > 0: the strip then spans the whole
// vocabulary); sample() then runs reference_sample.
bool fast_path_applies(const SamplerSettings& clamped, std::span<const float> logits,
                       ThreadPool* pool);
// sample() on clamped settings when fast_path_applies(); fills rec (may be null) as
// reference_sample does.
int fast_sample(const SamplerSettings& clamped, std::span<const float> logits,
                std::span<const int> history, uint64_t step, SamplingRecord* rec, int top,
                ThreadPool* pool);

}  // namespace ts
