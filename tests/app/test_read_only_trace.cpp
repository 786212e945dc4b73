// File > Open trace without the trace's model file: the trace opens read-only over the panels
// (nothing computed), the step buttons / keys / script move through its recorded steps, commands
// that would compute are refused with a message, and the bars carry the trace's pieces. With its
// model the same file is replayed into the session instead.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "app/app.h"
#include "harness.h"
#include "session/session.h"
#include "session/session_access.h"
#include "trace/trace_json.h"

namespace ts::test {
namespace {

namespace fs = std::filesystem;

void frames(ImGuiHarness& h, App& app, int n) {
  for (int i = 0; i < n; ++i) h.frame([&] { app.frame(1.0 / 60.0); });
}

// A two-lane trace of the shipped model, recorded from a copy that `keep_model` decides to keep.
std::string write_trace(const fs::path& dir, bool keep_model) {
  fs::create_directories(dir);
  const fs::path model = dir / "copy.gguf";
  fs::copy_file(source_dir() / "models" / "tales-4m.gguf", model,
                fs::copy_options::overwrite_existing);
  Session s;
  REQUIRE(s.load_model(model.string()).ok());
  REQUIRE(s.set_prompt("Once upon a time, there was a little girl named").ok());
  SamplerSettings g;
  g.label = "greedy";
  stage<Temperature>(g).t = 0;
  REQUIRE(s.set_sampler(0, g).ok());
  SamplerSettings t1;
  t1.label = "T=1";
  REQUIRE(s.add_lane(t1).ok());
  REQUIRE(s.run_to(7).ok());
  const std::string path = (dir / "run.json").string();
  REQUIRE(write_trace_json(s, path).ok());
  if (!keep_model) fs::remove(model);
  return path;
}

// The app as the window runs it, without settings, commands applied in the frame that sent them.
AppOptions headless_options() {
  AppOptions o;
  o.source_dir = source_dir().string();
  o.use_settings = false;
  o.synchronous = true;
  return o;
}

}  // namespace

TEST_CASE("open trace without its model: read-only, stepping through what it recorded") {
  REQUIRE(fs::exists(source_dir() / "models" / "tales-4m.gguf"));  // shipped in the repository
  const std::string path = write_trace(fs::temp_directory_path() / "ts-read-only-trace", false);
  ImGuiHarness h(1280, 720);
  App app(headless_options());
  app.start();
  app.record_drawn_always(true);
  frames(h, app, 2);
  app.push(cmd::OpenTrace{path});
  frames(h, app, 2);
  REQUIRE(app.ui().trace_view.trace != nullptr);
  CHECK(app.ui().trace_view.step == 7);  // the trace's cursor
  CHECK(app.ui().status.message.find("read-only") != std::string::npos);
  // The bars are drawn with the trace's pieces, the chosen one among them.
  int bars = 0;
  for (const DrawnItem& d : app.ui().log.drawn) bars += d.kind == "trace_bar";
  CHECK(bars >= 10);
  app.push(cmd::Back{3});
  frames(h, app, 1);
  CHECK(app.ui().trace_view.step == 4);
  app.push(cmd::First{});
  frames(h, app, 1);
  CHECK(app.ui().trace_view.step == 0);
  app.push(cmd::Step{100});
  frames(h, app, 1);
  CHECK(app.ui().trace_view.step == 7);  // clamped to the recorded steps
  // Nothing can be computed without the model: refused with a message, the view stays.
  const size_t errors = app.errors().size();
  app.push(cmd::Force{5, 0});
  frames(h, app, 1);
  REQUIRE(app.errors().size() == errors + 1);
  CHECK(app.errors().back().find("read-only") != std::string::npos);
  CHECK(app.ui().trace_view.trace != nullptr);
  // Loading a prompt closes the view and goes back to the session's model.
  app.push(cmd::SetPrompt{"Once upon a time"});
  frames(h, app, 2);
  CHECK(app.ui().trace_view.trace == nullptr);
}

TEST_CASE("open trace with its model: replayed exactly into the session") {
  REQUIRE(fs::exists(source_dir() / "models" / "tales-4m.gguf"));
  const fs::path dir = fs::temp_directory_path() / "ts-replayed-trace";
  const std::string path = write_trace(dir, true);
  ImGuiHarness h(1280, 720);
  App app(headless_options());
  app.start();
  frames(h, app, 2);
  app.push(cmd::OpenTrace{path});
  frames(h, app, 3);
  CHECK(app.ui().trace_view.trace == nullptr);
  CHECK(app.session().cursor() == 7);
  CHECK(lane_count(app.session()) == 2);
  fs::remove_all(dir);
}

}  // namespace ts::test
