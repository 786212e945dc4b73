// `tokenscope lesson check --render WxH:FONT FILE...`: every page of each lesson drawn by the real
// app, headless (an ImGui context without a window), in the projector theme at that window size
// and font size. On each page (before and after its question is revealed) the page's text,
// question and checks must show without scrolling, the presentation layout must hold (a panel
// in focus over at least 35% of the window, nothing clipped in the lesson or cut in the focus
// panel: presentation_check.h); after the reveal every ```see line must hold
// over the items the class can see; and before it, a question must still hide its answer (at
// least one see line fails). Prints "N pages, M visible checks" per lesson and each miss as
// file:line.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "app/panel_env.h"
#include "lesson/lesson_see.h"

namespace ts {

struct LessonRenderOptions {
  std::vector<std::string> lessons;
  int width = 1280;
  int height = 720;
  float font_size = 28.0f;
  std::string source_dir;  // where models/ lives (the default model)
  std::string exe_path;
};

// Returns the process exit code: 0 when every lesson passed, 1 otherwise.
int run_lesson_render(const LessonRenderOptions& opt, std::ostream& out, std::ostream& err);

// What the class saw in the last recorded frame: the visible items and the lesson text's fold.
ScreenRecord screen_record(const DrawLog& log);

}  // namespace ts
