// Top-k of a logit vector with each entry's probability under softmax over the whole vector,
// by one pass with a k-entry heap (partial selection, no full sort, no vocab-sized scratch).
// Used for the per-position predictions and the logit lens of a ForwardRecord.
#pragma once
#include <span>
#include <vector>

#include "engine/record.h"

namespace ts {

// out = the k (or fewer, if the vector is shorter) highest logits, best first; ties keep the
// lower id first. p = softmax(logits)[id].
void top_k_scores(std::span<const float> logits, int k, std::vector<TokenScore>& out);

}  // namespace ts
