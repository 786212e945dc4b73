// Step into (phase_walk.h): the phases of the step at the cursor, from its record (or, before
// the prefill, from the lane's sampler settings), and the walk through them.
#include "session/phase_walk.h"

#include <cstdio>

#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {

std::vector<PhaseItem> phases(const Session& session, int lane) {
  const int n_layers = has_model(session) ? config(session).n_layers : 0;
  const Step* s = (lane >= 0 && lane < lane_count(session)) ? current_step(session, lane) : nullptr;
  if (!s) {
    std::vector<StageRecord> stages;
    if (lane >= 0 && lane < lane_count(session)) {
      const SamplerSettings& set = settings(session, lane);
      for (const Stage& stage : set.chain) {
        StageRecord r;
        r.kind = kind_of(stage);
        r.name = stage_name(r.kind);
        if (is_off(stage)) r.name += " off";  // as the sampler names it (skipped by build_phases)
        stages.push_back(r);
      }
    }
    return build_phases(n_layers, stages, "draw", "append");
  }
  char buf[64];
  if (s->sampling.draw.greedy) {
    std::snprintf(buf, sizeof buf, "greedy pick");
  } else {
    std::snprintf(buf, sizeof buf, "draw u=%.3f", s->sampling.draw.u);
  }
  std::string draw = buf;
  if (s->forced) draw += " (replaced by a forced token)";
  return build_phases(n_layers, s->sampling.stages, draw, "append '" + s->display + "'");
}

Status step_into(Session& s) {
  const int n = static_cast<int>(phases(s, 0).size());
  if (s.cursor() >= 0 && s.phase_cursor() < n - 1) return s.set_phase(s.phase_cursor() + 1);
  TS_TRY(s.step());
  return s.set_phase(0);
}

Status phase_reset(Session& s) { return s.set_phase(0); }

}  // namespace ts
