// The App without a window (synchronous mode: commands finish inside frame()): start-up with the
// shipped model (so they run everywhere), commands from panels, scripts (with their errors and
// line numbers), a missing model shown as a message, screenshots' JSON report, trace export,
// settings written on exit.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/app.h"
#include "app/view.h"
#include "harness.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts::test {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// The shipped model: these tests need a model, not a particular one, so they run everywhere.
AppOptions model_options() {
  AppOptions o;
  o.model = std::string(TS_SOURCE_DIR) + "/models/tales-4m.gguf";
  o.prompt = "A dream of a red bird";
  o.has_prompt = true;
  o.use_settings = false;
  o.synchronous = true;
  return o;
}

void run_frames(ImGuiHarness& h, App& app, int n) {
  for (int i = 0; i < n && !app.wants_quit(); ++i) h.frame([&] { app.frame(1.0 / 60.0); });
}

std::string write_file(const fs::path& p, const std::string& text) {
  std::ofstream f(p);
  f << text;
  return p.string();
}

}  // namespace

TEST_CASE("app: starts with the model, the prompt and full recording") {
  ImGuiHarness h;
  App app(model_options());
  app.start();
  run_frames(h, app, 2);
  const Session& s = app.session();
  REQUIRE(has_model(s));
  CHECK(prompt_text(s) == "A dream of a red bird");
  CHECK(record_level(s) == RecordLevel::Full);
  CHECK(s.cursor() == -1);
  CHECK(app.ui().prompt.prompt_edit == "A dream of a red bird");
  CHECK_FALSE(app.ui().status.message_is_error);
}

TEST_CASE("app: commands from panels reach the session; a rejected setting keeps the draft") {
  ImGuiHarness h;
  App app(model_options());
  app.start();
  run_frames(h, app, 1);
  app.push(cmd::Step{4});
  run_frames(h, app, 1);
  CHECK(app.session().cursor() == 3);
  app.push(cmd::Back{2});
  run_frames(h, app, 1);
  CHECK(app.session().cursor() == 1);

  // An invalid top-p: the session refuses it, the panel's draft keeps the value and the error.
  run_frames(h, app, 1);  // the prompt panel creates the drafts
  REQUIRE(app.ui().prompt.sampler_drafts.size() == 1);
  SamplerSettings bad = settings(app.session(), 0);
  stage<TopP>(bad).p = 1.5f;
  app.ui().prompt.sampler_drafts[0].settings = bad;
  app.ui().prompt.sampler_drafts[0].dirty = true;
  app.push(cmd::SetSampler{0, bad});
  run_frames(h, app, 1);
  CHECK(stage_or_off<TopP>(settings(app.session(), 0)).p != doctest::Approx(1.5f));
  CHECK(app.ui().prompt.sampler_drafts[0].dirty);
  CHECK(stage_or_off<TopP>(app.ui().prompt.sampler_drafts[0].settings).p == doctest::Approx(1.5f));
  CHECK_FALSE(app.ui().prompt.sampler_drafts[0].error.empty());
  CHECK(app.ui().status.message_is_error);
}

TEST_CASE("app: a script steps, forces, goes back; the trace and a screenshot report are written") {
  const fs::path dir = temp_dir("ts_app_script");
  AppOptions o = model_options();
  o.script = write_file(dir / "s.txt", "step 3\nforce \" the\"\nstep 2\nback\nscreenshot " +
                                           (dir / "shot.png").string() + "\nquit\n");
  ImGuiHarness h;
  App app(o);
  app.start();
  for (int i = 0; i < 40 && !app.wants_quit(); ++i) {
    h.frame([&] { app.frame(1.0 / 60.0); });
    if (std::optional<std::string> shot = app.screenshot_due()) {
      std::ofstream(*shot) << "png";  // the window would write pixels here
      app.screenshot_written(*shot, ok_status());
    }
  }
  CHECK(app.wants_quit());
  CHECK(app.exit_code() == 0);
  CHECK(app.errors().empty());
  const Session& s = app.session();
  CHECK(s.cursor() == 3);  // step 3 -> 2, force at 2, step 2 -> 4, back -> 3
  const Step* forced = step_at(s, 0, 2);
  REQUIRE(forced != nullptr);
  CHECK(forced->forced);
  CHECK(s.tokenizer().token_bytes(forced->token) == " the");

  std::ifstream f(dir / "shot.png.json");
  REQUIRE(f.good());
  const nlohmann::json j = nlohmann::json::parse(f);
  CHECK(j["session"]["cursor"] == 3);
  CHECK(j["panels"].contains("Tokens"));
  bool chips = false;
  for (const auto& it : j["items"]) chips |= it["kind"] == "forced_chip";
  CHECK(chips);

  app.push(cmd::ExportTrace{(dir / "trace.json").string()});
  h.frame([&] { app.frame(1.0 / 60.0); });
  CHECK(fs::file_size(dir / "trace.json") > 100);
  fs::remove_all(dir);
}

TEST_CASE("app: script errors carry the line number and make the exit code non-zero") {
  const fs::path dir = temp_dir("ts_app_script_err");
  AppOptions o = model_options();
  o.script = write_file(dir / "s.txt", "step\nforce \"no such piece xyz\"\nstep\nquit\n");
  ImGuiHarness h;
  App app(o);
  app.start();
  run_frames(h, app, 20);
  CHECK(app.wants_quit());
  CHECK(app.exit_code() == 1);
  REQUIRE(app.errors().size() == 1);
  CHECK(app.errors()[0].find("script line 2: force: no token") == 0);
  CHECK(app.session().cursor() == 1);  // the later lines still ran

  SUBCASE("a script that does not parse runs nothing") {
    AppOptions o2 = model_options();
    o2.script = write_file(dir / "bad.txt", "step\nwalk 3\n");
    App app2(o2);
    app2.start();
    CHECK(app2.wants_quit());
    REQUIRE_FALSE(app2.errors().empty());
    CHECK(app2.errors()[0].find("line 2: unknown command 'walk'") != std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("app: a model that fails to load is a message in the window; the prompt survives") {
  ImGuiHarness h;
  AppOptions o;
  o.model = "/nonexistent/model.gguf";
  o.prompt = "my carefully typed prompt";
  o.has_prompt = true;
  o.use_settings = false;
  o.synchronous = true;
  App app(o);
  app.start();
  run_frames(h, app, 3);
  CHECK_FALSE(has_model(app.session()));
  CHECK(app.ui().status.message_is_error);
  CHECK(app.ui().status.message.find("load model") == 0);
  CHECK(app.ui().prompt.prompt_edit == "my carefully typed prompt");
  CHECK(app.ui().prompt.model_path_edit == "/nonexistent/model.gguf");
  // Stepping without a model is refused with a message, not a crash.
  app.push(cmd::Step{1});
  run_frames(h, app, 1);
  CHECK(app.ui().status.message_is_error);
}

TEST_CASE("app: settings are written on exit and restored by the next run") {
  const fs::path dir = temp_dir("ts_app_settings_run");
  const std::string path = (dir / "settings.json").string();
  {
    AppOptions o = model_options();
    o.use_settings = true;
    o.settings_path = path;
    ImGuiHarness h;
    App app(o);
    app.start();
    run_frames(h, app, 1);
    app.ui().prefs.font_size = 26;
    app.ui().prompt.prompt_edit = "typed but never applied";
    SamplerSettings g;
    g.label = "greedy";
    stage<Temperature>(g).t = 0;
    app.push(cmd::AddLane{g});
    run_frames(h, app, 1);
    REQUIRE(lane_count(app.session()) == 2);
  }
  REQUIRE(fs::exists(path));
  AppOptions o2;
  o2.use_settings = true;
  o2.settings_path = path;
  o2.synchronous = true;
  ImGuiHarness h;
  App app(o2);
  app.start();
  run_frames(h, app, 1);
  CHECK(app.ui().prefs.font_size == 26);
  CHECK(app.ui().prompt.prompt_edit == "typed but never applied");
  CHECK(has_model(app.session()));  // the last model, from the settings
  CHECK(lane_count(app.session()) == 2);
  CHECK(settings(app.session(), 1).label == "greedy");
  fs::remove_all(dir);
}

}  // namespace ts::test

namespace ts::test {

TEST_CASE("app: a lesson opens from a script, pages forward and back, and applies its hints") {
  const fs::path lesson = source_dir() / "lessons" / "01_tokens.md";
  REQUIRE_MESSAGE(fs::exists(lesson), "the shipped lesson is missing: " << lesson.string());
  const fs::path dir = temp_dir("ts_app_lesson");
  AppOptions o = model_options();
  o.source_dir = source_dir().string();
  o.script = write_file(dir / "s.txt", "lesson " + lesson.string() + "\nnext\n");
  ImGuiHarness h;
  App app(o);
  app.start();
  run_frames(h, app, 6);
  REQUIRE(app.lesson() != nullptr);
  CHECK(app.lesson()->page() == 1);
  CHECK(app.ui().prefs.visible(PanelId::Lesson));
  CHECK(app.ui().prefs.visible(PanelId::Tokens));
  CHECK(app.ui().sel.selected_position == 2);  // page 2 says "select position 2"
  CHECK(prompt_text(app.session()) == "Once upon a time, there was a little girl named Mia.");
  app.push(cmd::LessonBack{});
  run_frames(h, app, 1);
  CHECK(app.lesson()->page() == 0);
  CHECK(app.ui().prefs.focus_panel == static_cast<int>(PanelId::Tokens));
  // The lesson panel draws its page, and its Next button pages forward.
  app.record_drawn_always(true);
  run_frames(h, app, 1);
  const DrawnItem* title = find_drawn(app.ui(), "lesson_title");
  REQUIRE(title != nullptr);
  CHECK(title->label == app.lesson()->current().title);
  const DrawnItem* next = find_drawn(app.ui(), "button", "lesson_next");
  REQUIRE(next != nullptr);
  const DrawnItem nb = *next;
  app.record_drawn_always(false);
  h.click(nb.rect.x + nb.rect.w / 2, nb.rect.y + nb.rect.h / 2, [&] { app.frame(1.0 / 60.0); });
  run_frames(h, app, 1);
  CHECK(app.lesson()->page() == 1);
  fs::remove_all(dir);
}

}  // namespace ts::test

namespace ts::test {

TEST_CASE("app: a lesson question hides the distribution only until it is revealed") {
  const fs::path lesson = source_dir() / "lessons" / "02_one_step.md";
  REQUIRE_MESSAGE(fs::exists(lesson), "the shipped lesson is missing: " << lesson.string());
  ImGuiHarness h;
  AppOptions o = model_options();
  o.source_dir = source_dir().string();
  App app(o);
  app.start();
  run_frames(h, app, 1);
  app.push(cmd::LessonOpen{lesson.string()});
  run_frames(h, app, 1);
  REQUIRE(app.lesson() != nullptr);
  // Walk the pages; whenever the runner asks to hide the distribution, the app hides it, and
  // once the runner stops asking, the outcome is visible again.
  bool saw_hidden = false;
  for (int i = 0; i < 2 * app.lesson()->page_count(); ++i) {
    const bool hide = app.lesson()->hints().hide_distribution;
    saw_hidden |= hide;
    if (app.session().cursor() >= 0) CHECK(outcome_hidden(app.session(), app.ui().sel) == hide);
    app.push(cmd::LessonNext{});
    run_frames(h, app, 1);
  }
  CHECK(saw_hidden);
  CHECK_FALSE(app.ui().sel.predict_then_reveal);  // the teacher's setting is back
}

}  // namespace ts::test
