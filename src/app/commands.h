// Commands: what panels ask for. Panels only read the Session; to change anything they push a
// Command here, and after every panel has drawn, App::dispatch (app.cpp) applies the queue in
// order: the session's commands on the worker through app/apply_commands.cpp, the app's own in
// App itself. The session's commands are session/command.h's, the same values lessons and scripts
// produce; the few below are the app's own. A panel writes its own state, the selection and the
// hover straight (panel_state.h, panel_env.h); the teacher's preferences only through ShowPanel /
// FocusPanel below.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "session/command.h"

namespace ts {

namespace cmd {
// Lessons (lesson/lesson_runner.h): open a lesson file at its first page, move between pages.
struct LessonOpen {
  std::string path;
};
struct LessonNext {};
struct LessonBack {};
struct ExportPng {
  std::string path;
};
struct ExportTrace {
  std::string path;
};
struct Quit {};
struct MeasureMachine {    // run bench's probes for the Cost panel's roofs (on the worker)
  double working_set = 0;  // the model's weight bytes
};
struct CompareFormats {};
// The Why panel's decision map of `lane`'s path, computed on the worker (a large model's map
// takes seconds; the window keeps drawing) and handed to the panel (take_decision_map).
struct ComputeDecisionMap {
  int lane = 0;
};
// Replay a trace JSON exported by tokenscope (trace/trace_replay.h); the app opens it read-only
// when its model file is not here.
struct OpenTrace {
  std::string path;
};
// A panel's window asks for a change of the teacher's preferences (they are read-only to
// panels): its close button hides it, a click on its tab or a double-click on its title puts it
// in focus (-1: back to the overview). Applied by App after the frame, on the UI thread.
struct ShowPanel {
  int panel = 0;  // a PanelId
  bool show = true;
};
struct FocusPanel {
  int panel = -1;  // a PanelId, or -1: the overview
};
// The class poll (app/poll_host.h; desktop only): start its server at "ADDR:PORT" with a class
// code ("" random), stop it, open the question for the step on screen (its guesses start
// empty), close it (the guesses stay). Applied by App on the UI thread; opening without a
// server says so in the Class poll panel.
struct PollStart {
  std::string address;
  std::string code;
};
struct PollStop {};
struct PollOpen {};
struct PollClose {};
// A line for the status bar (a panel's own action failed, e.g. the histogram).
struct Notice {
  std::string text;
  bool is_error = false;
};
}  // namespace cmd

// A variant with the alternatives of `V` first, then `Extra`.
template <class V, class... Extra>
struct VariantAppend;
template <class... A, class... Extra>
struct VariantAppend<std::variant<A...>, Extra...> {
  using type = std::variant<A..., Extra...>;
};

// Every session command (session/command.h, written there only: a new one is an app command
// too), then the app's own: trace replay, lessons, exports, quit, the Cost panel's
// measurements, the decision map, the panels' windows, the class poll.
using Command =
    VariantAppend<SessionCommand, cmd::OpenTrace, cmd::LessonOpen, cmd::LessonNext, cmd::LessonBack,
                  cmd::ExportPng, cmd::ExportTrace, cmd::Quit, cmd::MeasureMachine,
                  cmd::CompareFormats, cmd::ComputeDecisionMap, cmd::ShowPanel, cmd::FocusPanel,
                  cmd::PollStart, cmd::PollStop, cmd::PollOpen, cmd::PollClose, cmd::Notice>::type;

// The session command a Command holds, if it holds one (the first alternatives, in its order).
std::optional<SessionCommand> as_session_command(const Command& c);
// A session command as an app Command.
Command to_command(SessionCommand c);

// The queue one frame's panels fill. Plain vector: order matters (applied first to last).
struct Commands {
  std::vector<Command> queue;
  template <class C>
  void push(C c) {
    queue.emplace_back(std::move(c));
  }
  bool empty() const { return queue.empty(); }
  size_t size() const { return queue.size(); }
  void clear() { queue.clear(); }
  // The first queued command of type C, or nullptr (tests: "the click produced a Force").
  template <class C>
  const C* find() const {
    for (const Command& c : queue)
      if (const C* p = std::get_if<C>(&c)) return p;
    return nullptr;
  }
};

const char* command_name(const Command& c);  // "step", "force", ... (logs, script errors)

}  // namespace ts
