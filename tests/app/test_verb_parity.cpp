// The one verb table (lesson/verb_table.h): every verb parses in a script and in a lesson's
// ```do block, to the same value, and each row's place matches its Verb alternative (verb_name
// reads the row at the alternative's index).
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "app/panel_table.h"
#include "app/script.h"
#include "lesson/lesson_syntax.h"
#include "lesson/verb_table.h"

namespace ts {
namespace {

// Arguments that parse for the session's words (the table's own rows carry theirs).
const std::map<std::string, std::string>& session_examples() {
  static const std::map<std::string, std::string> m = {{"step", "2"},
                                                       {"back", ""},
                                                       {"into", "3"},
                                                       {"seek", "1"},
                                                       {"first", ""},
                                                       {"last", ""},
                                                       {"run-to", "4"},
                                                       {"play", ""},
                                                       {"pause", ""},
                                                       {"force", "\" the\""},
                                                       {"prompt", "Once"},
                                                       {"sampler", "greedy"},
                                                       {"branch-sampler", "temp=0.5"},
                                                       {"lanes", "greedy; temp=1.0"},
                                                       {"record", "full"},
                                                       {"max-tokens", "12"},
                                                       {"stop", "\".\""},
                                                       {"ablate", "L0.H1"},
                                                       {"beam", "3 tokens 6"},
                                                       {"speculate", "models/tales-draft.gguf k 4"},
                                                       {"chat", "system \"Be brief.\" Tell me a tale."}};
  return m;
}

std::string example_line(const std::string& name) {
  for (const VerbRow& r : verb_table()) {
    if (r.name != name) continue;
    std::string args(r.example);
    if (r.args.substr(0, 5) == "PANEL")  // a panel name first: the app's registered ones
      args = lesson_panel_names().front() + (args.empty() ? "" : " " + args);
    return args.empty() ? name : name + " " + args;
  }
  const auto it = session_examples().find(name);
  REQUIRE_MESSAGE(it != session_examples().end(), "no example for the session's verb " << name);
  return it->second.empty() ? name : name + " " + it->second;
}

}  // namespace

TEST_CASE("verb table: every verb parses in a script and in a lesson, to the same alternative") {
  set_lesson_panel_names(panel_lesson_names());
  const std::vector<std::string> names = verb_names();
  CHECK(names.size() == command_verbs().size() + verb_table().size());
  CHECK(std::variant_size_v<Verb> == verb_table().size() + 1);
  for (const std::string& name : names) {
    const std::string line = example_line(name);
    CAPTURE(line);
    Result<std::vector<ScriptLine>> sc = parse_script(line + "\n");
    REQUIRE(sc.ok());
    REQUIRE(sc.value().size() == 1);
    Result<LessonLine> ls = parse_action_syntax(line);
    REQUIRE(ls.ok());
    CHECK(ls.value().verb == name);
    CHECK(ls.value().action.index() == sc.value()[0].verb.index());
    if (!is_command_verb(name)) CHECK(verb_name(sc.value()[0].verb) == name);
  }
}

TEST_CASE("verb table: an unknown word is refused by both, each in its own words") {
  Result<std::vector<ScriptLine>> sc = parse_script("stepp 2\n");
  REQUIRE_FALSE(sc.ok());
  CHECK(sc.error().message.find("line 1: unknown command 'stepp' (step, ") == 0);
  Result<LessonLine> ls = parse_action_syntax("stepp 2");
  REQUIRE_FALSE(ls.ok());
  CHECK(ls.error().message.find("unknown action 'stepp'") == 0);
}

TEST_CASE("verb table: the lesson's and the script's old spellings both parse") {
  set_lesson_panel_names(panel_lesson_names());
  for (const char* line : {"select 3", "select position 3", "select head 1", "focus none",
                           "focus kv-cache next-token", "size lesson 40", "sample"}) {
    CAPTURE(line);
    CHECK(parse_script(std::string(line) + "\n").ok());
    CHECK(parse_action_syntax(line).ok());
  }
}

}  // namespace ts
