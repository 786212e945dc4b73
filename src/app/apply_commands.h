// Applies one panel Command to the Session through session/command.h (the one place any front
// end changes a session).
// App-level commands (export PNG / trace, quit) are not session commands: is_session_command()
// tells them apart and App handles those itself. Runs on the worker thread; no ImGui here.
#pragma once
#include "app/commands.h"
#include "base/error.h"

namespace ts {

class Session;

bool is_session_command(const Command& c);
// The class poll's commands (applied by App on the UI thread, app_poll.cpp).
bool is_poll_command(const Command& c);
// `play_speed` is the UI's speed for Play / TogglePlay. Step{n} stops at the first failing step.
Status apply_ui_command(Session& s, const Command& c, float play_speed);

}  // namespace ts
