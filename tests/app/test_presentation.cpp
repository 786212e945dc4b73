// The classroom presentation: the check the lesson render check runs on every page (the focus
// panel covers at least 35% of the window, nothing clipped in the lesson panel, nothing cut or
// broken in the focus panel: presentation_check.h) on hand-made layouts and on one shipped lesson,
// and a page's focus kept until another page names one.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/lesson_render.h"
#include "app/presentation_check.h"
#include "harness.h"

namespace ts::test {
namespace {

namespace fs = std::filesystem;

// Frames as the window would run them, rebuilding the font atlas when the app asks.
void lesson_frames(ImGuiHarness& h, App& app, int n) {
  for (int i = 0; i < n; ++i) {
    if (app.take_font_rebuild()) {
      build_fonts(app.ui().prefs.font_size);
      unsigned char* px = nullptr;
      int tw = 0, th = 0;
      ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&px, &tw, &th);
    }
    h.frame([&] { app.frame(1.0 / 60.0); });
  }
}

}  // namespace

// A frame's layout by hand: the Next token panel in focus over `share` of a 1000x1000 window.
struct Layout {
  Preferences prefs;
  FrameLayout frame;
  DrawLog log;
  explicit Layout(float share) {
    prefs.focus_panel = static_cast<int>(PanelId::Distribution);
    prefs.show.fill(true);
    frame.rects[prefs.focus_panel] = PanelRect{0, 0, 1000, 1000 * share};
  }
  std::string problems() const { return presentation_problems(prefs, frame, log, 1000, 1000); }
};

TEST_CASE("presentation check: the focus panel's share and what is clipped where") {
  CHECK(Layout(0.5f).problems() == "");
  CHECK(Layout(0.35f).problems() == "");
  CHECK(Layout(0.2f).problems() == "the focus panel covers 20% of the window (at least 35%)");
  Layout none(0.5f);
  none.prefs.focus_panel = -1;
  CHECK(none.problems() == "no panel in focus");
  const std::string focus = panel_title(PanelId::Distribution);
  const std::string lesson = panel_title(PanelId::Lesson);
  Layout l(0.5f);
  l.log.clipped.push_back({focus, "a label", "shortened"});  // ellipsis + tooltip: by design
  l.log.clipped.push_back({panel_title(PanelId::Attention), "elsewhere", "cut"});  // not shown big
  CHECK(l.problems() == "");
  l.log.clipped.push_back({focus, "0.41", "cut"});
  l.log.clipped.push_back({lesson, "Which token", "shortened"});  // the lesson's text: never
  CHECK(l.problems() ==
        "cut in " + focus + ": \"0.41\"; shortened in " + lesson + ": \"Which token\"");
  // What the focus panel drew below its fold is a problem; a pixel of rounding, or another
  // panel's overflow, is not.
  Layout o(0.5f);
  o.log.overflow.push_back({focus, 1.0f, 0.0f});
  o.log.overflow.push_back({panel_title(PanelId::Attention), 80.0f, 0.0f});
  CHECK(o.problems() == "");
  o.log.overflow.push_back({focus, 43.0f, 0.0f});
  CHECK(o.problems() == focus + " hides 43 px below its fold and 0 px past its edge");
}

// Every page of every shipped lesson at the four classroom sizes: the lessons_render ctest entry
// (tests/CMakeLists.txt). Here one lesson, to show the check passes on a page that is fine and
// fails where the window is too small for the presentation layout.
TEST_CASE("presentation: the lesson render check holds a shipped lesson to the layout") {
  REQUIRE_MESSAGE(fs::exists(source_dir() / "models" / "tales-4m.gguf"),
                  "the shipped model models/tales-4m.gguf is missing");
  LessonRenderOptions o;
  o.lessons = {(source_dir() / "lessons" / "01_tokens.md").string()};
  o.source_dir = source_dir().string();
  std::ostringstream out, err;
  CHECK(run_lesson_render(o, out, err) == 0);
  CHECK(out.str().find("ok   ") != std::string::npos);
  o.width = 480;
  o.height = 360;
  std::ostringstream small;
  CHECK(run_lesson_render(o, small, err) == 1);
  CAPTURE(small.str());
  CHECK(small.str().find("FAIL ") != std::string::npos);
}

TEST_CASE("presentation: a page's focus stays until another page names one") {
  REQUIRE(fs::exists(source_dir() / "models" / "tales-4m.gguf"));  // shipped with the source
  ImGuiHarness h(1280, 720);
  AppOptions o;
  o.source_dir = source_dir().string();
  o.use_settings = false;
  o.synchronous = true;
  o.lesson = (source_dir() / "lessons" / "08_kv_cache.md").string();
  App app(o);
  app.start();
  lesson_frames(h, app, 4);
  REQUIRE(app.lesson() != nullptr);
  for (int i = 0; i < 3; ++i) {
    app.push(cmd::LessonNext{});
    lesson_frames(h, app, 1);
  }
  REQUIRE(app.lesson()->page() >= 3);  // page 4 names no panel; page 1 said focus kv-cache
  CHECK(app.ui().prefs.focus_panel == static_cast<int>(PanelId::KvCache));
  // Escape, as the teacher's key, goes back to the overview: no tabs, every panel laid out.
  app.ui().prefs.focus_panel = -1;
  lesson_frames(h, app, 1);
  CHECK_FALSE(app.ui().prefs.presenting());
}

}  // namespace ts::test
