// Parts of the next-token distribution panel (distribution_panel.cpp), kept apart so the panel
// reads as its layout: which view is shown (raw, a stage, final; following "step into"), the view
// selector, the rows for a view (kept, cut line, cut; the chosen token always visible), the
// one-line summary, and the unused predictions of the prefill at earlier prompt positions.
// Used by that panel only; no other panel includes this.
#pragma once
#include <string>
#include <vector>

#include "app/ui_state.h"
#include "app/widgets/prob_bars.h"
#include "sampling/sampler.h"

namespace ts {

class Session;
struct Step;

namespace distribution {

// The view actually shown: while stepping into an iteration it follows the newest revealed phase;
// a greedy lane's final view shows the raw model (its final distribution is 100% on one token).
struct ViewChoice {
  DistStage stage = DistStage::Final;
  int index = 0;
};
ViewChoice effective_view(const Session& s, const PanelEnv& env, const DistributionPanelState& own,
                          const SamplingRecord& rec);
// Raw logits -> each stage -> final, as buttons (one or two rows) or a combo box.
void view_selector(const Session& s, const PanelEnv& env, DistributionPanelState& own,
                   const SamplingRecord& rec, ViewChoice shown);
// Rows for view `v` (at most n): kept candidates by probability, then a few the stage cut (their
// bar is the probability before the cut). cut_after / cut_label: where the cut line goes;
// gap_before: the chosen token was moved up from below the rows shown. Each row carries its
// sample count (hist) and a reference p drawn as an outline: the raw model's under a sampler view,
// the final one under the raw view (raw and final overlaid).
std::vector<BarRow> make_rows(const Session& s, const SamplingRecord& rec, ViewChoice v, int n,
                              int chosen, const HistogramView* hist, int* cut_after,
                              std::string* cut_label, int* gap_before);
std::string with_thousands(int n);       // 1000 -> "1,000"
// The chosen token, and per distribution (raw model, the stage shown, after the sampler) its p,
// 1-based rank and the entropy; the block of view v is bold.
void draw_summary(const Session& s, const Step& st, ViewChoice v, const PanelEnv& env);
// A prompt position inside the prefill was selected: what the model predicted there (unused).
void draw_prompt_prediction(const Session& s, const PanelEnv& env, int lane, int pos);

}  // namespace distribution
}  // namespace ts
