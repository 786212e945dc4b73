// Script files for the app (--script FILE): one command a line, driving the window exactly like
// a teacher would: step [N], back [N], seek N, into, force PIECE, prompt TEXT, sampler SPEC
// (lane 0, as in sampling/sampler_spec.h), view raw|final|STAGE, sample [N] (the histogram),
// select POSITION (-1: the last), font N, theme light|dark|projector, focus PANEL|none,
// lesson FILE, next, back-page, screenshot FILE, measure (the Cost panel's machine ceilings),
// quit. Blank lines and '#' comments are skipped. This file parses; App executes the lines one
// per frame, waiting for the worker and for screenshots.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace ts {

enum class ScriptVerb {
  Step,
  Back,
  Seek,
  Into,
  Force,
  Prompt,  // the session, like the timeline buttons
  Sampler,
  View,
  Sample,
  Select,
  Font,
  Theme,  // what the panels' controls do
  Focus,  // the presentation layout: focus PANEL (lesson names) or focus none
  Lesson,
  Next,
  BackPage,
  Screenshot,
  Measure,    // run this machine's probes for the Cost panel's roofline
  OpenTrace,  // open-trace FILE: File > Open trace (replayed, or read-only without its model)
  Quit
};

struct ScriptLine {
  int line = 0;  // 1-based line number in the file
  ScriptVerb verb = ScriptVerb::Step;
  int n = 1;         // step / back / seek
  std::string text;  // force piece, prompt text, file names
};

// Parses the whole script; the first bad line is an error "line 3: ...". A PIECE or TEXT may be
// quoted ("force \" the\"") to keep leading or trailing spaces; \n and \t escapes are understood
// inside quotes.
Result<std::vector<ScriptLine>> parse_script(std::string_view text);
Result<std::vector<ScriptLine>> load_script(const std::string& path);
const char* script_verb_name(ScriptVerb v);

}  // namespace ts
