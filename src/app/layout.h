// The fixed layout: computed from the window size every frame, so panels fill any window with
// nothing clipped and nothing overlapping. Menu bar on top, the status bar at the bottom, the
// timeline (transport) strip above it, and three columns: left (prompt & model, model card),
// centre (tokens, next-token distribution, compare lanes), right (attention, KV cache, cost,
// branches). Hidden panels give their space to the others. No drawing here.
#pragma once
#include "app/ui_state.h"

namespace ts {

// Fills ui.layout for every visible panel (hidden ones get an empty rect). `menu_height` is the
// height of the main menu bar; `font_size` sizes the fixed-height strips.
void compute_layout(UiState& ui, float width, float height, float menu_height, float font_size);

}  // namespace ts
