// The app's non-drawing parts: the fixed layout (fills the window, no overlaps, hidden panels give
// their space away), the script parser (every verb, errors with line numbers), the settings file
// (round trip, damaged file, missing file) and the command-line options.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/app_options.h"
#include "app/appearance.h"
#include "app/layout.h"
#include "app/script.h"
#include "app/settings.h"

namespace ts {
namespace {

bool overlap(const PanelRect& a, const PanelRect& b) {
  return a.x < b.x + b.w - 0.5f && b.x < a.x + a.w - 0.5f && a.y < b.y + b.h - 0.5f &&
         b.y < a.y + a.h - 0.5f;
}

float covered_area(const UiState& ui) {
  float area = 0;
  for (int i = 0; i < kPanelCount; ++i) area += ui.frame.rects[i].w * ui.frame.rects[i].h;
  return area;
}

}  // namespace

TEST_CASE("app layout: visible panels fill the window below the menu, inside it, without overlap") {
  const float sizes[][2] = {{1600, 900}, {1280, 720}, {800, 600}, {2560, 1440}, {3840, 2160}};
  for (auto& sz : sizes) {
    for (int mask = 0; mask < 3; ++mask) {
      CAPTURE(sz[0]);
      CAPTURE(mask);
      UiState ui;
      if (mask == 1) ui.prefs.show.fill(true);
      if (mask == 2) {
        ui.prefs.show.fill(false);
        ui.prefs.show[static_cast<int>(PanelId::Tokens)] = true;
        ui.prefs.show[static_cast<int>(PanelId::Distribution)] = true;
      }
      const float menu = 24;
      compute_layout(ui, sz[0], sz[1], menu, 20);
      for (int i = 0; i < kPanelCount; ++i) {
        const PanelRect& r = ui.frame.rects[i];
        if (!ui.prefs.show[i]) {
          CHECK(r.w == 0);
          continue;
        }
        CAPTURE(panel_title(static_cast<PanelId>(i)));
        CHECK(r.w > 100);
        CHECK(r.h > 20);
        CHECK(r.x >= 0);
        CHECK(r.y >= menu);
        CHECK(r.x + r.w <= sz[0] + 0.5f);
        CHECK(r.y + r.h <= sz[1] + 0.5f);
        for (int j = i + 1; j < kPanelCount; ++j)
          if (ui.prefs.show[j]) CHECK_FALSE(overlap(r, ui.frame.rects[j]));
      }
      // Nothing left empty: the panels cover the area under the menu bar.
      CHECK(covered_area(ui) == doctest::Approx(sz[0] * (sz[1] - menu)).epsilon(0.01));
    }
  }
}

TEST_CASE("app layout: the timeline keeps room for its three rows at large fonts") {
  UiState ui;
  compute_layout(ui, 1600, 900, 40, 32);
  CHECK(ui.frame.rect(PanelId::Transport).h >= 32 * 6);
  CHECK(ui.frame.rect(PanelId::Status).h >= 32);
}

TEST_CASE("app script: every verb parses; blank lines and comments are skipped") {
  Result<std::vector<ScriptLine>> r = parse_script(
      "# a lesson rehearsal\n"
      "step\nstep 5\n\nback 2\nseek 3\ninto\n"
      "force \" the\"\nforce dog\nprompt Once upon a time\nlesson lessons/01_tokens.md\n"
      "next\nscreenshot out/a.png\nquit");
  REQUIRE(r.ok());
  const std::vector<ScriptLine>& l = r.value();
  REQUIRE(l.size() == 12);
  // The session's words parse to session/command.h's values (parse_command), as in lessons.
  auto command = [&](int i) { return std::get<verb::SessionWords>(l[i].verb).command; };
  for (int i = 0; i < 8; ++i) CHECK(std::holds_alternative<verb::SessionWords>(l[i].verb));
  REQUIRE(std::holds_alternative<cmd::Step>(command(0)));
  CHECK(std::get<cmd::Step>(command(0)).n == 1);
  CHECK(l[0].line == 2);
  CHECK(std::get<cmd::Step>(command(1)).n == 5);
  CHECK(std::get<cmd::Back>(command(2)).n == 2);
  CHECK(l[2].line == 5);
  CHECK(std::get<cmd::Seek>(command(3)).step == 3);
  CHECK(std::holds_alternative<cmd::StepInto>(command(4)));
  CHECK(std::get<cmd::ForcePiece>(command(5)).piece == " the");
  CHECK(std::get<cmd::ForcePiece>(command(6)).piece == "dog");
  CHECK(std::get<cmd::SetPrompt>(command(7)).text == "Once upon a time");
  CHECK(std::get<verb::OpenLesson>(l[8].verb).path == "lessons/01_tokens.md");
  CHECK(std::holds_alternative<verb::NextPage>(l[9].verb));
  CHECK(std::get<verb::Screenshot>(l[10].verb).path == "out/a.png");
  CHECK(std::holds_alternative<verb::Quit>(l[11].verb));
}

TEST_CASE("app script: the panel-control verbs") {
  Result<std::vector<ScriptLine>> r = parse_script(
      "sampler temp=0.8 top-k=5\nview top-k\nview final\nsample\nsample 200\nselect -1\n"
      "select 3\nfont 28\ntheme projector\n");
  REQUIRE(r.ok());
  const std::vector<ScriptLine>& l = r.value();
  REQUIRE(l.size() == 9);
  REQUIRE(std::holds_alternative<verb::SessionWords>(l[0].verb));
  const SessionCommand c0 = std::get<verb::SessionWords>(l[0].verb).command;
  REQUIRE(std::holds_alternative<cmd::SetSampler>(c0));
  CHECK(stage_or_off<Temperature>(std::get<cmd::SetSampler>(c0).settings).t ==
        doctest::Approx(0.8));
  CHECK(stage_or_off<TopK>(std::get<cmd::SetSampler>(c0).settings).k == 5);
  CHECK(std::get<verb::View>(l[1].verb).name == "top-k");
  CHECK(std::get<verb::Sample>(l[3].verb).n == 1000);
  CHECK(std::get<verb::Sample>(l[4].verb).n == 200);
  CHECK(std::get<verb::Select>(l[5].verb).n == -1);
  CHECK(std::get<verb::Select>(l[5].verb).what == "position");
  CHECK(std::get<verb::Select>(l[6].verb).n == 3);
  CHECK(std::get<verb::Font>(l[7].verb).size == 28);
  CHECK(std::get<verb::Theme>(l[8].verb).name == "projector");
  Result<std::vector<ScriptLine>> f = parse_script("focus kv-cache\nfocus none\n");
  REQUIRE(f.ok());
  REQUIRE(std::holds_alternative<verb::Focus>(f.value()[0].verb));
  CHECK(std::get<verb::Focus>(f.value()[0].verb).panels == std::vector<std::string>{"kv-cache"});
  CHECK(std::get<verb::Focus>(f.value()[1].verb).panels.empty());
  CHECK_FALSE(parse_script("focus nothing\n").ok());
  CHECK_FALSE(parse_script("focus\n").ok());
  CHECK_FALSE(parse_script("font 99\n").ok());
  CHECK_FALSE(parse_script("theme neon\n").ok());
  CHECK_FALSE(parse_script("select\n").ok());
  CHECK_FALSE(parse_script("sample 0\n").ok());
}

TEST_CASE("app script: errors name the line") {
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"step\nstpe 2\n", "line 2: unknown command 'stpe'"},
      {"step x\n", "line 1: step: needs a count, got 'x'"},
      {"\n\nseek\n", "line 3: seek: needs a step number"},
      {"force\n", "line 1: force: needs a token piece"},
      {"force \"abc\n", "line 1: force: missing closing quote"},
      {"quit now\n", "line 1: quit: takes no argument"},
      {"step 0\n", "line 1: step: a count must be at least 1"},
      {"screenshot\n", "line 1: screenshot: needs a file name"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    Result<std::vector<ScriptLine>> r = parse_script(c.text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find(c.expect) == 0);
  }
}

TEST_CASE("app settings: UI options and the session's settings round-trip through the file") {
  UiState ui;
  ui.prefs.font_size = 30;
  ui.prefs.theme = ThemeKind::Projector;
  ui.prefs.show[static_cast<int>(PanelId::Cost)] = true;
  ui.prefs.show[static_cast<int>(PanelId::Attention)] = false;
  ui.timeline.play_speed = 5;
  ui.sel.predict_then_reveal = true;
  ui.dist.top_n = 20;
  ui.dist.stage = DistStage::Stage;
  ui.dist.stage_index = 2;
  SessionSettings ss;
  ss.model_path = "/models/x.gguf";
  ss.prompt = "Hello\n  \"world\" ✓";
  ss.has_prompt = true;
  ss.record_level = RecordLevel::Summary;
  ss.max_tokens = 99;
  ss.stops = {"\n\n", "The end"};
  SamplerSettings a;
  a.label = "greedy";
  stage<Temperature>(a).t = 0;
  SamplerSettings b;
  b.label = "hot";
  stage<Temperature>(b).t = 1.3f;
  stage<TopK>(b).k = 7;
  stage<TopP>(b).p = 0.8f;
  stage<MinP>(b).p = 0.05f;
  b.seed = 18446744073709551615ull;
  b.chain = {stage_or_off<Temperature>(b), stage_or_off<TopK>(b), stage_or_off<Penalties>(b),
             stage_or_off<TopP>(b), stage_or_off<MinP>(b)};
  ss.lanes = {a, b};

  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ts_app_settings";
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "tokenscope" / "settings.json").string();
  REQUIRE(save_settings(path, ui, ss).ok());
  UiState ui2;
  SessionSettings ss2;
  REQUIRE(load_settings(path, ui2, ss2).ok());
  CHECK(ui2.prefs.font_size == 30);
  CHECK(ui2.prefs.theme == ThemeKind::Projector);
  CHECK(ui2.prefs.show == ui.prefs.show);
  CHECK(ui2.timeline.play_speed == 5);
  CHECK(ui2.sel.predict_then_reveal);
  CHECK(ui2.dist.top_n == 20);
  CHECK(ui2.dist.stage == DistStage::Stage);
  CHECK(ui2.dist.stage_index == 2);
  CHECK(ss2.model_path == ss.model_path);
  CHECK(ss2.prompt == ss.prompt);
  CHECK(ss2.record_level == RecordLevel::Summary);
  CHECK(ss2.max_tokens == 99);
  CHECK(ss2.stops == ss.stops);
  REQUIRE(ss2.lanes.size() == 2);
  CHECK(ss2.lanes[1].label == "hot");
  CHECK(stage_or_off<Temperature>(ss2.lanes[1]).t == doctest::Approx(1.3f));
  CHECK(stage_or_off<TopK>(ss2.lanes[1]).k == 7);
  CHECK(ss2.lanes[1].seed == b.seed);
  CHECK(ss2.lanes[1].chain == b.chain);
  std::filesystem::remove_all(dir);
}

TEST_CASE("app settings: a missing file changes nothing; a damaged one is an error, not a crash") {
  UiState ui;
  SessionSettings ss;
  CHECK(load_settings("/nonexistent/dir/settings.json", ui, ss).ok());
  CHECK(ui.prefs.font_size == UiState{}.prefs.font_size);
  const Status bad = settings_from_json("{\"ui\": {\"font_size\": \"big\"}}", ui, ss);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("settings:") == 0);
  CHECK_FALSE(settings_from_json("{not json", ui, ss).ok());
  // Out-of-range values are clamped to something usable.
  REQUIRE(settings_from_json("{\"ui\": {\"font_size\": 500, \"dist_top_n\": -4}}", ui, ss).ok());
  CHECK(ui.prefs.font_size == 64);
  CHECK(ui.dist.top_n == 3);
}

TEST_CASE("app appearance: text size clamped, fonts rebuilt on a change; the projector preset") {
  UiState ui;
  ui.prefs.font_size = 20;
  ui.status.want_font_rebuild = false;
  set_font_size(ui, 20);
  CHECK_FALSE(ui.status.want_font_rebuild);  // no change, no rebuild
  set_font_size(ui, 100);
  CHECK(ui.prefs.font_size == kMaxFontSize);
  CHECK(ui.status.want_font_rebuild);
  set_font_size(ui, 2);
  CHECK(ui.prefs.font_size == kMinFontSize);
  // Projector raises the text to its size, never lowers it; the other themes leave it.
  set_theme(ui, ThemeKind::Projector);
  CHECK(ui.prefs.theme == ThemeKind::Projector);
  CHECK(ui.prefs.font_size == kProjectorFontSize);
  set_font_size(ui, 40);
  set_theme(ui, ThemeKind::Projector);
  CHECK(ui.prefs.font_size == 40);
  set_theme(ui, ThemeKind::Dark);
  CHECK(ui.prefs.theme == ThemeKind::Dark);
  CHECK(ui.prefs.font_size == 40);
}

TEST_CASE("app options: parsing and rejection") {
  auto parse = [](std::vector<const char*> args) {
    args.insert(args.begin(), "tokenscope");
    return parse_app_options(static_cast<int>(args.size()), const_cast<char**>(args.data()));
  };
  Result<AppOptions> ok =
      parse({"--model", "m.gguf", "--tokenizer", "t.bin", "--prompt", "Hi", "--size", "1600x900",
             "--font-size", "24", "--screenshot", "a.png", "--script", "s.txt", "--theme", "dark"});
  REQUIRE(ok.ok());
  CHECK(ok->model == "m.gguf");
  CHECK(ok->tokenizer == "t.bin");
  CHECK(ok->prompt == "Hi");
  CHECK(ok->has_prompt);
  CHECK(ok->width == 1600);
  CHECK(ok->height == 900);
  CHECK(ok->font_size == 24);
  CHECK(ok->screenshot == "a.png");
  CHECK(ok->script == "s.txt");
  CHECK(ok->theme == "dark");
  CHECK_FALSE(parse({"--size", "big"}).ok());
  CHECK_FALSE(parse({"--size", "10x10"}).ok());
  CHECK_FALSE(parse({"--font-size", "3"}).ok());
  CHECK_FALSE(parse({"--model"}).ok());
  CHECK_FALSE(parse({"--theme", "neon"}).ok());
  CHECK(parse({"--frobnicate"}).error().message.find("unknown option '--frobnicate'") == 0);
}

}  // namespace ts

namespace ts {

TEST_CASE("app layout: the tokens panel gets the height its chips need, within limits") {
  UiState ui;
  compute_layout(ui, 1600, 900, 24, 20);
  const float by_weight = ui.frame.rect(PanelId::Tokens).h;
  ui.tokens.wanted_height = 160;  // two rows of chips
  compute_layout(ui, 1600, 900, 24, 20);
  CHECK(ui.frame.rect(PanelId::Tokens).h == doctest::Approx(160));
  const PanelRect& d = ui.frame.rect(PanelId::Distribution);
  CHECK(d.y == doctest::Approx(ui.frame.rect(PanelId::Tokens).y + 160));
  CHECK(d.h > by_weight);          // the distribution got the space the tokens did not need
  ui.tokens.wanted_height = 5000;  // a very long sequence: capped, the chips scroll
  compute_layout(ui, 1600, 900, 24, 20);
  CHECK(ui.frame.rect(PanelId::Tokens).h < 900 * 0.45f);
  ui.tokens.wanted_height = 10;  // never smaller than a title, a line and a row of chips
  compute_layout(ui, 1600, 900, 24, 20);
  CHECK(ui.frame.rect(PanelId::Tokens).h > 20 * 4);
}

}  // namespace ts
