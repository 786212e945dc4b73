// A recorded step's last position computed again, for the questions asked about it afterwards
// (why this token: receipt.h; when did the model decide: decision_map.h). The K/V rows come from
// the steps of the lane's current path, exactly as their passes wrote them, and the step's own
// intervention is applied, so the recomputation is the step's own pass at that position.
// Reads only: the session's working caches are not touched.
#pragma once
#include "base/error.h"
#include "engine/attribution.h"
#include "engine/kv_cache.h"
#include "engine/thread_pool.h"
#include "session/session.h"

namespace ts {

// Rows 0 .. (the last position step `step` fed) of the lane's current path, in a cache of their
// own: every row the steps 0..step wrote. Errors: no model, no such lane or step.
Result<KvCache> path_kv_rows(const Session& s, int lane, int step);
// The position step `step` predicts from (the prompt's last for the prefill, the previous
// step's token after) and the token fed there.
struct StepInput {
  int token = -1;
  int pos = 0;
};
Result<StepInput> step_input(const Session& s, int lane, int step);
// That position recomputed (engine/attribution.h) from `kv`, which holds at least the rows
// path_kv_rows(s, lane, step) holds, with the step's intervention.
Result<PositionPass> recompute_step(const Session& s, int lane, int step, const KvCache& kv,
                                    ThreadPool& pool);

}  // namespace ts
