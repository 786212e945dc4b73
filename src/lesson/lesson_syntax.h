// The small languages inside a lesson's blocks. An action line is "verb args" (step 3, force
// " dog", select layer 2). A check line compares a measured quantity with a value:
//   top-1 is " there"      kv length is 12      p(" dog") > 0.2      entropy < 1.5
//   intensity(step 0) > intensity(step 3)       kv length is prompt-tokens + 1
//   lanes diverge by step 5                     lane 1: text contains "x"
// This file parses; lesson_checks.cpp evaluates against a Session.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "lesson/lesson.h"

namespace ts {

// The text without leading and trailing spaces, tabs and carriage returns.
std::string lesson_trim(std::string_view s);

// A word of a line: a quoted string (escapes \" \\ \n \t decoded) or a bare word / number /
// operator / parenthesis.
struct LessonToken {
  std::string text;
  bool quoted = false;
};
Result<std::vector<LessonToken>> lex_lesson_line(std::string_view line);

// One side of a comparison: a named quantity with an optional argument, or a literal.
struct Operand {
  enum class Kind { Number, Text, Metric } kind = Kind::Number;
  double number = 0;
  std::string text;    // Text literal, or the metric's name ("top-1", "kv-length", "p", "flops")
  std::string arg;     // p("x") -> "x" (quoted); flops(step 3) / token 3 -> "3"; p(top-1) -> "top-1"
  bool arg_quoted = false;
  bool has_arg = false;
  double offset = 0;  // "prompt-tokens + 1": added to a numeric metric
};

struct Check {
  int lane = 0;          // "lane N: ..." prefix
  std::string special;   // "diverge-by" / "agree-through" (lanes), else ""
  int step = 0;          // for the specials
  Operand lhs;
  std::string op;        // is == != < <= > >= contains
  Operand rhs;
  std::string source;    // the original line
};

Result<LessonLine> parse_action_syntax(std::string_view line);
Result<Check> parse_check_syntax(std::string_view line);

// The panels lessons can show, hide, focus and size are the app's (app/panel_table.cpp): it
// registers their names at start-up. Without it (a build without the app) any lower-case word
// passes the syntax check and the app reports an unknown one when it applies the page.
void set_lesson_panel_names(std::vector<std::string> names);
const std::vector<std::string>& lesson_panel_names();
bool lesson_panel_known(const std::string& name);
// Metric names a check may use, with whether they are numbers (true) or text (false).
bool lesson_metric_known(const std::string& name, bool* is_number);

}  // namespace ts
