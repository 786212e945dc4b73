// A recorded step's last position computed again from its path's K/V rows (pass_replay.h).
#include "session/pass_replay.h"

#include <new>

#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {

namespace {

Status check_step(const Session& s, int lane, int step) {
  if (!has_model(s)) return make_error("no model loaded");
  if (lane < 0 || lane >= lane_count(s)) return make_error("no lane " + std::to_string(lane));
  if (step < 0 || step >= path_length(s, lane)) {
    return make_error("step " + std::to_string(step) + " is not on lane " + std::to_string(lane) +
                      "'s path (0.." + std::to_string(path_length(s, lane) - 1) + ")");
  }
  return ok_status();
}

}  // namespace

Result<StepInput> step_input(const Session& s, int lane, int step) {
  TS_TRY(check_step(s, lane, step));
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  if (step == 0) return StepInput{prompt_tokens(s).back(), n_prompt - 1};
  return StepInput{step_at(s, lane, step - 1)->token, n_prompt + step - 1};
}

Result<KvCache> path_kv_rows(const Session& s, int lane, int step) {
  Result<StepInput> in = step_input(s, lane, step);
  if (!in.ok()) return in.error();
  const int n = in->pos + 1;
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  try {
    KvCache kv(config(s), n);
    for (int p = 0; p < n; ++p) {
      const Step* owner = step_at(s, lane, p < n_prompt ? 0 : p - n_prompt + 1);
      if (!owner || !owner->kv_rows) return make_error("internal: a step holds no K/V rows");
      owner->kv_rows->restore_row(kv, p);
    }
    kv.advance(n);
    return kv;
  } catch (const std::bad_alloc&) {
    return make_error("out of memory copying " + std::to_string(n) + " K/V rows");
  }
}

Result<PositionPass> recompute_step(const Session& s, int lane, int step, const KvCache& kv,
                                    ThreadPool& pool) {
  Result<StepInput> in = step_input(s, lane, step);
  if (!in.ok()) return in.error();
  try {
    return recompute_position(model(s), kv, in->token, in->pos,
                              &step_at(s, lane, step)->ablation.set, pool);
  } catch (const std::bad_alloc&) {
    return make_error("out of memory recomputing step " + std::to_string(step));
  }
}

}  // namespace ts
