// Shared read-only helpers every panel uses to agree on what is on screen: which lane, which
// step, which position, and how much of the step "step into" has revealed so far. Pure functions
// of (const Session, the shared Selection); no drawing, no commands.
#pragma once
#include "app/panel_env.h"
#include "session/phases.h"

namespace ts {

class Session;
struct Step;

// sel.selected_lane clamped to the session's lanes (0 when there is no model).
int shown_lane(const Session& s, const Selection& sel);
// The shown lane's step at the cursor; nullptr before the prefill or without a model.
const Step* shown_step(const Session& s, const Selection& sel);
// The position the panels focus on: sel.selected_position when it is inside the shown sequence,
// else the newest computed position (the one whose prediction is being made); -1 if none.
int shown_position(const Session& s, const Selection& sel);
// Timeline node id of shown_step (stable while the tree lives), -1 if none.
int shown_node(const Session& s, const Selection& sel);
// Predict-then-reveal: true while the shown step's outcome (distribution, chosen token) must stay
// hidden from the class.
bool outcome_hidden(const Session& s, const Selection& sel);
// Length of the shown lane's sequence up to the cursor (prompt + chosen tokens).
int shown_sequence_length(const Session& s, const Selection& sel);

// Step into: has the phase cursor reached the first phase of `kind` (for Attention/Mlp: of that
// layer; layer -1 = any layer)? Always true when the whole step is revealed (after step/back/
// seek), false before the prefill.
bool phase_revealed(const Session& s, PhaseKind kind, int layer = -1);
// Same for a sampler stage by chain index.
bool stage_revealed(const Session& s, int stage_index);
// True while step into is walking through an iteration (not every phase shown yet).
bool stepping_into(const Session& s);

}  // namespace ts
