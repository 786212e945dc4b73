// The app's commands and the thread that runs them: every app command has a name of its own (a
// failure is reported under the right name), and an exception that escapes a job becomes one
// error line while the worker stays usable.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "app/commands.h"
#include "app/worker.h"

namespace ts::test {
namespace {

template <size_t... I>
std::vector<std::string> all_command_names(std::index_sequence<I...>) {
  return {command_name(Command{std::in_place_index<I>})...};
}

}  // namespace

TEST_CASE("app commands: each has a name of its own; a failed open-trace is not 'quit'") {
  const std::vector<std::string> names =
      all_command_names(std::make_index_sequence<std::variant_size_v<Command>>{});
  // The session's commands come first (force and force-by-piece share the verb "force"); each
  // of the app's own after them is named differently from every other command.
  const size_t n_session = std::variant_size_v<SessionCommand>;
  const std::set<std::string> session_names(names.begin(), names.begin() + n_session);
  std::set<std::string> app_names;
  for (size_t i = n_session; i < names.size(); ++i) {
    CAPTURE(names[i]);
    CHECK(session_names.count(names[i]) == 0);
    CHECK(app_names.insert(names[i]).second);
  }
  CHECK(app_names.size() == names.size() - n_session);
  CHECK(command_name(Command{cmd::OpenTrace{"a.json"}}) == std::string("open trace"));
  CHECK(command_name(Command{cmd::Quit{}}) == std::string("quit the app"));
  CHECK(command_name(Command{cmd::Step{1}}) == std::string("step"));
}

TEST_CASE("worker: an exception escaping a job is one failure line; the next job runs") {
  Worker w;
  w.submit("open trace", [] { throw std::runtime_error("bad file"); });
  REQUIRE(w.wait_idle(-1));
  CHECK_FALSE(w.busy());
  CHECK(w.take_failure() == "open trace failed: bad file");
  CHECK(w.take_failure().empty());  // taken once

  w.submit("odd", [] { throw 42; });
  REQUIRE(w.wait_idle(-1));
  CHECK(w.take_failure() == "odd failed: an unknown exception");

  int ran = 0;
  w.submit("step", [&] { ran = 1; });
  REQUIRE(w.wait_idle(-1));
  CHECK(ran == 1);
  CHECK(w.take_failure().empty());
}

}  // namespace ts::test
