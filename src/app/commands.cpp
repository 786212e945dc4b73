// Short names of commands (the script runner's messages, logs) and the conversions between the
// app's Command and the session's own commands. Applying them is app/apply_commands.cpp.
#include "app/commands.h"

#include <type_traits>

namespace ts {

namespace {

constexpr size_t kSessionAlternatives = std::variant_size_v<SessionCommand>;

// The first kSessionAlternatives alternatives of Command are SessionCommand's, in its order.
template <size_t... I>
constexpr bool same_prefix(std::index_sequence<I...>) {
  return (std::is_same_v<std::variant_alternative_t<I, Command>,
                         std::variant_alternative_t<I, SessionCommand>> && ...);
}
static_assert(same_prefix(std::make_index_sequence<kSessionAlternatives>{}),
              "app/commands.h: Command must start with SessionCommand's alternatives, in order");

}  // namespace

std::optional<SessionCommand> as_session_command(const Command& c) {
  return std::visit(
      [](const auto& x) -> std::optional<SessionCommand> {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_constructible_v<SessionCommand, T>) {
          return SessionCommand{x};
        } else {
          return std::nullopt;
        }
      },
      c);
}

Command to_command(SessionCommand c) {
  return std::visit([](auto&& x) -> Command { return Command{std::move(x)}; }, std::move(c));
}

namespace {

// One overload per app command: a new alternative without a name here does not compile (the
// visit finds no overload), instead of borrowing another command's name.
struct AppCommandName {
  template <class T>
  requires std::is_constructible_v<SessionCommand, const T&>
  const char* operator()(const T& x) const { return command_name(SessionCommand{x}); }
  const char* operator()(const cmd::OpenTrace&) const { return "open trace"; }
  const char* operator()(const cmd::LessonOpen&) const { return "open lesson"; }
  const char* operator()(const cmd::LessonNext&) const { return "next page"; }
  const char* operator()(const cmd::LessonBack&) const { return "previous page"; }
  const char* operator()(const cmd::ExportPng&) const { return "export png"; }
  const char* operator()(const cmd::ExportTrace&) const { return "export trace"; }
  const char* operator()(const cmd::Quit&) const { return "quit the app"; }
  const char* operator()(const cmd::MeasureMachine&) const { return "measure this machine"; }
  const char* operator()(const cmd::ComputeDecisionMap&) const { return "decision map"; }
  const char* operator()(const cmd::CompareFormats&) const { return "compare F32, Q8_0 and Q4_K"; }
  const char* operator()(const cmd::ShowPanel&) const { return "show panel"; }
  const char* operator()(const cmd::FocusPanel&) const { return "focus panel"; }
  const char* operator()(const cmd::PollStart&) const { return "poll start"; }
  const char* operator()(const cmd::PollStop&) const { return "poll stop"; }
  const char* operator()(const cmd::PollOpen&) const { return "open the poll question"; }
  const char* operator()(const cmd::PollClose&) const { return "close the poll question"; }
  const char* operator()(const cmd::Notice&) const { return "notice"; }
};

}  // namespace

const char* command_name(const Command& c) { return std::visit(AppCommandName{}, c); }

}  // namespace ts
