// Step into: the phases of the iteration at the cursor (embed, each layer's attention and MLP,
// final norm, logits, each sampler stage that is on, the draw, the append) and the walk through
// them with Session::set_phase.
#pragma once
#include <vector>

#include "session/phases.h"
#include "session/session.h"

namespace ts {

// The phases of the lane's step at the cursor (before the prefill: of the step to come, with the
// lane's sampler settings).
std::vector<PhaseItem> phases(const Session& s, int lane = 0);
// Reveals the next phase; at the last phase, computes the next step and shows its first phase.
Status step_into(Session& s);
// Back to the embed phase of the current step.
Status phase_reset(Session& s);

}  // namespace ts
