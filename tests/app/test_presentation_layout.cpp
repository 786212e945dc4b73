// The presentation layout without drawing: the focus panel's share at the four classroom window
// sizes and fonts 16-32 px, tabs instead of slivers, the compact timeline; text that wraps at
// spaces only and labels shortened with an ellipsis (recorded as clipped); the layout and focus
// in the settings file (old files still load); the screenshot report's "focus" and "clipped".
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/app.h"
#include "app/layout.h"
#include "app/settings.h"
#include "app/widgets/text_fit.h"
#include "harness.h"

namespace ts::test {
namespace {

bool overlap(const PanelRect& a, const PanelRect& b) {
  return a.x < b.x + b.w - 0.5f && b.x < a.x + a.w - 0.5f && a.y < b.y + b.h - 0.5f &&
         b.y < a.y + a.h - 0.5f;
}

constexpr float kSizes[][2] = {{1024, 768}, {1280, 720}, {1600, 900}, {1920, 1080}};

}  // namespace

TEST_CASE("presentation layout: the focus panel covers >= 35% at every classroom size and font") {
  for (const auto& sz : kSizes) {
    for (float font = 16; font <= 32; font += 4) {
      for (int f = 0; f < kPanelCount; ++f) {
        const PanelId focus = static_cast<PanelId>(f);
        if (focus == PanelId::Lesson || focus == PanelId::Status) continue;
        CAPTURE(sz[0]);
        CAPTURE(font);
        CAPTURE(panel_title(focus));
        UiState ui;
        ui.prefs.show.fill(true);
        ui.prefs.focus_panel = f;
        compute_layout(ui, sz[0], sz[1], font + 8, font);
        REQUIRE(ui.prefs.presenting());
        const PanelRect& r = ui.frame.rect(focus);
        CHECK(r.w * r.h >= 0.35f * sz[0] * sz[1]);
        CHECK_FALSE(ui.frame.tabbed[f]);
        // Full panels never overlap; tabs stay inside the window and never cover the lesson.
        for (int i = 0; i < kPanelCount; ++i) {
          const PanelRect& a = ui.frame.rects[i];
          CHECK(a.x >= 0);
          CHECK(a.x + a.w <= sz[0] + 0.5f);
          CHECK(a.y + a.h <= sz[1] + 0.5f);
          if (ui.frame.tabbed[i]) {
            CHECK_FALSE(overlap(a, ui.frame.rect(PanelId::Lesson)));
            continue;
          }
          for (int j = i + 1; j < kPanelCount; ++j)
            if (!ui.frame.tabbed[j]) CHECK_FALSE(overlap(a, ui.frame.rects[j]));
        }
        // Every other panel but the timeline strip and the status bar is a tab.
        for (int i = 0; i < kPanelCount; ++i) {
          const PanelId id = static_cast<PanelId>(i);
          if (i == f || id == PanelId::Lesson || id == PanelId::Status || id == PanelId::Transport)
            continue;
          CHECK(ui.frame.tabbed[i]);
        }
      }
    }
  }
}

TEST_CASE("presentation layout: the overview makes tabs, never slivers; the timeline is compact") {
  for (const auto& sz : kSizes) {
    for (float font = 16; font <= 32; font += 4) {
      CAPTURE(sz[0]);
      CAPTURE(font);
      UiState ui;
      ui.prefs.show.fill(true);
      compute_layout(ui, sz[0], sz[1], font + 8, font);
      CHECK_FALSE(ui.prefs.presenting());
      const float min_h = font * 3.0f;       // a title and a few lines
      for (int i = 0; i < kPanelCount; ++i)  // the status bar is one line by design
        if (!ui.frame.tabbed[i] && i != static_cast<int>(PanelId::Status))
          CHECK(ui.frame.rects[i].h >= min_h);
      // The timeline keeps well under a third of the height (issue: ~40% before).
      CHECK(ui.frame.rect(PanelId::Transport).h <= sz[1] * 0.3f + 0.5f);
    }
  }
  // The phase strip adds a row only while stepping into.
  UiState a, b;
  b.timeline.phases = true;
  compute_layout(a, 1280, 720, 36, 28);
  compute_layout(b, 1280, 720, 36, 28);
  CHECK(b.frame.rect(PanelId::Transport).h > a.frame.rect(PanelId::Transport).h);
}

TEST_CASE("presentation layout: the lesson column widens to fit its text, within limits") {
  UiState ui;
  ui.prefs.show.fill(true);
  ui.prefs.focus_panel = static_cast<int>(PanelId::KvCache);
  compute_layout(ui, 1920, 1080, 36, 28);
  const float base = ui.frame.rect(PanelId::Lesson).w;
  LayoutMeasure m;
  m.lesson_height = [](float w) { return 900.0f * 900.0f / w; };  // taller when narrower
  compute_layout(ui, 1920, 1080, 36, 28, m);
  const float fitted = ui.frame.rect(PanelId::Lesson).w;
  CHECK(fitted > base);
  CHECK(900.0f * 900.0f / fitted <= ui.frame.rect(PanelId::Lesson).h);
  // A page that can never fit: the column stops where the focus panel would drop below 35%.
  m.lesson_height = [](float) { return 1e6f; };
  compute_layout(ui, 1280, 720, 36, 28, m);
  const PanelRect& r = ui.frame.rect(PanelId::KvCache);
  CHECK(r.w * r.h >= 0.35f * 1280 * 720);
  // The teacher's splitter width and a lesson's `size lesson 40%`.
  UiState u2;
  u2.prefs.show.fill(true);
  u2.prefs.focus_panel = static_cast<int>(PanelId::Attention);
  u2.prefs.layout_prefs.lesson_width = 0.25f;
  compute_layout(u2, 1920, 1080, 36, 20);
  CHECK(u2.frame.rect(PanelId::Lesson).w == doctest::Approx(480));
  u2.frame.size_override[static_cast<int>(PanelId::Lesson)] = 0.4f;
  compute_layout(u2, 1920, 1080, 36, 20);
  CHECK(u2.frame.rect(PanelId::Lesson).w == doctest::Approx(768));
}

TEST_CASE("presentation layout: `size PANEL N%` sets its share of the column in the overview") {
  UiState ui;  // default panels: prompt and KV cache share the left column
  ui.frame.size_override[static_cast<int>(PanelId::KvCache)] = 0.6f;
  compute_layout(ui, 1600, 900, 30, 20);
  const PanelRect& kv = ui.frame.rect(PanelId::KvCache);
  const PanelRect& prompt = ui.frame.rect(PanelId::Prompt);
  CHECK(kv.h == doctest::Approx(0.6f * (kv.h + prompt.h)).epsilon(0.01));
}

TEST_CASE("text fit: wrapping breaks at spaces only; labels get an ellipsis and count as clipped") {
  ImGuiHarness h;
  const ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  const float fs = font->FontSize;
  const std::string text = "a cache of 1,024 rows holds p 65.1% of 12,345,678 bytes";
  for (float w = fs * 7.0f; w < fs * 30; w += fs * 0.5f) {  // the longest number fits
    CAPTURE(w);
    bool broken = true;
    const std::vector<std::string> lines = wrap_lines(font, fs, text, w, &broken);
    CHECK_FALSE(broken);
    std::string joined;
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      // No line ends inside a number: "1," / "024" or "65." / "1%".
      const bool split = i + 1 < lines.size() && !l.empty() && !lines[i + 1].empty() &&
                         (std::isdigit(static_cast<unsigned char>(l.back())) || l.back() == ',' ||
                          l.back() == '.') &&
                         std::isdigit(static_cast<unsigned char>(lines[i + 1][0]));
      CHECK_FALSE(split);
      CHECK(font->CalcTextSizeA(fs, 1e9f, 0, l.c_str()).x <= w + 0.5f);
      joined += (joined.empty() ? "" : " ") + l;
    }
    CHECK(joined == text);  // nothing lost, every number whole on one line
  }
  bool broken = false;
  wrap_lines(font, fs, "supercalifragilistic", fs * 2, &broken);
  CHECK(broken);

  UiState ui;
  ui.log.record = true;
  bool shortened = false, whole = true;
  h.frame([&] {
    ImGui::Begin("t");
    ui.log.drawing_panel = "Test";
    whole = !fit_text(ui.log, "short", fs * 10);
    shortened = fit_text(ui.log, "a label far too long for its place", fs * 4);
    ImGui::End();
  });
  CHECK(whole);
  CHECK(shortened);
  REQUIRE(ui.log.clipped.size() == 1);
  CHECK(ui.log.clipped[0].panel == "Test");
  CHECK(ui.log.clipped[0].text == "a label far too long for its place");
  CHECK(ui.log.clipped[0].how == "shortened");
  ui.log.clipped.clear();
  h.frame([&] {  // a word wider than the window is broken, and reported so
    ImGui::SetNextWindowSize(ImVec2(fs * 6, fs * 10));
    ImGui::Begin("narrow");
    ui.log.drawing_panel = "Test";
    wrapped_text(ui.log, "a pneumonoultramicroscopicsilicovolcanoconiosis case");
    ImGui::End();
  });
  REQUIRE(ui.log.clipped.size() == 1);
  CHECK(ui.log.clipped[0].how == "broken");
}

TEST_CASE("settings: the layout and the focus round-trip; a file from before them still loads") {
  UiState ui;
  ui.prefs.layout_prefs.columns = {0.3f, 0.4f, 0.3f};
  ui.prefs.layout_prefs.lesson_width = 0.35f;
  ui.prefs.focus_panel = static_cast<int>(PanelId::KvCache);
  ui.kv.no_cache = true;
  ui.prefs.layout_prefs.weight[static_cast<int>(PanelId::Prompt)] = 6.5f;
  const std::string text = settings_to_json(ui, SessionSettings{});
  UiState back;
  SessionSettings ss;
  REQUIRE(settings_from_json(text, back, ss).ok());
  CHECK(back.prefs.layout_prefs.columns[0] == doctest::Approx(0.3f));
  CHECK(back.prefs.layout_prefs.lesson_width == doctest::Approx(0.35f));
  CHECK(back.prefs.focus_panel == static_cast<int>(PanelId::KvCache));
  CHECK(back.kv.no_cache);
  CHECK(back.prefs.layout_prefs.weight[static_cast<int>(PanelId::Prompt)] == doctest::Approx(6.5f));
  CHECK(back.prefs.layout_prefs.weight[static_cast<int>(PanelId::Tokens)] == 0);

  UiState old;
  REQUIRE(settings_from_json(R"({"version": 1, "ui": {"font_size": 24, "theme": "dark"}})", old, ss)
              .ok());
  CHECK(old.prefs.font_size == 24);
  CHECK(old.prefs.focus_panel == -1);
  CHECK(old.prefs.layout_prefs.lesson_width == doctest::Approx(LayoutPrefs{}.lesson_width));
  UiState bad;  // silly values are clamped, not trusted
  REQUIRE(settings_from_json(R"({"ui": {"layout": {"columns": [5, -1, 0.3], "lesson_width": 9}}})",
                             bad, ss)
              .ok());
  CHECK(bad.prefs.layout_prefs.columns[0] <= 0.8f);
  CHECK(bad.prefs.layout_prefs.columns[1] >= 0.1f);
  CHECK(bad.prefs.layout_prefs.lesson_width <= 0.5f);
}

TEST_CASE("panel names: the lesson names, the UI titles and the keys agree") {
  for (int i = 0; i < kPanelCount; ++i) {
    const PanelId id = static_cast<PanelId>(i);
    CHECK(panel_from_lesson_name(panel_lesson_name(id)) == i);
  }
  CHECK(panel_from_lesson_name("distribution") == static_cast<int>(PanelId::Distribution));
  CHECK(panel_from_lesson_name("next-token") == static_cast<int>(PanelId::Distribution));
  CHECK(panel_from_lesson_name("nonsense") == -1);
  CHECK(std::string(panel_key_name(PanelId::Prompt)) == "1");
  CHECK(std::string(panel_key_name(PanelId::Model)) == "0");
}

TEST_CASE("screenshot report: lists the focus panel and what was clipped") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ts_focus_report";
  std::filesystem::create_directories(dir);
  AppOptions o;
  o.model = std::string(TS_SOURCE_DIR) + "/models/tales-4m.gguf";  // any model: the shipped one
  o.use_settings = false;
  o.synchronous = true;
  const std::string png = (dir / "shot.png").string();
  { std::ofstream(dir / "s.txt") << "step 2\nscreenshot " << png << "\nquit\n"; }
  o.script = (dir / "s.txt").string();
  ImGuiHarness h(800, 600);
  App app(o);
  app.ui().prefs.focus_panel = static_cast<int>(PanelId::Attention);
  app.start();
  // A long status message the status bar must shorten: it is listed as clipped.
  for (int i = 0; i < 40 && !app.wants_quit(); ++i) {
    app.ui().status.set_message(std::string(300, 'x'), false);
    h.frame([&] { app.frame(1.0 / 60.0); });
    if (std::optional<std::string> shot = app.screenshot_due()) {
      std::ofstream(*shot) << "png";
      app.screenshot_written(*shot, ok_status());
    }
  }
  std::ifstream f(png + ".json");
  REQUIRE(f.good());
  const nlohmann::json j = nlohmann::json::parse(f);
  CHECK(j["focus"] == "Attention");
  REQUIRE(j["clipped"].is_array());
  bool status = false;
  for (const auto& c : j["clipped"]) {
    CHECK(c.contains("panel"));
    CHECK(c.contains("text"));
    CHECK(c.contains("how"));
    status |= c["panel"] == "Status" && c["text"] == std::string(300, 'x');
  }
  CHECK(status);
  CHECK(j["tabs"].is_array());
  std::filesystem::remove_all(dir);
}

}  // namespace ts::test
