// The logit lens read on demand (lens_read.h).
#include "session/lens_read.h"

#include <algorithm>

#include "engine/logit_lens.h"
#include "engine/thread_pool.h"
#include "session/session.h"

namespace ts {

const std::vector<std::vector<TokenScore>>& logit_lens(const Session& s, const ForwardRecord& r) {
  if (!s.loaded() || !r.logit_lens.empty()) return r.logit_lens;
  ThreadPool pool(std::max(1, s.options().n_threads));
  return ensure_logit_lens(s.loaded()->model, r, s.options().lens_top_k, pool);
}

}  // namespace ts
