// The Cost panel's "same model, three formats" section: one row per format (F32, Q8_0, Q4_K)
// with a bar of the weight bytes a decode step reads and a bar of the decode tokens per second
// measured here, then the ratios in words. Drawn from a FormatComparison; computes nothing.
#pragma once
#include "app/panel_env.h"
#include "app/panel_state.h"
#include "app/theme.h"
#include "bench/format_compare.h"

namespace ts {

// Its bars are noted in env.log; `own` is the Cost panel's state.
void draw_format_comparison(const FormatComparison& fc, const Palette& pal, const PanelEnv& env,
                            CostPanelState& own);

}  // namespace ts
