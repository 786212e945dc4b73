// `tokenscope bench --ui` (see ui_bench.h). The session is prepared the way a class would leave it
// at the end of a long run: a greedy lane and a sampling lane, generated until the KV cache holds
// the model's whole context (a lane that reaches EOS early is forced on with its runner-up), the
// newest position selected, every panel open, attention in the all-heads grid. Then the App's own
// frame() is timed between ImGui::NewFrame and ImGui::Render, exactly as the window calls it.
#include "app/ui_bench.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/app.h"
#include "app/fonts.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts {

namespace {

constexpr double kBudgetMs = 8.0;

// An ImGui context without a window: display size, a CPU-side font atlas, no ini file.
class HeadlessContext {
 public:
  HeadlessContext(int w, int h) {
    ctx_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
    io.DeltaTime = 1.0f / 60.0f;
    // As the OpenGL 3 backend declares on GL >= 3.2: draw lists may pass 65,536 vertices.
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  }
  ~HeadlessContext() { ImGui::DestroyContext(ctx_); }
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  static void rebuild_fonts(float size) {
    build_fonts(size);
    unsigned char* px = nullptr;
    int tw = 0, th = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&px, &tw, &th);
  }

 private:
  ImGuiContext* ctx_ = nullptr;
};

// Seconds since this process started (Linux: its start time in /proc/self/stat, in clock ticks
// since boot, against /proc/uptime); -1 when unknown.
double seconds_since_process_start() {
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (!f) return -1;
  char buf[1024] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  // Field 2 (the command) may hold spaces: count fields after its closing parenthesis.
  const char* p = nullptr;
  for (size_t i = n; i-- > 0;)
    if (buf[i] == ')') {
      p = buf + i + 1;
      break;
    }
  if (!p) return -1;
  unsigned long long start_ticks = 0;
  int field = 2;
  while (*p && field < 22) {
    while (*p == ' ') ++p;
    if (++field == 22) {
      start_ticks = std::strtoull(p, nullptr, 10);
      break;
    }
    while (*p && *p != ' ') ++p;
  }
  std::FILE* u = std::fopen("/proc/uptime", "r");
  if (!u) return -1;
  double uptime = 0;
  const int got = std::fscanf(u, "%lf", &uptime);
  std::fclose(u);
  const long hz = sysconf(_SC_CLK_TCK);
  if (got != 1 || hz <= 0 || start_ticks == 0) return -1;
  return uptime - static_cast<double>(start_ticks) / static_cast<double>(hz);
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  return v[i];
}

// Steps every lane until the whole context is in its KV cache; a lane that stops early (EOS, a
// stop string) is forced on at once with the most probable other token. Returns the positions
// the shortest lane holds.
Result<int> fill_context(Session& s) {
  const int n_ctx = config(s).n_ctx;
  TS_TRY(set_max_tokens(s, n_ctx));
  auto shortest = [&] {
    int n = n_ctx;
    for (int lane = 0; lane < lane_count(s); ++lane) n = std::min(n, kv_length(s, lane));
    return n;
  };
  for (int guard = 0; guard < 4 * n_ctx && shortest() < n_ctx; ++guard) {
    bool forced = false;
    for (int lane = 0; lane < lane_count(s); ++lane) {
      const StopReason why = stop_reason(s, lane);
      if (why != StopReason::Eos && why != StopReason::StopString) continue;
      const Step* st = current_step(s, lane);
      if (st == nullptr) continue;
      for (const auto& e : st->sampling.raw) {  // the filters may have kept only the EOS
        if (e.id == st->token || e.id == s.tokenizer().data().eos_id) continue;
        TS_TRY(s.force(e.id, lane));
        forced = true;
        break;
      }
    }
    if (forced) continue;
    if (!can_step(s)) break;  // max tokens or a full context: as full as it gets
    TS_TRY(s.step());
  }
  return shortest();
}

}  // namespace

namespace {

// What one run measured, for the report.
struct UiBenchResult {
  std::string model_name;
  int positions = 0, n_ctx = 0, lanes = 0, vertices = 0;
  double median = 0, p90 = 0, worst = 0;  // ms per frame
  double fill_s = 0, first_frame_s = -1;
};

// Lane 0 greedy plus a T=0.8 top-p=0.9 lane, both stepped until the context is full.
Result<int> two_full_lanes(Session& s, double& fill_s) {
  SamplerSettings greedy;
  greedy.label = "greedy";
  stage<Temperature>(greedy).t = 0.0f;
  SamplerSettings warm = settings(s, 0);
  warm.label = "T=0.8 top-p=0.9";
  stage<Temperature>(warm).t = 0.8f;
  stage<TopP>(warm).p = 0.9f;
  warm.seed = 7;
  TS_TRY(s.set_sampler(0, greedy));
  if (Result<int> l = s.add_lane(warm); !l.ok()) return l.error();
  const auto fill_start = std::chrono::steady_clock::now();
  Result<int> filled = fill_context(s);
  fill_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - fill_start).count();
  if (!filled.ok()) return make_error("filling the context failed: " + filled.error().message);
  return filled;
}

// Every panel open, all heads shown: `frames` frames timed after 20 that let the layout settle.
std::vector<double> time_frames(App& app, int frames) {
  UiState& ui = app.ui();
  ui.prefs.show.fill(true);
  ui.attention.all_heads = true;
  ui.sel.selected_position = -1;  // the newest token
  auto one_frame = [&] {
    if (app.take_font_rebuild()) HeadlessContext::rebuild_fonts(ui.prefs.font_size);
    const auto t0 = std::chrono::steady_clock::now();
    ImGui::NewFrame();
    app.frame(1.0 / 60.0);
    ImGui::Render();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
        .count();
  };
  for (int i = 0; i < 20; ++i) one_frame();  // layout settles, fonts and caches warm
  std::vector<double> ms;
  ms.reserve(static_cast<size_t>(frames));
  for (int i = 0; i < frames; ++i) ms.push_back(one_frame());
  return ms;
}

void print_json(const UiBenchOptions& opt, const UiBenchResult& r, std::ostream& out) {
  nlohmann::json j = {{"model", r.model_name},
                      {"window", {opt.width, opt.height}},
                      {"font_px", opt.font_size},
                      {"positions", r.positions},
                      {"n_ctx", r.n_ctx},
                      {"lanes", r.lanes},
                      {"frames", opt.frames},
                      {"median_ms", r.median},
                      {"p90_ms", r.p90},
                      {"max_ms", r.worst},
                      {"budget_ms", kBudgetMs},
                      {"median_over_budget", r.median / kBudgetMs},
                      {"vertices", r.vertices},
                      {"fill_seconds", r.fill_s},
                      {"launch_to_first_frame_seconds", r.first_frame_s}};
  out << j.dump(2) << "\n";
}

void print_text(const UiBenchOptions& opt, const UiBenchResult& r, std::ostream& out) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "ui frame build, every panel open (%s, %d of %d positions, %d lanes, %dx%d, "
                "font %.0f px)\n"
                "  %d frames: median %.2f ms, p90 %.2f ms, max %.2f ms, %d vertices\n"
                "  budget %.0f ms: median / budget = %.2f  %s\n",
                r.model_name.c_str(), r.positions, r.n_ctx, r.lanes, opt.width, opt.height,
                opt.font_size, opt.frames, r.median, r.p90, r.worst, r.vertices, kBudgetMs,
                r.median / kBudgetMs, r.median <= kBudgetMs ? "(within budget)" : "(OVER budget)");
  out << buf;
  if (r.first_frame_s >= 0) {
    std::snprintf(buf, sizeof buf,
                  "launch to first frame (process start, model loaded, one frame; headless, no "
                  "window): %.2f s (target 1 s)\n",
                  r.first_frame_s);
    out << buf;
  }
  std::snprintf(buf, sizeof buf, "filling the context (%d positions, %d lanes) took %.1f s\n",
                r.positions, r.lanes, r.fill_s);
  out << buf;
}

}  // namespace

int run_ui_bench(const UiBenchOptions& opt, std::ostream& out, std::ostream& err) {
  HeadlessContext ctx(opt.width, opt.height);
  AppOptions ao;
  ao.model = opt.model;
  ao.tokenizer = opt.tokenizer;
  ao.prompt = "Once upon a time, there was a little girl named Lily. She loved to play outside.";
  ao.has_prompt = true;
  ao.use_settings = false;
  ao.synchronous = true;
  ao.font_size = opt.font_size;
  App app(ao);
  app.start();
  HeadlessContext::rebuild_fonts(opt.font_size);
  app.wait_idle();
  // Launch to first frame: the process started, the model loaded, one full frame drawn.
  ImGui::NewFrame();
  app.frame(1.0 / 60.0);
  ImGui::Render();
  UiBenchResult r;
  r.first_frame_s = seconds_since_process_start();
  if (!has_model(app.session())) {
    err << "tokenscope bench --ui: the model did not load";
    for (const std::string& e : app.errors()) err << ": " << e;
    err << "\n";
    return 1;
  }
  Session& s = app.session_for_tests();
  Result<int> filled = two_full_lanes(s, r.fill_s);
  if (!filled.ok()) return err << "tokenscope bench --ui: " << filled.error().message << "\n", 1;
  const std::vector<double> ms = time_frames(app, opt.frames);
  const ImDrawData* dd = ImGui::GetDrawData();
  r.vertices = dd ? dd->TotalVtxCount : 0;
  r.median = percentile(ms, 0.5);
  r.p90 = percentile(ms, 0.9);
  r.worst = *std::max_element(ms.begin(), ms.end());
  r.model_name = std::filesystem::path(opt.model).filename().string();
  r.positions = filled.value();
  r.n_ctx = config(s).n_ctx;
  r.lanes = lane_count(s);
  if (opt.json)
    print_json(opt, r, out);
  else
    print_text(opt, r, out);
  return 0;
}

}  // namespace ts
