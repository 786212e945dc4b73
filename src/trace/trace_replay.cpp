// Replaying a trace into a Session (see trace_replay.h).
#include "trace/trace_replay.h"

#include <algorithm>
#include <filesystem>

#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts {
namespace {

bool same_sampler(const SamplerSettings& a, const SamplerSettings& b) { return a == b; }

// The settings that chose step k of a lane: the step's own when recorded, else the lane's.
const SamplerSettings& settings_at(const TraceLane& l, int k) {
  if (k >= 0 && k < static_cast<int>(l.steps.size()) && l.steps[k].has_sampler)
    return l.steps[k].sampler;
  return l.settings;
}

}  // namespace

Status replay_trace(Session& s, const Trace& t, const std::string& tokenizer_path) {
  if (t.lanes.empty()) return make_error("the trace has no lanes");
  if (static_cast<int>(t.lanes.size()) > kMaxLanes)
    return make_error("the trace has more than " + std::to_string(kMaxLanes) + " lanes");
  const bool loaded = has_model(s) && model_info(s).path == t.model_path;
  if (!loaded) {
    if (t.model_path.empty() || !std::filesystem::exists(t.model_path))
      return make_error("the trace's model file '" + t.model_path +
                        "' is not here: copy it to that path to replay the trace");
    TS_TRY(s.load_model(t.model_path, tokenizer_path));
  }
  if (config(s).vocab_size != t.config.vocab_size || config(s).n_layers != t.config.n_layers ||
      config(s).d_model != t.config.d_model)
    return make_error("the model at '" + t.model_path + "' is not the one the trace recorded");
  TS_TRY(set_record_level(s, t.record_level));
  if (t.max_tokens >= 1) TS_TRY(set_max_tokens(s, t.max_tokens));
  TS_TRY(set_stop_strings(s, t.stop_strings));
  TS_TRY(s.set_prompt(t.prompt));
  if (prompt_tokens(s) != t.prompt_tokens)
    return make_error("the prompt tokenizes differently here than in the trace");
  while (lane_count(s) > 1) TS_TRY(s.remove_lane(lane_count(s) - 1));
  TS_TRY(s.set_sampler(0, settings_at(t.lanes[0], 0)));
  for (size_t i = 1; i < t.lanes.size(); ++i) {
    Result<int> r = s.add_lane(settings_at(t.lanes[i], 0));
    if (!r.ok()) return r.error();
  }
  size_t longest = 0;
  for (const TraceLane& l : t.lanes) longest = std::max(longest, l.steps.size());
  for (int k = 0; k < static_cast<int>(longest); ++k) {
    if (!can_step(s)) break;
    TS_TRY(s.step());
    for (int lane = 0; lane < static_cast<int>(t.lanes.size()); ++lane) {
      const std::vector<TraceStep>& steps = t.lanes[lane].steps;
      if (k >= static_cast<int>(steps.size())) continue;
      // An intervention's branch: the step's pass runs again with it (as Session::ablate did).
      if (const Step* cur = step_at(s, lane, k); cur && !(cur->ablation == steps[k].ablation))
        TS_TRY(s.ablate(steps[k].ablation, lane));
      // A sampler changed mid-run: the new one chose this step again (as the app did).
      if (!same_sampler(settings(s, lane), settings_at(t.lanes[lane], k)))
        TS_TRY(s.branch_sampler(lane, settings_at(t.lanes[lane], k)));
      if (steps[k].forced) TS_TRY(s.force(steps[k].token, lane));
    }
  }
  // Every lane's path must begin with the trace's, token by token (the lanes step together, so a
  // lane the trace recorded shorter, after a rewind and a fork, may hold more steps past its end:
  // computed the same way, beyond the trace).
  for (int lane = 0; lane < static_cast<int>(t.lanes.size()); ++lane) {
    const std::vector<TraceStep>& steps = t.lanes[lane].steps;
    for (int k = 0; k < static_cast<int>(steps.size()); ++k) {
      const Step* st = step_at(s, lane, k);
      if (!st || st->token != steps[k].token)
        return make_error("the replay differs from the trace at lane " + std::to_string(lane) +
                          " step " + std::to_string(k) + ": the trace has token " +
                          std::to_string(steps[k].token) + ", the replay " +
                          (st ? std::to_string(st->token) : std::string("no step")));
    }
  }
  return s.seek(std::clamp(t.cursor, -1, max_path_length(s) - 1));
}

}  // namespace ts
