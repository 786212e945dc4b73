// Transport icons drawn with ImDrawList on top of an ordinary ImGui button, so they are crisp at
// any font size and need no icon font: first |◀, back ◀, play ▶, pause ❚❚, step ▶, last ▶|, and
// "step into" (an arrow bending down). Returns true when clicked. No transport logic here.
#pragma once
#include "imgui.h"

namespace ts {

enum class Icon { First, Back, Play, Pause, Step, Last, StepInto };

// `id` must be unique in the window; `tooltip` is shown on hover (may be nullptr). `size` is the
// square button's side in pixels (<= 0: 1.3 x the frame height).
bool icon_button(const char* id, Icon icon, const char* tooltip, float size = 0.0f,
                 bool enabled = true);

}  // namespace ts
