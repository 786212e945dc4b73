// The layout: computed from the window size every frame, so panels fill any window with nothing
// overlapping. Menu bar on top, the status bar at the bottom. The overview: the timeline strip
// above the status bar and three columns (left: lesson, prompt, KV cache, model; centre: tokens,
// next token, compare; right: attention, cost, branches) whose widths the splitters set. The
// presentation layout (ui.prefs.focus_panel): the lesson column on the left, sized to its text, the
// focus panel filling the rest, every other panel a tab (a title bar) above it. A panel that
// would be thinner than a few readable lines becomes a tab too. No drawing here.
#pragma once
#include <functional>

#include "app/ui_state.h"

namespace ts {

// Measurements the layout cannot make itself (the app passes ImGui's; tests may leave them out).
struct LayoutMeasure {
  std::function<float(const char*)> text_width;  // default: 0.62 em a character
  std::function<float(float)> lesson_height;     // the lesson panel's content height at a width
};

// Fills ui.frame.rects for every visible panel (hidden ones get an empty rect) and ui.frame.tabbed.
// `menu_height` is the height of the main menu bar; `font_size` sizes the fixed-height strips.
void compute_layout(UiState& ui, float width, float height, float menu_height, float font_size,
                    const LayoutMeasure& m = {});

}  // namespace ts
