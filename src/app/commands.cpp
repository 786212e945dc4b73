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

const char* command_name(const Command& c) {
  if (std::optional<SessionCommand> s = as_session_command(c)) return command_name(*s);
  return std::visit(
      [](const auto& x) -> const char* {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, cmd::LessonOpen>)
          return "open lesson";
        else if constexpr (std::is_same_v<T, cmd::LessonNext>)
          return "next page";
        else if constexpr (std::is_same_v<T, cmd::LessonBack>)
          return "previous page";
        else if constexpr (std::is_same_v<T, cmd::ExportPng>)
          return "export png";
        else if constexpr (std::is_same_v<T, cmd::ExportTrace>)
          return "export trace";
        else if constexpr (std::is_same_v<T, cmd::MeasureMachine>)
          return "measure this machine";
        else if constexpr (std::is_same_v<T, cmd::CompareFormats>)
          return "compare F32, Q8_0 and Q4_K";
        else if constexpr (std::is_same_v<T, cmd::ShowPanel>)
          return "show panel";
        else if constexpr (std::is_same_v<T, cmd::FocusPanel>)
          return "focus panel";
        else if constexpr (std::is_same_v<T, cmd::Notice>)
          return "notice";
        else
          return "quit";
      },
      c);
}

}  // namespace ts
