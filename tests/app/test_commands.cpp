// The app's commands and the thread that runs them: every command has a name of its own (a
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

TEST_CASE("app commands: each alternative has its own name; a failed open-trace is not 'quit'") {
  const std::vector<std::string> names =
      all_command_names(std::make_index_sequence<std::variant_size_v<Command>>{});
  const std::set<std::string> distinct(names.begin(), names.end());
  CHECK(distinct.size() == names.size());
  CHECK(command_name(Command{cmd::OpenTrace{"a.json"}}) == std::string("open trace"));
  CHECK(command_name(Command{cmd::Quit{}}) == std::string("quit"));
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
