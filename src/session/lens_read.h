// The logit lens of a step's record, read on demand: a Full record keeps each block's
// last-position residual and the lens (each through the final norm and the unembedding, top-k
// kept: engine/logit_lens.h) is computed on its first read and cached in the record itself, with
// the numbers the pass would have computed. Readers: the Model panel, the receipt tests, the
// trace writer. Call between commands, not while one runs on the worker.
#pragma once
#include <vector>

#include "engine/record.h"

namespace ts {

class Session;

// Empty for a record without it (record level Off or Summary) or without a model. The work runs
// on a pool of the session's thread count, made for the call (the lens costs far more than it).
const std::vector<std::vector<TokenScore>>& logit_lens(const Session& s, const ForwardRecord& r);

}  // namespace ts
