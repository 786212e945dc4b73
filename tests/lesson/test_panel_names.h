// The panel names a lesson may use, as the app registers them at start-up (app/panel_table.cpp);
// the lesson tests run without the app, so they register the same list themselves.
#pragma once
#include "lesson/lesson_syntax.h"

namespace ts::test {

inline void register_lesson_panels() {
  set_lesson_panel_names({"lesson", "prompt", "kv-cache", "model", "tokens", "next-token",
                          "distribution", "compare", "attention", "cost", "branches", "timeline", "why",
                          "poll", "decoding"});
}

}  // namespace ts::test
