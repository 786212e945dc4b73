// The presentation layout as a class sees it, checked on the frame just drawn: a panel is in
// focus, it covers at least a third of the window (35%), nothing of the lesson panel's text is
// clipped, the focus panel hides nothing it drew below its fold or past its edge (no
// scrolling), and nothing in it is cut by an edge or broken inside a word (a label
// shortened with an ellipsis and a tooltip, the panels' own design, is tolerated). The lesson
// render check runs it on every page; the headless tests run it on hand-made states.
#pragma once
#include <string>

#include "app/panel_env.h"

namespace ts {

inline constexpr float kFocusShareAtLeast = 0.35f;  // of the window's area

// "" when the layout is fine, else what is wrong ("; "-separated). w, h: the window in pixels.
std::string presentation_problems(const Preferences& prefs, const FrameLayout& frame,
                                  const DrawLog& log, float w, float h);

}  // namespace ts
