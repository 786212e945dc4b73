// The two views of the Beam & speculative panel (decoding_panel.cpp draws the controls and picks
// one): the beam search tree and speculative decoding's rounds. Both read a finished side run
// (session/side_runs.h) and draw it; neither computes anything of the model.
#pragma once
#include "app/panel_env.h"
#include "app/theme.h"
#include "session/side_runs.h"

namespace ts {

class Session;

namespace decoding {

// The best text and its Σ log p next to greedy's, then the tree: one row per generated token,
// the beams of that step side by side, best first; the best hypothesis' path in the accent
// colour, finished hypotheses outlined, pruned beams greyed. Drawn items: "beam_node" (label:
// the piece as shown, state: best, kept, finished, pruned) and "beam_summary".
void draw_beam_tree(const Session& s, const BeamRun& run, const PanelEnv& env, const Palette& pal);

// The totals (acceptance rate, tokens per target pass, the measured speed-up against plain
// decoding), then one row per round: each draft with q and p and its test (accepted, rejected,
// not tested), then the target's own token (the residual draw, or the bonus). Drawn items:
// "spec_draft" (label: piece, state: accepted, rejected, untested), "spec_token" (state:
// residual, bonus) and "spec_summary".
void draw_spec_rounds(const Session& s, const SpecRun& run, const PanelEnv& env,
                      const Palette& pal);

}  // namespace decoding

}  // namespace ts
