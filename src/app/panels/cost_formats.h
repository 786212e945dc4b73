// The Cost panel's "same model, three formats" section: one row per format (F32, Q8_0, Q4_K)
// with a bar of the weight bytes a decode step reads and a bar of the decode tokens per second
// measured here, then the ratios in words. Drawn from a FormatComparison; computes nothing.
#pragma once
#include "app/theme.h"
#include "app/ui_state.h"
#include "session/format_compare.h"

namespace ts {

void draw_format_comparison(const FormatComparison& fc, const Palette& pal, const PanelEnv& env,
                            CostPanelState& own);

}  // namespace ts
