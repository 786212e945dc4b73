// The real-size check: a random model in the shape a class opens next (Qwen2.5-0.5B: 24 layers,
// d_model 896, GQA 14/2, 151,936 tokens, Q8_0, ~530 MB), written by our own GGUF writer to a
// temporary folder, opened by the app as a user opens it, then held to the budgets below: load
// time, a decode step at each record level, resident memory, and the time to build one frame
// with every panel open and all 24 x 14 attention maps on screen. Skipped in the `app` entry
// (doctest::skip); the ctest entry `real_size` runs it alone (--no-skip), outside the sanitizer.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "app/app.h"
#include "bench/bench_models.h"
#include "bench/bench_receipt.h"
#include "harness.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts::test {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The budgets, in one place. Measured on the 2-core AMD EPYC host (Zen 4) while others build:
// load 1.8 s, a decode step 47 ms on the app's one thread, summary / off 0.94-1.24, full / off
// 0.92-1.02, VmHWM 0.61 GiB after the file is written, a frame 10.5-10.8 ms. Each budget is
// about twice that (the ratios: twice the 1.0 they should be), so a loaded run passes, and each
// catches the regressions this check exists for: full recording at 5x recording off (the logit
// lens unembedded in every step), a step several times slower (a sampler sorting the
// vocabulary, 20-50 ms), a frame that no longer fits a 60 Hz screen twice over.
constexpr double kLoadSeconds = 4.0;     // App::start to a loaded model (file read, checks)
constexpr double kStepOffMs = 100.0;     // median decode step, record off, 1 thread
constexpr double kSummaryOverOff = 2.0;  // median step at summary / at off
constexpr double kFullOverOff = 2.0;     // median step at full / at off
constexpr double kResidentGiB = 1.25;    // VmHWM: the weights (~0.53 GB) and everything else
constexpr double kFrameMs = 25.0;        // median frame build, every panel, all heads shown

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// A field of /proc/self/status in GiB ("VmRSS", "VmHWM"), -1 where there is none.
double status_gib(const std::string& field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind(field + ":", 0) == 0) {
      return std::stod(line.substr(field.size() + 1)) / (1024.0 * 1024.0);  // kB
    }
  }
  return -1;
}

// Median milliseconds of `n` decode steps at `level` (set first; the session recomputes the few
// steps before the cursor at that level, untimed).
double step_ms(Session& s, RecordLevel level, int n) {
  GenerationSettings g = s.generation();
  g.record_level = level;
  REQUIRE(s.set_generation(g).ok());
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    if (all_stopped(s)) {  // a random model may draw EOS: go on with another token
      const Step* st = current_step(s, 0);
      REQUIRE(st != nullptr);
      REQUIRE(s.force(st->sampling.raw.size() > 1 ? st->sampling.raw[1].id : 3).ok());
    }
    const auto t0 = Clock::now();
    REQUIRE(s.step().ok());
    ms.push_back(since(t0) * 1e3);
  }
  return median(ms);
}

}  // namespace

TEST_CASE("real size: a 0.5B-shaped model loads, steps, fits and draws within its budgets" *
          doctest::skip() * doctest::test_suite("real_size")) {
  const fs::path dir = fs::temp_directory_path() / ("ts-real-size-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "qwen2-0.5b-shape-q8_0.gguf").string();
  const auto t_write = Clock::now();
  const Result<size_t> n_params =
      bench::write_random_gguf(bench::qwen2_05b_config(), 11, 0.02f, GgmlType::Q8_0, path);
  REQUIRE_MESSAGE(n_params.ok(), (n_params.ok() ? "" : n_params.error().message));
  const double write_s = since(t_write);
  // The writer held the model as fp32 (~2 GB): the peak counts from here (Linux resets VmHWM on
  // "5" in clear_refs; where it cannot, the check below measures the writer too and says so).
  const bool hwm_reset = static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5");

  ImGuiHarness h;
  // As the desktop renderer does (imgui_impl_opengl3 on GL 3.2+): a window's draw list may pass
  // 65,536 vertices (24 x 14 maps do), split by vertex offset instead of asserting.
  ImGui::GetIO().BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  AppOptions o;
  o.model = path;
  o.prompt = "Once upon a time, in a quiet town by the sea,";
  o.has_prompt = true;
  o.use_settings = false;
  o.synchronous = true;
  App app(o);
  const auto t_load = Clock::now();
  app.start();
  app.wait_idle();
  const double load_s = since(t_load);
  fs::remove_all(dir);  // the weights are in memory now
  Session& s = app.session_for_tests();
  REQUIRE(has_model(s));
  CHECK(config(s).n_layers == 24);
  CHECK(config(s).vocab_size == 151936);

  REQUIRE(s.step().ok());  // the prefill
  const double off = step_ms(s, RecordLevel::Off, 7);
  const double summary = step_ms(s, RecordLevel::Summary, 7);
  const double full = step_ms(s, RecordLevel::Full, 7);  // the app's default, kept for the UI

  UiState& ui = app.ui();
  ui.prefs.show.fill(true);
  ui.attention.all_heads = true;
  ui.sel.selected_position = -1;  // the newest token
  for (int i = 0; i < 5; ++i) h.frame([&] { app.frame(1.0 / 60.0); });  // layout, lens, caches
  std::vector<double> frame_ms;
  for (int i = 0; i < 15; ++i) {
    const auto t0 = Clock::now();
    h.frame([&] { app.frame(1.0 / 60.0); });
    frame_ms.push_back(since(t0) * 1e3);
  }
  const double frame = median(frame_ms);
  const double rss = status_gib("VmRSS"), hwm = status_gib("VmHWM");

  char line[400];
  std::snprintf(line, sizeof line,
                "real size (%zu params): write %.1f s, load %.2f s (<= %.0f); step off %.1f ms "
                "(<= %.0f), summary %.1f ms (%.2fx, <= %.2fx), full %.1f ms (%.2fx, <= %.2fx); "
                "VmRSS %.2f GiB, VmHWM %.2f GiB (<= %.2f); frame %.1f ms (<= %.0f)",
                n_params.value(), write_s, load_s, kLoadSeconds, off, kStepOffMs, summary,
                summary / off, kSummaryOverOff, full, full / off, kFullOverOff, rss, hwm,
                kResidentGiB, frame, kFrameMs);
  MESSAGE(line);
  CHECK(load_s <= kLoadSeconds);
  CHECK(off <= kStepOffMs);
  CHECK(summary / off <= kSummaryOverOff);
  CHECK(full / off <= kFullOverOff);
  CHECK(hwm > 0);
  if (hwm_reset) {
    CHECK(hwm <= kResidentGiB);
  } else {
    MESSAGE("VmHWM could not be reset after writing the file: it includes the writer's peak");
    CHECK(rss <= kResidentGiB);
  }
  CHECK(frame <= kFrameMs);

  // The decision map of all 24 layers in focus on a short window: every layer's row on screen
  // (rows shrink below a line of text, labels thin out), nothing scrolled away.
  ImGui::GetIO().DisplaySize = ImVec2(1024, 520);
  ui.prefs.focus_panel = static_cast<int>(PanelId::Why);
  ui.why.section = kWhyMap;
  app.record_drawn_always(true);
  // A map this large is the worker's: the first frame says it is being computed (and asks for
  // it; synchronous here, so it is ready for the next frame).
  h.frame([&] { app.frame(1.0 / 60.0); });
  bool computing = false;
  for (const DrawnItem& d : ui.log.drawn)
    computing = computing || d.label.rfind("Computing the decision map", 0) == 0;
  CHECK(computing);
  for (int i = 0; i < 2; ++i) h.frame([&] { app.frame(1.0 / 60.0); });
  int cells = 0, hidden = 0, labels = 0;
  for (const DrawnItem& d : ui.log.drawn) {
    if (d.kind == "map_cell") ++cells, hidden += d.visible ? 0 : 1;
    if (d.kind == "map_layer") labels += d.visible ? 1 : 0;
  }
  CHECK(cells == 24 * path_length(s, 0));
  CHECK(hidden == 0);
  CHECK(labels >= 6);
  for (const PanelOverflow& o : ui.log.overflow)
    if (o.panel == panel_title(PanelId::Why)) CHECK(o.below <= 1.0f);
}

}  // namespace ts::test
