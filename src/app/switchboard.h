// The switchboard: draws the menu bar and every visible panel for one frame, in a fixed order,
// collecting the commands they emit, then the layout's splitter handles. The only file that knows
// the whole list of panels.
// It does not apply commands (App does, after drawing) and does not compute the layout.
#pragma once
#include "app/commands.h"
#include "app/ui_state.h"

namespace ts {

class Session;
class LessonRunner;

// `lesson` is the open lesson (nullptr when none).
void draw_switchboard(const Session& s, const LessonRunner* lesson, UiState& ui, Commands& cmd);
// Global keys (Space, arrows, Home/End, Ctrl +/-, R, Ctrl+Q; PageDown/PageUp page through an open
// lesson; 1 ... 9, 0 put a panel in focus, Escape goes back to the overview; F1 the keys),
// ignored while a text field has the keyboard. Key codes are GLFW's, which the 1.86 GLFW backend
// uses as io.KeysDown indices.
void handle_shortcuts(const Session& s, const LessonRunner* lesson, UiState& ui, Commands& cmd);

}  // namespace ts
