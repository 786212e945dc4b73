// Command -> Session: the session's commands go to session/command.h's apply_command, the one
// place any front end changes a session; the app's own commands are not applied here.
#include "app/apply_commands.h"

#include "session/session.h"

namespace ts {

bool is_session_command(const Command& c) {
  return !std::holds_alternative<cmd::ExportPng>(c) &&
         !std::holds_alternative<cmd::ExportTrace>(c) && !std::holds_alternative<cmd::Quit>(c);
}

Status apply_ui_command(Session& s, const Command& c, float play_speed) {
  if (std::optional<SessionCommand> sc = as_session_command(c)) {
    return apply_command(s, *sc, play_speed);
  }
  return make_error(std::string("not a session command: ") + command_name(c));
}

}  // namespace ts
