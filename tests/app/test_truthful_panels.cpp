// Panels that tell the truth at a glance (issue #12): the next-token header shows the numbers of
// the view on screen (raw entropy in the raw view, final in the final one), a greedy lane shows
// the raw distribution, the histogram prints its counts (the bars themselves:
// test_prob_bars.cpp); the branch tree's layout fits its box with every fork visible; the compare
// panel outlines the first divergence and shows each lane's distribution at that step. Pure
// layout functions are checked with hand-made inputs, panels over the shipped model.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panels/branch_tree.h"
#include "app/panels/dist_stats.h"
#include "app/panels/panels.h"
#include "app/widgets/text_flow.h"
#include "app/view.h"
#include "app/widgets/prob_bars.h"
#include "harness.h"
#include "session/histogram.h"
#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session_access.h"

namespace ts::test {
namespace {

std::string bits(float h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f bits", h);
  return buf;
}

}  // namespace

TEST_CASE("dist stats: raw and final numbers come from their own distribution, rank 1-based") {
  SamplingRecord rec;
  rec.raw = {{7, 2.0f, 0.5f, true}, {3, 1.0f, 0.3f, true}, {9, 0.5f, 0.2f, true}};
  rec.draw.raw_entropy = 1.485f;
  rec.draw.entropy = 0.0f;
  StageRecord k;
  k.kind = StageKind::TopK;
  k.n_kept = 2;
  k.top = {{7, 2.0f, 0.625f, true}, {3, 1.0f, 0.375f, true}, {9, 0.5f, 0.0f, false}};
  rec.stages.push_back(k);
  const ViewStats r = raw_stats(rec, 3);
  CHECK(r.p_known);
  CHECK(r.p == doctest::Approx(0.3f));
  CHECK(r.rank == 2);
  CHECK(r.entropy == doctest::Approx(1.485f));
  const ViewStats st = stage_stats(rec, 0, 3);
  CHECK(st.rank == 2);
  CHECK(st.p == doctest::Approx(0.375f));
  REQUIRE(st.entropy_known);  // both kept tokens are recorded: exact
  CHECK(st.entropy == doctest::Approx(-(0.625 * std::log2(0.625) + 0.375 * std::log2(0.375))));
  const ViewStats cut = stage_stats(rec, 0, 9);  // cut by top-k: no rank among the kept
  CHECK_FALSE(cut.p_known);
  CHECK(cut.rank == 0);
  const ViewStats missing = raw_stats(rec, 42);  // below the recorded candidates
  CHECK_FALSE(missing.p_known);
  CHECK(missing.p == doctest::Approx(0.2f));  // at most the lowest recorded
  Step s;
  s.token = 7;
  s.chosen_p = 1.0f;
  s.chosen_rank = 0;
  s.sampling = rec;
  const ViewStats f = final_stats(s);
  CHECK(f.rank == 1);
  CHECK(f.entropy == 0.0f);
}

TEST_CASE("next-token header: the raw view shows the raw entropy and p, the final view the final") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  Commands cmd;
  const Step* st = current_step(*s, 0);
  REQUIRE(st != nullptr);
  const DrawRecord& d = st->sampling.draw;
  REQUIRE(bits(d.raw_entropy) != bits(d.entropy));  // top-k/top-p sharpen this step
  ui.dist.stage = DistStage::Raw;
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  const DrawnItem* active = find_drawn(ui, "stats_active");
  REQUIRE(active != nullptr);
  CHECK(active->label.find("raw") == 0);
  CHECK(active->label.find(bits(d.raw_entropy)) != std::string::npos);
  const ViewStats raw = raw_stats(st->sampling, st->token);
  char p[32];
  std::snprintf(p, sizeof p, raw.p_known ? "p %.1f%%" : "p < %.2f%%", 100.0 * raw.p);
  CHECK(active->label.find(p) != std::string::npos);
  // Raw and final overlaid: the raw view outlines each bar at its final probability.
  const DrawnItem* ref = find_drawn(ui, "ref_bar", s->tokenizer().display_piece(st->token));
  const DrawnItem* bar = find_bar(ui, "chosen");
  if (ref && bar) CHECK(ref->rect.w != doctest::Approx(bar->rect.w));  // the sampler changed p
  CHECK(find_drawn(ui, "ref_bar") != nullptr);
  // The final block is there too, dimmed, with the final entropy.
  bool final_seen = false;
  for (const DrawnItem& it : ui.log.drawn)
    if (it.kind == "stats" && it.label.find(bits(d.entropy)) != std::string::npos) final_seen = true;
  CHECK(final_seen);

  ui.log.drawn.clear();
  ui.dist.stage = DistStage::Final;
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  active = find_drawn(ui, "stats_active");
  REQUIRE(active != nullptr);
  CHECK(active->label.find("final") == 0);
  CHECK(active->label.find(bits(d.entropy)) != std::string::npos);
  CHECK(active->label.find("rank " + std::to_string(st->chosen_rank + 1)) != std::string::npos);
  // Under the final view each bar carries the raw model's probability as an outline.
  CHECK(find_drawn(ui, "ref_bar") != nullptr);
}

TEST_CASE("next-token panel: a greedy lane shows the raw distribution, not 100% on one token") {
  std::unique_ptr<Session> s = make_session(SessionState::TwoLanes);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  ui.sel.selected_lane = 1;  // the greedy lane
  ui.dist.stage = DistStage::Final;
  Commands cmd;
  const Step* st = current_step(*s, 1);
  REQUIRE(st != nullptr);
  REQUIRE(st->sampling.draw.greedy);
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  int bars = 0;
  for (const DrawnItem& it : ui.log.drawn) bars += it.kind == "bar" && it.state != "cut";
  CHECK(bars >= 3);  // the final distribution has a single token
  // The chosen bar's percentage is the raw model's probability of it.
  const ViewStats raw = raw_stats(st->sampling, st->token);
  REQUIRE(raw.p_known);
  CHECK(raw.p < 0.999f);
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * raw.p);
  const DrawnItem* chosen = find_bar(ui, "chosen");
  REQUIRE(chosen != nullptr);
  bool pct_seen = false;  // the chosen row's percentage, at the chosen bar's height
  for (const DrawnItem& it : ui.log.drawn)
    if (it.kind == "pct" && it.label.rfind(pct, 0) == 0 &&
        std::abs((it.rect.y + it.rect.h / 2) - (chosen->rect.y + chosen->rect.h / 2)) < 12)
      pct_seen = true;
  CHECK(pct_seen);
  const DrawnItem* active = find_drawn(ui, "stats_active");
  REQUIRE(active != nullptr);
  CHECK(active->label.find("raw") == 0);
}

TEST_CASE("next-token panel: sample N times prints each bar's count") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  Commands cmd;
  Result<Histogram> hist = histogram(*s, 1000, 0);
  REQUIRE(hist.ok());
  ui.dist.histogram =
      HistogramView{0, shown_node(*s, ui.sel), hist->n_samples, hist->ids, hist->counts, hist->p};
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  int shown = 0, total = 0;
  for (const DrawnItem& it : ui.log.drawn)
    if (it.kind == "hist_count") {
      ++shown;
      total += std::stoi(it.label);
    }
  CHECK(shown >= 3);
  CHECK(total <= 1000);
  // The most drawn token's count is printed as is.
  REQUIRE_FALSE(hist->ids.empty());
  CHECK(find_drawn(ui, "hist_count", std::to_string(hist->counts.front())) != nullptr);
}

TEST_CASE("branch tree layout: fitted to the box, one row per branch, forks and starts marked") {
  // Main line 0..9; a forced fork at step 5 (child of node 4) running to step 7; a second fork
  // at step 3 (child of node 2); node ids in creation order.
  std::vector<TreeNodeIn> in;
  for (int i = 0; i < 10; ++i) in.push_back({i - 1, i, false});             // ids 0..9
  in.push_back({4, 5, true});                                              // 10
  in.push_back({10, 6, false});                                            // 11
  in.push_back({11, 7, false});                                            // 12
  in.push_back({2, 3, true});                                              // 13
  const float w = 400, h = 120;
  const TreeLayout t = layout_branch_tree(in, w, h, 10, 80, 20, 40);
  CHECK(t.n_rows == 3);
  CHECK(t.max_step == 9);
  for (size_t id = 0; id < in.size(); ++id) {
    CHECK(t.x[id] >= 10);
    CHECK(t.x[id] <= w - 10 - 80 + 0.01f);  // the label space stays free
    CHECK(t.y[id] >= 0);
    CHECK(t.y[id] <= h);
    if (in[id].parent >= 0) CHECK(t.x[id] > t.x[in[id].parent]);
  }
  CHECK(t.row[9] == 0);  // the main line stays on row 0
  CHECK(t.row[10] != 0);
  CHECK(t.row[11] == t.row[10]);  // a first child continues its parent's row
  CHECK(t.row[13] != t.row[10]);
  CHECK(t.row[13] != 0);
  CHECK(t.fork[4]);
  CHECK(t.fork[2]);
  CHECK_FALSE(t.fork[5]);
  CHECK(t.branch_start[10]);
  CHECK(t.branch_start[13]);
  CHECK_FALSE(t.branch_start[5]);
  CHECK(t.leaf[9]);
  CHECK(t.leaf[12]);
  CHECK(t.leaf[13]);
  CHECK(t.key[0]);   // the root
  CHECK(t.key[4]);   // a fork
  CHECK_FALSE(t.key[6]);  // an ordinary step
  // A click near a node finds it; a key node wins against a plain step close by.
  CHECK(nearest_tree_node(t, t.x[12], t.y[12] + 2, 10) == 12);
  CHECK(nearest_tree_node(t, (t.x[4] * 0.55f + t.x[5] * 0.45f), t.y[4], t.step_w) == 4);
  CHECK(nearest_tree_node(t, w, h * 5, 10) == -1);
  // A deep tree is squeezed, not scrolled: 200 steps still fit the width.
  std::vector<TreeNodeIn> deep;
  for (int i = 0; i < 200; ++i) deep.push_back({i - 1, i, false});
  const TreeLayout td = layout_branch_tree(deep, w, h, 10, 80, 20, 40);
  CHECK(td.x.back() == doctest::Approx(w - 10 - 80));
}

TEST_CASE("branches panel: after a long run every node and the fork stay inside the panel") {
  std::unique_ptr<Session> s = make_session(SessionState::Loaded);
  for (int i = 0; i < 4; ++i) REQUIRE(s->step().ok());
  const Step* cur = current_step(*s, 0);
  REQUIRE(cur != nullptr);
  const int other = cur->sampling.final_dist[0].id == cur->token ? cur->sampling.raw[1].id
                                                                 : cur->sampling.final_dist[0].id;
  REQUIRE(s->force(other, 0).ok());
  for (int i = 0; i < 40 && can_step(*s); ++i) REQUIRE(s->step().ok());
  ImGuiHarness h;
  UiState ui = laid_out_ui(1280, 720);
  ui.log.record = true;
  const PanelRect box{100, 100, 500, 260};
  ui.frame.rects[static_cast<int>(PanelId::Branches)] = box;
  ui.frame.tabbed[static_cast<int>(PanelId::Branches)] = false;  // in its box, whatever the layout
  Commands cmd;
  for (int f = 0; f < 3; ++f) {
    ui.log.drawn.clear();
    h.frame([&] { draw_branches_panel(*s, ui.env(), cmd); });
  }
  int nodes = 0;
  for (const DrawnItem& it : ui.log.drawn)
    if (it.kind == "branch_node") {
      ++nodes;
      const float cx = it.rect.x + it.rect.w / 2, cy = it.rect.y + it.rect.h / 2;
      CHECK(cx >= box.x);
      CHECK(cx <= box.x + box.w);
      CHECK(cy >= box.y);
      CHECK(cy <= box.y + box.h);
    }
  CHECK(nodes == timeline(*s, 0).size());
  CHECK(find_drawn(ui, "fork_node") != nullptr);
  CHECK(find_drawn(ui, "forced_node") != nullptr);
}

TEST_CASE("text flow: pieces wrap at the width, a too-wide piece gets its own line") {
  float height = 0;
  const std::vector<FlowPos> p = wrap_flow({30, 30, 30, 50, 200, 10}, 100, 20, &height);
  REQUIRE(p.size() == 6);
  CHECK(p[0].x == 0);
  CHECK(p[1].x == 30);
  CHECK(p[2].x == 60);
  CHECK(p[3].line == 1);  // 90 + 50 > 100
  CHECK(p[3].x == 0);
  CHECK(p[4].line == 2);  // wider than the line: a line of its own
  CHECK(p[5].line == 3);
  CHECK(p[5].y == 60);
  CHECK(height == 80);
  float none = -1;
  CHECK(wrap_flow({}, 100, 20, &none).empty());
  CHECK(none == 0);
}

TEST_CASE("compare panel: the first divergence is outlined in every lane, its choice named") {
  std::unique_ptr<Session> s = make_session(SessionState::TwoLanes);
  for (int i = 0; i < 30 && first_divergence(*s) < 0 && can_step(*s); ++i) REQUIRE(s->step().ok());
  const int d = first_divergence(*s);
  REQUIRE(d >= 0);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  ui.frame.rects[static_cast<int>(PanelId::Compare)] = PanelRect{0, 0, 1200, 800};
  Commands cmd;
  for (int f = 0; f < 2; ++f) {
    ui.log.clear();
    h.frame([&] {
      draw_compare_panel(*s, ui.env(), ui.compare, cmd);
      ui.log.finish_frame();
    });
  }
  for (int lane = 0; lane < 2; ++lane) {
    const Step* st = step_at(*s, lane, d);
    REQUIRE(st != nullptr);
    CAPTURE(lane);
    const std::string name = settings(*s, lane).label.empty() ? "lane " + std::to_string(lane)
                                                              : settings(*s, lane).label;
    const DrawnItem* mark = find_drawn(ui, "lane_diverge", st->display);
    REQUIRE(mark != nullptr);
    bool marked_in_lane = false;
    for (const DrawnItem& it : ui.log.drawn)
      marked_in_lane |= it.kind == "lane_diverge" && it.state == name && it.label == st->display;
    CHECK(marked_in_lane);
    // The lane's header names what it chose at the divergence.
    bool named = false;
    for (const DrawnItem& it : ui.log.drawn)
      named |= it.label.find("step " + std::to_string(d) + ": " + st->display) == 0;
    CHECK(named);
    // Its newest token is in view, and its visible lines are its continuation.
    bool newest = false;
    for (const DrawnItem& it : ui.log.drawn)
      newest |= it.kind == "lane_newest" && it.state == name && it.visible;
    CHECK(newest);
  }
  CHECK(step_at(*s, 0, d)->token != step_at(*s, 1, d)->token);
}

}  // namespace ts::test

namespace ts::test {

TEST_CASE("step into: the KV panel and the logit lens show a layer only once it is computed") {
  std::unique_ptr<Session> s = make_session(SessionState::SteppingInto);
  REQUIRE(stepping_into(*s));
  const int n_layers = config(*s).n_layers;
  REQUIRE(n_layers >= 3);
  // The phase cursor is inside the layers: find the first layer whose attention is not shown.
  int written = 0;
  while (written < n_layers && phase_revealed(*s, PhaseKind::Attention, written)) ++written;
  REQUIRE(written >= 1);
  REQUIRE(written < n_layers);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  ui.frame.rects[static_cast<int>(PanelId::Model)] =
      PanelRect{0, 0, 1000, 900};  // room for the lens
  ui.frame.rects[static_cast<int>(PanelId::KvCache)] = PanelRect{1000, 0, 600, 900};
  Commands cmd;
  for (int f = 0; f < 2; ++f) {  // the second frame: windows and tables settled
    ui.log.drawn.clear();
    h.frame([&] {
      draw_kv_cache_panel(*s, ui.env(), ui.kv, cmd);
      draw_model_panel(*s, ui.env(), cmd);
    });
  }
  CHECK(find_drawn(ui, "lens_next") == nullptr);  // the next token is not drawn yet: no outline
  for (int l = 0; l < n_layers; ++l) {
    CAPTURE(l);
    CHECK((find_drawn(ui, "kv_new", std::to_string(l)) != nullptr) == (l < written));
    CHECK((find_drawn(ui, "lens_row", std::to_string(l)) != nullptr) ==
          phase_revealed(*s, PhaseKind::Mlp, l));
  }
  // A press further shows the next sub-block: something new each time.
  REQUIRE(step_into(*s).ok());
  for (int f = 0; f < 2; ++f) {  // the second frame: windows and tables settled
    ui.log.drawn.clear();
    h.frame([&] {
      draw_kv_cache_panel(*s, ui.env(), ui.kv, cmd);
      draw_model_panel(*s, ui.env(), cmd);
    });
  }
  int kv_layers = 0, lens_rows = 0;
  for (int l = 0; l < n_layers; ++l) {
    kv_layers += find_drawn(ui, "kv_new", std::to_string(l)) != nullptr;
    lens_rows += find_drawn(ui, "lens_row", std::to_string(l)) != nullptr;
  }
  CHECK(kv_layers + lens_rows > written + (written - 1));
  // Once the whole step is shown, every layer has its rows and its lens row.
  REQUIRE(s->set_phase(static_cast<int>(phases(*s, 0).size()) - 1).ok());
  for (int f = 0; f < 2; ++f) {  // the second frame: windows and tables settled
    ui.log.drawn.clear();
    h.frame([&] {
      draw_kv_cache_panel(*s, ui.env(), ui.kv, cmd);
      draw_model_panel(*s, ui.env(), cmd);
    });
  }
  for (int l = 0; l < n_layers; ++l) {
    CHECK(find_drawn(ui, "kv_new", std::to_string(l)) != nullptr);
    CHECK(find_drawn(ui, "lens_row", std::to_string(l)) != nullptr);
  }
}

TEST_CASE("step into: sampler stages that are off get no phase") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);  // top-k 40, top-p 0.95, T 0.9
  const Step* st = current_step(*s, 0);
  REQUIRE(st != nullptr);
  int on = 0, off = 0;
  for (const StageRecord& r : st->sampling.stages) (stage_is_off(r) ? off : on) += 1;
  REQUIRE(off >= 1);  // penalties and min-p
  int stage_phases = 0;
  for (const PhaseItem& p : phases(*s, 0))
    if (p.kind == PhaseKind::SamplerStage) {
      ++stage_phases;
      CHECK_FALSE(stage_is_off(st->sampling.stages[p.stage]));
    }
  CHECK(stage_phases == on);
}

}  // namespace ts::test

#include "app/apply_commands.h"

namespace ts::test {

TEST_CASE("app: changing a sampler mid-run continues from the cursor as a new branch") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  const std::vector<int> before = sequence(*s, 0, false);
  const int nodes = timeline(*s, 0).size();
  const int cursor = s->cursor();
  SamplerSettings g;
  g.label = "greedy";
  stage<Temperature>(g).t = 0.0f;
  REQUIRE(apply_command(*s, cmd::BranchSampler{0, g}, 2.0f).ok());
  CHECK(s->cursor() == cursor);
  CHECK(timeline(*s, 0).size() == nodes + 1);  // one re-chosen step, nothing regenerated
  CHECK(branches(*s, 0).size() == 2);
  const std::vector<int> after = sequence(*s, 0, false);
  REQUIRE(after.size() == before.size());
  CHECK(std::equal(before.begin(), before.end() - 1, after.begin()));  // history kept
  CHECK(current_step(*s, 0)->sampling.draw.greedy);
}

}  // namespace ts::test

#include "app/machine_ceilings.h"

namespace ts::test {

TEST_CASE("app: File > Open trace replays an exported trace exactly") {
  std::unique_ptr<Session> s = make_session(SessionState::Branch);
  REQUIRE(s->seek(3).ok());
  const std::string path =
      (std::filesystem::temp_directory_path() / "ts_open_trace_test.trace.json").string();
  REQUIRE(write_trace_json(*s, path, -1).ok());
  Session b;
  REQUIRE(b.load_model(shipped_model()).ok());
  const Status st = apply_ui_command(b, cmd::OpenTrace{path}, 2.0f);
  REQUIRE_MESSAGE(st.ok(), (st.ok() ? "" : st.error().message));
  CHECK(b.cursor() == 3);
  CHECK(prompt_text(b) == prompt_text(*s));
  CHECK(sequence(b, 0, false) == sequence(*s, 0, false));
  CHECK(step_at(b, 0, 4)->forced);
  // Opening something that is not a trace leaves an error naming the problem.
  CHECK_FALSE(apply_ui_command(b, cmd::OpenTrace{path + ".missing"}, 2.0f).ok());
  std::filesystem::remove(path);
}

}  // namespace ts::test
