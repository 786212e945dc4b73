// The Next token panel's trace of a value a stage carries from step to step (mirostat's mu):
// a line over the steps of the lane's path with the target tau dashed, the shown step a dot,
// the later steps faded, labelled with this step's value and the target. Drawn under the summary
// when the view is such a stage; nothing otherwise.
#pragma once
#include "app/panels/distribution_parts.h"

namespace ts::distribution {

// True when it drew (the view is a stage whose records carry "mu").
bool draw_stage_trace(const Session& s, int lane, const Step& st, ViewChoice v,
                      const PanelEnv& env);

}  // namespace ts::distribution
