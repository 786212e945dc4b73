// Splitters: thin handles on the borders between the layout's columns (the overview's three
// columns; the presentation layout's lesson column) and between panels stacked in a column of
// the overview. Dragging one changes UiState::layout_prefs, which the settings file remembers;
// a double-click restores the default.
#pragma once
#include "app/ui_state.h"

namespace ts {

// Draws the handles for this frame's layout (call after the panels, so they lie on top).
void draw_splitters(UiState& ui);

}  // namespace ts
