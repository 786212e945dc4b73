// Script files for the app (--script FILE): one command a line, driving the window exactly like
// a teacher would: every session command in session/command.h's text form (step [N], back [N],
// seek N, into, first, last, run-to N, force PIECE [lane N], prompt TEXT, sampler SPEC, lanes,
// record, max-tokens, stop, ablate: the same words as a lesson's `do` lines, parsed by the same
// parse_command), then the window's own: view raw|final|STAGE (or a panel section: receipt, map...), sample [N] (the histogram),
// select POSITION (-1: the last), rival PIECE|#ID (the receipt's rival), font N, theme light|dark|projector, focus PANEL|none,
// lesson FILE, next, back-page, screenshot FILE, measure (the Cost panel's machine ceilings),
// poll-open, poll-close, poll-wait N [SECONDS] (the class poll: wait until N students answered
// or SECONDS, default 30, passed; the frames go on meanwhile), quit. Blank lines and '#' comments are skipped. This file parses; App executes the lines one
// per frame, waiting for the worker and for screenshots.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "session/command.h"

namespace ts {

enum class ScriptVerb {
  Session,  // a session command (ScriptLine::command), like the timeline buttons
  View,
  Sample,
  Select,
  Rival,  // rival PIECE|#ID: the Why this token panel's rival
  Font,
  Theme,  // what the panels' controls do
  Focus,  // the presentation layout: focus PANEL (lesson names) or focus none
  Lesson,
  Next,
  BackPage,
  Screenshot,
  Measure,    // run this machine's probes for the Cost panel's roofline
  OpenTrace,  // open-trace FILE: File > Open trace (replayed, or read-only without its model)
  PollOpen,   // the class poll's question for the step on screen (needs --poll)
  PollClose,
  PollWait,   // poll-wait N [SECONDS]
  Quit
};

struct ScriptLine {
  int line = 0;  // 1-based line number in the file
  ScriptVerb verb = ScriptVerb::Session;
  SessionCommand command;  // verb Session
  int n = 1;         // sample / select / font / poll-wait's answers
  double seconds = 0;  // poll-wait's longest wait
  std::string text;  // view, theme, focus, file names
};

// Parses the whole script; the first bad line is an error "line 3: ...". A PIECE or TEXT may be
// quoted ("force \" the\"") to keep leading or trailing spaces; \n and \t escapes are understood
// inside quotes.
Result<std::vector<ScriptLine>> parse_script(std::string_view text);
Result<std::vector<ScriptLine>> load_script(const std::string& path);

}  // namespace ts
