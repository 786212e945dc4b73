// Script parsing (see script.h): a tiny line-based grammar, every error names its line.
#include "app/script.h"

#include "base/read_file.h"
#include "base/text_args.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "app/ui_state.h"

namespace ts {
namespace {

// The rest of the line as text: quoted ("...") with escapes, or taken as is.
Result<std::string> text_arg(std::string_view rest) {
  if (rest.empty() || rest.front() != '"') return std::string(rest);
  std::string_view after;
  Result<std::string> text = parse_quoted(rest, after);
  if (text.ok() && !after.empty()) return Error{"text after the closing quote"};
  return text;
}

Result<int> int_arg(std::string_view rest, int fallback, bool required) {
  if (rest.empty()) {
    if (required) return Error{"needs a number"};
    return fallback;
  }
  int sign = 1;
  if (rest.front() == '-') {
    sign = -1;
    rest.remove_prefix(1);
  }
  if (rest.empty() || rest.size() > 9) return Error{"'" + std::string(rest) + "' is not a number"};
  int v = 0;
  for (char c : rest) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return Error{"'" + std::string(rest) + "' is not a number"};
    v = v * 10 + (c - '0');
  }
  return sign * v;
}

// poll-wait N [SECONDS]: N answers (1 to 10000), at most SECONDS (1 to 3600, default 30).
Status poll_wait_args(std::string_view rest, ScriptLine& out) {
  const size_t sp = rest.find_first_of(" \t");
  Result<int> n = int_arg(rest.substr(0, sp), 0, true);
  if (!n.ok()) return n.error();
  if (n.value() < 1 || n.value() > 10000) return Error{"needs how many answers, 1 to 10000"};
  out.n = n.value();
  out.seconds = 30;
  if (sp != std::string_view::npos) {
    Result<int> s = int_arg(trim_space(rest.substr(sp)), 30, true);
    if (!s.ok()) return s.error();
    if (s.value() < 1 || s.value() > 3600) return Error{"waits 1 to 3600 seconds"};
    out.seconds = s.value();
  }
  return ok_status();
}

Result<ScriptLine> parse_line(std::string_view line) {
  const size_t sp = line.find_first_of(" \t");
  const std::string_view word = line.substr(0, sp);
  const std::string_view rest = sp == std::string_view::npos ? "" : trim_space(line.substr(sp));
  ScriptLine out;
  auto number = [&](int fallback, bool required) -> Status {
    Result<int> r = int_arg(rest, fallback, required);
    if (!r.ok()) return r.error();
    out.n = r.value();
    return ok_status();
  };
  auto text = [&](const char* what) -> Status {
    if (rest.empty()) return Error{std::string("needs ") + what};
    Result<std::string> r = text_arg(rest);
    if (!r.ok()) return r.error();
    out.text = r.value();
    if (out.text.empty()) return Error{std::string("needs ") + what};
    return ok_status();
  };
  auto none = [&]() -> Status {
    if (!rest.empty()) return Error{"takes no argument"};
    return ok_status();
  };
  Status st = ok_status();
  if (is_command_verb(word)) {  // the session's own words (session/command.h)
    Result<SessionCommand> c = parse_command(line);
    if (!c.ok()) return c.error();
    out.verb = ScriptVerb::Session;
    out.command = c.value();
    return out;
  }
  if (word == "lesson") {
    out.verb = ScriptVerb::Lesson;
    st = text("a lesson file");
  } else if (word == "next") {
    out.verb = ScriptVerb::Next;
    st = none();
  } else if (word == "back-page") {
    out.verb = ScriptVerb::BackPage;
    st = none();
  } else if (word == "view") {
    out.verb = ScriptVerb::View;
    st = text("raw, final or a stage name");
  } else if (word == "sample") {
    out.verb = ScriptVerb::Sample;
    st = number(1000, false);
    if (st.ok() && out.n < 1) st = Error{"sample count must be at least 1"};
  } else if (word == "select") {
    out.verb = ScriptVerb::Select;
    st = number(-1, true);
  } else if (word == "rival") {
    out.verb = ScriptVerb::Rival;
    st = text("a token: a piece or #ID");
  } else if (word == "font") {
    out.verb = ScriptVerb::Font;
    st = number(20, true);
    if (st.ok() && (out.n < 10 || out.n > 64)) st = Error{"font size must be from 10 to 64"};
  } else if (word == "theme") {
    out.verb = ScriptVerb::Theme;
    st = text("light, dark or projector");
    if (st.ok() && out.text != "light" && out.text != "dark" && out.text != "projector")
      st = Error{"'" + out.text + "' is not light, dark or projector"};
  } else if (word == "focus") {
    out.verb = ScriptVerb::Focus;
    st = text("a panel name (as in lessons: kv-cache, next-token, ...) or none");
    if (st.ok() && out.text != "none" && panel_from_lesson_name(out.text) < 0)
      st = Error{"no panel '" + out.text + "'"};
  } else if (word == "screenshot") {
    out.verb = ScriptVerb::Screenshot;
    st = text("a file name");
  } else if (word == "open-trace") {
    out.verb = ScriptVerb::OpenTrace;
    st = text("a trace file");
  } else if (word == "measure") {
    out.verb = ScriptVerb::Measure;
    st = none();
  } else if (word == "poll-open" || word == "poll-close") {
    out.verb = word == "poll-open" ? ScriptVerb::PollOpen : ScriptVerb::PollClose;
    st = none();
  } else if (word == "poll-wait") {
    out.verb = ScriptVerb::PollWait;
    st = poll_wait_args(rest, out);
  } else if (word == "quit") {
    out.verb = ScriptVerb::Quit;
    st = none();
  } else {
    return Error{
        "unknown command '" + std::string(word) +
        "' (step, back, seek, into, first, last, run-to, force, prompt, sampler, lanes, record, "
        "max-tokens, stop, ablate, view, sample, select, rival, font, theme, focus, lesson, next, "
        "back-page, screenshot, measure, open-trace, poll-open, poll-close, poll-wait, quit)"};
  }
  if (!st.ok()) return Error{std::string(word) + ": " + st.error().message};
  return out;
}

}  // namespace

Result<std::vector<ScriptLine>> parse_script(std::string_view text) {
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
    Result<ScriptLine> r = parse_line(line);
    if (!r.ok()) return Error{"line " + std::to_string(number) + ": " + r.error().message};
    r.value().line = number;
    out.push_back(r.value());
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
