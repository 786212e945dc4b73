// The classroom presentation: every page of every shipped lesson, opened headless at 1024x768
// with 24 px text and at 1280x720 in the projector theme, has its focus panel in the presentation
// layout covering at least 35% of the window, nothing clipped in the lesson panel and nothing cut
// or broken in the focus panel (the records the screenshot report lists as "clipped").
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "app/app.h"
#include "harness.h"

namespace ts::test {
namespace {

namespace fs = std::filesystem;

struct Screen {
  float w, h, font;
  const char* theme;
};

std::vector<fs::path> shipped_lessons() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(source_dir() / "lessons", ec))
    if (e.path().extension() == ".md" && e.path().filename() != "README.md")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

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

// Checks the page on screen now; returns a description of what is wrong ("" when fine).
std::string page_problems(App& app, const Screen& sc) {
  const UiState& ui = app.ui();
  if (!ui.prefs.presenting()) return "no panel in focus";
  const PanelRect& r = ui.frame.rects[ui.prefs.focus_panel];
  const float share = r.w * r.h / (sc.w * sc.h);
  std::string out;
  if (share < 0.35f) out += "focus panel covers " + std::to_string(share) + " of the window; ";
  const std::string focus = panel_title(static_cast<PanelId>(ui.prefs.focus_panel));
  // Nothing of the lesson's text may be touched. In the focus panel nothing may be cut by an
  // edge or broken inside a word or number; labels shortened with an ellipsis and a tooltip
  // (heatmap axes, lane labels: the panels' own design) are reported but tolerated here.
  for (const ClippedText& c : ui.log.clipped)
    if (c.panel == std::string(panel_title(PanelId::Lesson)) ||
        (c.panel == focus && c.how != "shortened"))
      out += c.how + " in " + c.panel + ": " + c.text + "; ";
  return out;
}

}  // namespace

TEST_CASE("presentation: every lesson page keeps its focus panel large and nothing clipped") {
  REQUIRE_MESSAGE(fs::exists(source_dir() / "models" / "tales-4m.gguf"),
                  "the shipped model models/tales-4m.gguf is missing");
  const std::vector<fs::path> lessons = shipped_lessons();
  REQUIRE(!lessons.empty());
  const Screen screens[] = {{1024, 768, 24, "light"}, {1280, 720, 28, "projector"}};
  for (const Screen& sc : screens) {
    for (const fs::path& lesson : lessons) {
      CAPTURE(sc.w);
      CAPTURE(lesson.filename().string());
      ImGuiHarness h(sc.w, sc.h);
      AppOptions o;
      o.source_dir = source_dir().string();
      o.use_settings = false;
      o.synchronous = true;
      o.lesson = lesson.string();
      o.font_size = sc.font;
      o.theme = sc.theme;
      App app(o);
      app.start();
      app.record_drawn_always(true);
      lesson_frames(h, app, 4);
      REQUIRE(app.lesson() != nullptr);
      const int pages = app.lesson()->page_count();
      for (int page = 0; page < pages; ++page) {
        CAPTURE(page);
        REQUIRE(app.lesson()->page() == page);
        // The layout settles: the tokens panel measures its chips, the bars take the height the
        // last frame left (distribution_panel.cpp), one frame after a page change.
        lesson_frames(h, app, 3);
        CHECK(page_problems(app, sc) == "");
        if (page + 1 == pages) break;
        for (int tries = 0; tries < 2 && app.lesson()->page() == page; ++tries) {
          app.push(cmd::LessonNext{});  // a question is revealed first, then the page turns
          lesson_frames(h, app, 1);
          if (app.lesson()->page() == page) CHECK(page_problems(app, sc) == "");
        }
      }
      CHECK(app.errors().empty());
    }
  }
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
