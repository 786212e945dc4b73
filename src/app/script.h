// Script files for the app (--script FILE): one verb a line, driving the window exactly like a
// teacher would. The verbs are lesson/verb_table.h's, the same words with the same syntax as a
// lesson's ```do lines: the session's (step [N], back [N], seek N, force PIECE [lane N], prompt
// TEXT, sampler SPEC, ...), then the window's (view, sample [N], select, rival, font, theme,
// focus, show, hide, size, ...), the lesson's (lesson FILE, next, back-page, reveal), the
// script's own (screenshot FILE, measure, open-trace FILE, poll-open, poll-close, poll-wait N
// [SECONDS], quit). Blank lines and '#' comments are skipped. This file parses; App executes
// the lines one per frame (app_script.cpp), waiting for the worker and for screenshots.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "lesson/verb_table.h"

namespace ts {

struct ScriptLine {
  int line = 0;  // 1-based line number in the file
  Verb verb;
};

// Parses the whole script; the first bad line is an error "line 3: ...". A PIECE or TEXT may be
// quoted ("force \" the\"") to keep leading or trailing spaces; \n and \t escapes are understood
// inside quotes.
Result<std::vector<ScriptLine>> parse_script(std::string_view text);
Result<std::vector<ScriptLine>> load_script(const std::string& path);

}  // namespace ts
