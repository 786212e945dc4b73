// Script parsing (see script.h): one verb a line through lesson/verb_table.h, every error names
// its line.
#include "app/script.h"

#include "base/read_file.h"
#include "base/text_args.h"
#include "app/panel_table.h"
#include "lesson/lesson_syntax.h"

namespace ts {

Result<std::vector<ScriptLine>> parse_script(std::string_view text) {
  // The panel names verbs check are the app's (a test may parse before the app starts).
  if (lesson_panel_names().empty()) set_lesson_panel_names(panel_lesson_names());
  std::vector<ScriptLine> out;
  int number = 0;
  while (!text.empty() || number == 0) {
    ++number;
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    line = trim_space(line);
    if (line.empty() || line.front() == '#') {
      if (text.empty()) break;
      continue;
    }
    Result<Verb> r = parse_verb(line, "command");
    if (!r.ok()) return Error{"line " + std::to_string(number) + ": " + r.error().message};
    out.push_back(ScriptLine{number, std::move(r).value()});
    if (text.empty()) break;
  }
  return out;
}

Result<std::vector<ScriptLine>> load_script(const std::string& path) {
  Result<std::string> text = read_regular_file(path, uint64_t{1} << 20, "script");
  if (!text.ok()) return Error{"cannot read script: " + text.error().message};
  Result<std::vector<ScriptLine>> r = parse_script(text.value());
  if (!r.ok()) return Error{path + ": " + r.error().message};
  return r;
}

}  // namespace ts
