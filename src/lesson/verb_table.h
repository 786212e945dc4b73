// The app's verbs: the one table of the words a lesson's ```do / ```reveal lines and a --script
// line may say (the session's own words, session/command.h, first; then the window's and the
// lesson's: view, select, show, font, screenshot, quit, ...). Each row has the verb's name, its
// argument syntax, one help line and its parser, which yields a Verb: a SessionCommand, or one
// of the window's values below. Lessons (lesson_syntax.cpp, lesson_runner.cpp) and scripts
// (app/script.cpp, app/app_script.cpp) parse through this table, so both accept the same words
// with the same syntax; each applies a Verb with a std::visit that has one overload per
// alternative, so a new verb without a handler does not compile. A verb that means nothing in
// one place (quit in a lesson, tokenizer in a script) parses there too and says so when run.
#pragma once
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/error.h"
#include "session/command.h"

namespace ts {

namespace verb {
struct SessionWords {  // step, force, sampler ...: session/command.h's text form
  SessionCommand command;
};
struct Model {  // model default|PATH
  std::string path;
};
struct Tokenizer {  // tokenizer PATH (a lesson's front matter says it)
  std::string path;
};
struct Select {  // select N | select position|layer|head N
  std::string what = "position";
  int n = -1;
};
struct Show {
  std::vector<std::string> panels;
};
struct Hide {
  std::vector<std::string> panels;
};
struct Focus {  // focus PANEL... (shown, the last one in focus) | focus none (empty)
  std::vector<std::string> panels;
};
struct Size {  // size PANEL N%
  std::string panel;
  int percent = 50;
};
struct View {  // raw, final, a sampler stage, or a section of the Cost / Why this token panel
  std::string name;
};
struct NoCache {
  bool on = false;
};
struct Heads {  // "all" or a head number
  std::string which;
};
struct Reveal {};
struct CompareFormats {};
struct Measure {};
struct Sample {
  int n = 1000;
};
struct Rival {  // a piece or #ID, looked up when applied
  std::string piece;
};
struct PollOpen {};
struct PollClose {};
struct PollWait {
  int answers = 1;
  double seconds = 30;
};
struct Font {
  int size = 20;
};
struct Theme {  // light, dark or projector
  std::string name;
};
struct OpenLesson {
  std::string path;
};
struct NextPage {};
struct BackPage {};
struct Screenshot {
  std::string path;
};
struct OpenTrace {
  std::string path;
};
struct Quit {};
}  // namespace verb

using Verb = std::variant<verb::SessionWords, verb::Model, verb::Tokenizer, verb::Select,
                          verb::Show, verb::Hide, verb::Focus, verb::Size, verb::View,
                          verb::NoCache, verb::Heads, verb::Reveal, verb::CompareFormats,
                          verb::Measure, verb::Sample, verb::Rival, verb::PollOpen, verb::PollClose,
                          verb::PollWait, verb::Font, verb::Theme, verb::OpenLesson, verb::NextPage,
                          verb::BackPage, verb::Screenshot, verb::OpenTrace, verb::Quit>;

struct VerbRow {
  std::string_view name;     // the word that starts the line
  std::string_view args;     // its argument syntax, for help ("[N]", "PANEL N%")
  // Arguments that parse ("" when it takes none); a PANEL verb's follow a panel name (the app
  // registers those: lesson_syntax.h), "60%" for `size kv-cache 60%`.
  std::string_view example;
  std::string_view help;     // one line
  Result<Verb> (*parse)(std::string_view rest);  // the rest of the line, trimmed
};

// The rows after the session's words (those are session/command.h's; parse_verb hands them
// to parse_command).
const std::vector<VerbRow>& verb_table();
// Every verb name: the session's, then the table's.
std::vector<std::string> verb_names();
// One line "verb args": the verb's value, or one line of error ("font: needs a font size from
// 10 to 64, got '9'", "unknown action 'stepp' (step, back, ...)"); `noun` is what the front end
// calls a line (a script's "command", a lesson's "action").
Result<Verb> parse_verb(std::string_view line, std::string_view noun);
// The name a Verb is written with ("step" for every session command: its own command_name).
std::string verb_name(const Verb& v);

}  // namespace ts
