// Command -> Session: the session's commands go to session/command.h's apply_command, the one
// place any front end changes a session; a trace is replayed through trace/ (above session/);
// the app's other commands are not applied here.
#include "app/apply_commands.h"

#include "session/session.h"
#include "trace/trace_json.h"
#include "trace/trace_replay.h"

namespace ts {

bool is_session_command(const Command& c) {
  return !std::holds_alternative<cmd::ExportPng>(c) &&
         !std::holds_alternative<cmd::ExportTrace>(c) && !std::holds_alternative<cmd::Quit>(c) &&
         !std::holds_alternative<cmd::ShowPanel>(c) &&
         !std::holds_alternative<cmd::FocusPanel>(c) && !std::holds_alternative<cmd::Notice>(c) &&
         !is_poll_command(c);
}

bool is_poll_command(const Command& c) {
  return std::holds_alternative<cmd::PollStart>(c) || std::holds_alternative<cmd::PollStop>(c) ||
         std::holds_alternative<cmd::PollOpen>(c) || std::holds_alternative<cmd::PollClose>(c);
}

Status apply_ui_command(Session& s, const Command& c, float play_speed) {
  if (std::optional<SessionCommand> sc = as_session_command(c)) {
    return apply_command(s, *sc, play_speed);
  }
  if (const auto* ot = std::get_if<cmd::OpenTrace>(&c)) {  // above the session: trace/
    Result<Trace> t = read_trace_json(ot->path);
    if (!t.ok()) return t.error();
    return replay_trace(s, t.value());
  }
  return make_error(std::string("not a session command: ") + command_name(c));
}

}  // namespace ts
