// Fuzz harnesses for the text formats: lesson files (lesson/lesson.h parse_lesson) and trace
// JSON (session/trace_json.h parse_trace_json). A lesson error names the file and a line that
// exists; a trace error is one clean line; a trace that parses writes back to JSON that parses
// to the same trace (written twice, the two texts are identical).
#pragma once
#include <cstdlib>
#include <span>
#include <string>

#include "fuzz/harness_common.h"
#include "lesson/lesson.h"
#include "trace/trace_json.h"

namespace ts::fuzz {

inline std::string run_lesson(std::span<const uint8_t> in) {
  const std::string text = as_text(in);
  Result<Lesson> l = parse_lesson(text, "fuzz.md");
  int n_lines = 1;
  for (char c : text) n_lines += c == '\n';
  auto line_ok = [&](int line) { return line >= 1 && line <= n_lines; };
  if (!l.ok()) {
    if (std::string bad = check_error(l.error(), "fuzz.md:"); !bad.empty()) return bad;
    const std::string& m = l.error().message;
    const int line = std::atoi(m.c_str() + 8);
    if (!line_ok(line) || m.find(':', 8) == std::string::npos) {
      return "lesson error without a valid line number: " + m;
    }
    return "";
  }
  if (l->pages.empty() || l->title.empty()) return "a lesson without pages or title parsed";
  for (const LessonPage& p : l->pages) {
    if (!line_ok(p.line)) return "page line " + std::to_string(p.line) + " out of range";
    for (const auto* lines : {&p.actions, &p.checks}) {
      for (const LessonLine& a : *lines) {
        if (!line_ok(a.line)) return "action line " + std::to_string(a.line) + " out of range";
      }
    }
  }
  return "";
}

inline std::string run_trace(std::span<const uint8_t> in) {
  Result<Trace> t = parse_trace_json(as_text(in));
  if (!t.ok()) return check_error(t.error(), "trace JSON");
  const std::string once = trace_to_json(t.value(), -1);
  Result<Trace> again = parse_trace_json(once);
  if (!again.ok()) return "a trace written back does not parse: " + again.error().message;
  const std::string twice = trace_to_json(again.value(), -1);
  if (twice != once) return "a trace written twice differs";
  return "";
}

}  // namespace ts::fuzz
