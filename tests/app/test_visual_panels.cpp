// Headless tests of the visual panels (attention, KV cache, cost, compare, branches, model) in an
// ImGui context with no window (headless.h; the widgets have test_widgets.cpp). Each panel draws
// with balanced Begin/End in the empty state, mid-generation, after a rewind and on a branch; the
// heatmap reports the hovered (query, key, weight); clicks emit the right commands. The model is
// the shipped one (models/tales-4m.gguf).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/ui_state.h"
#include "app/widgets/charts.h"
#include "app/widgets/colormap.h"
#include "app/widgets/heatmap.h"
#include "app/widgets/units.h"
#include "golden.h"
#include "harness.h"
#include "headless.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts {

using test::Headless;

namespace {

using PanelFn = void (*)(const Session&, UiState&, Commands&);
struct VisualPanel {
  PanelId id;
  PanelFn draw;
};
// Each panel with the state the switchboard gives it (its own part and the shared env).
const VisualPanel kPanels[] = {
    {PanelId::Attention, [](const Session& s, UiState& ui,
                            Commands& c) { draw_attention_panel(s, ui.env(), ui.attention, c); }},
    {PanelId::KvCache, [](const Session& s, UiState& ui,
                          Commands& c) { draw_kv_cache_panel(s, ui.env(), ui.kv, c); }},
    {PanelId::Cost,
     [](const Session& s, UiState& ui, Commands& c) { draw_cost_panel(s, ui.env(), ui.cost, c); }},
    {PanelId::Compare, [](const Session& s, UiState& ui,
                          Commands& c) { draw_compare_panel(s, ui.env(), ui.compare, c); }},
    {PanelId::Branches,
     [](const Session& s, UiState& ui, Commands& c) { draw_branches_panel(s, ui.env(), c); }},
    {PanelId::Model,
     [](const Session& s, UiState& ui, Commands& c) { draw_model_panel(s, ui.env(), c); }},
};

// Every visual panel visible, tiled 3 x 2 over the display (each about a sixth of it).
void tile_panels(UiState& ui, float w, float h) {
  for (int i = 0; i < 6; ++i) {
    const PanelId id = kPanels[i].id;
    *ui.prefs.show_flag(id) = true;
    ui.frame.rects[static_cast<int>(id)] =
        PanelRect{(i % 3) * w / 3, (i / 3) * h / 2, w / 3, h / 2};
  }
}

// One panel over the whole display.
void solo_panel(UiState& ui, PanelId id, float w, float h) {
  *ui.prefs.show_flag(id) = true;
  ui.frame.rects[static_cast<int>(id)] = PanelRect{0, 0, w, h};
}

// Draws all six panels for a few frames and checks each produced a window with content.
void draw_all(Headless& hl, const Session& s, UiState& ui, Commands& cmd) {
  for (int f = 0; f < 3; ++f)
    hl.frame([&] {
      for (const VisualPanel& p : kPanels) p.draw(s, ui, cmd);
    });
  for (const VisualPanel& p : kPanels) {
    ImGuiWindow* w = ImGui::FindWindowByName(panel_title(p.id));
    REQUIRE_MESSAGE(w != nullptr, panel_title(p.id));
    CHECK_MESSAGE(w->ContentSize.y > 0, panel_title(p.id));  // never an empty box
  }
}

using test::find_drawn;  // harness.h

// What the attention panel reported hovering ("query key layer head weight masked").
struct AttentionHoverReport {
  bool valid = false;
  int query = -1, key = -1, layer = -1, head = -1;
  float weight = 0;
  bool masked = false;
};
AttentionHoverReport attention_hover(const UiState& ui) {
  AttentionHoverReport r;
  const DrawnItem* d = find_drawn(ui, "attention_hover");
  int masked = 0;
  if (d && std::sscanf(d->label.c_str(), "%d %d %d %d %f %d", &r.query, &r.key, &r.layer, &r.head,
                       &r.weight, &masked) == 6) {
    r.valid = true;
    r.masked = masked != 0;
  }
  return r;
}

// The shipped model (tests/app/harness.h) with a prompt.
void load_model(Session& s) {
  const Status st = s.load_model(test::shipped_model());
  REQUIRE_MESSAGE(st.ok(), s.last_error());
  REQUIRE(s.set_prompt("Once upon a time there was a dream").ok());
}

}  // namespace

TEST_CASE("visual panels draw without a model, before the prefill, mid-generation, after a rewind "
          "and on a branch") {
  for (ThemeKind theme : {ThemeKind::Light, ThemeKind::Projector}) {
    for (ImVec2 size : {ImVec2(1600, 900), ImVec2(900, 560)}) {
      Headless hl(size.x, size.y);
      apply_theme(theme, ImGui::GetFontSize());
      UiState ui;
      ui.prefs.theme = theme;
      ui.attention.all_heads = true;
      tile_panels(ui, size.x, size.y);
      Commands cmd;
      Session s;
      draw_all(hl, s, ui, cmd);  // no model
      load_model(s);
      draw_all(hl, s, ui, cmd);  // model and prompt, nothing computed
      for (int i = 0; i < 6; ++i) REQUIRE(s.step().ok());
      draw_all(hl, s, ui, cmd);  // mid-generation
      REQUIRE(back(s).ok());
      REQUIRE(back(s).ok());
      draw_all(hl, s, ui, cmd);  // rewound: later rows dropped from the cache
      const Step* cur = current_step(s, 0);
      REQUIRE(cur != nullptr);
      const int other = cur->sampling.final_dist.size() > 1 && cur->sampling.final_dist[0].id == cur->token
                            ? cur->sampling.final_dist[1].id
                            : cur->sampling.final_dist[0].id;
      REQUIRE(s.force(other).ok());
      REQUIRE(s.step().ok());
      REQUIRE(branches(s, 0).size() == 2);
      draw_all(hl, s, ui, cmd);  // on a branch
      SamplerSettings greedy;
      greedy.label = "greedy";
      stage<Temperature>(greedy).t = 0.0f;
      REQUIRE(s.add_lane(greedy).ok());
      draw_all(hl, s, ui, cmd);  // two lanes
      CHECK(cmd.empty());  // drawing alone asks for nothing
    }
  }
}

TEST_CASE("visual panels draw at record levels summary and off") {
  for (RecordLevel level : {RecordLevel::Summary, RecordLevel::Off}) {
    Headless hl;
    UiState ui;
    tile_panels(ui, 1600, 900);
    Commands cmd;
    Session s;
    load_model(s);
    REQUIRE(set_record_level(s, level).ok());
    REQUIRE(s.step().ok());
    REQUIRE(s.step().ok());
    draw_all(hl, s, ui, cmd);
    REQUIRE(back(s).ok());
    draw_all(hl, s, ui, cmd);
  }
}

TEST_CASE("attention panel: hovering a cell reports query, key and the recorded weight") {
  Headless hl;
  UiState ui;
  solo_panel(ui, PanelId::Attention, 1600, 900);
  ui.log.record = true;
  Commands cmd;
  Session s;
  load_model(s);
  for (int i = 0; i < 4; ++i) REQUIRE(s.step().ok());  // prefill + 3 decode rows
  ui.sel.selected_layer = 1;
  ui.sel.selected_head = 2;

  auto draw = [&] {
    ui.log.drawn.clear();
    draw_attention_panel(s, ui.env(), ui.attention, cmd);
  };
  hl.frame(draw);
  hl.frame(draw);
  REQUIRE(find_drawn(ui, "attention_grid") != nullptr);
  const DrawnItem grid = *find_drawn(ui, "attention_grid");  // a copy: ui.log.drawn is refilled
  const DrawnItem* g = &grid;
  const int n = std::stoi(g->label);
  const int T = static_cast<int>(prompt_tokens(s).size());
  CHECK(n == T + 3);  // prompt rows + one row per decode step so far
  const float cell = g->rect.w / n;

  // Query = the newest row (computed by the decode step at the cursor); key = where head 2 of
  // layer 1 looks most.
  const int q = n - 1;
  const AttentionMap& top = current_step(s, 0)->forward->attention.at(1);
  int k = 0;
  for (int c = 1; c <= q; ++c)
    if (top.at(2, q - top.first_pos, c) > top.at(2, q - top.first_pos, k)) k = c;
  hl.mouse(g->rect.x + (k + 0.5f) * cell, g->rect.y + (q + 0.5f) * cell);
  hl.frame(draw);
  hl.frame(draw);
  const Step* cur = current_step(s, 0);
  REQUIRE(cur->forward->attention.size() > 1);
  const AttentionMap& am = cur->forward->attention[1];
  AttentionHoverReport h = attention_hover(ui);
  REQUIRE(h.valid);
  CHECK(h.query == q);
  CHECK(h.key == k);
  CHECK(h.layer == 1);
  CHECK(h.head == 2);
  CHECK_FALSE(h.masked);
  CHECK(h.weight == doctest::Approx(am.at(2, q - am.first_pos, k)));
  CHECK(h.weight > 0.0f);
  CHECK(ui.sel.hover.position == q);

  // A prefill row (row 2 of the prompt) comes from step 0's record.
  hl.mouse(g->rect.x + 1.5f * cell, g->rect.y + 2.5f * cell);
  hl.frame(draw);
  const AttentionMap& pm = step_at(s, 0, 0)->forward->attention[1];
  h = attention_hover(ui);
  REQUIRE(h.valid);
  CHECK(h.query == 2);
  CHECK(h.weight == doctest::Approx(pm.at(2, 2, 1)));

  // Above the diagonal: the causal mask, weight 0.
  hl.mouse(g->rect.x + 4.5f * cell, g->rect.y + 2.5f * cell);
  hl.frame(draw);
  h = attention_hover(ui);
  REQUIRE(h.valid);
  CHECK(h.query == 2);
  CHECK(h.key == 4);
  CHECK(h.masked);
  CHECK(h.weight == 0.0f);

  // Away from the map: no report.
  hl.mouse(1, 1);
  hl.frame(draw);
  CHECK_FALSE(attention_hover(ui).valid);

  // Head average (the panel's "average of heads" option): the mean of the recorded heads.
  ui.attention.average = true;
  hl.mouse(g->rect.x + (k + 0.5f) * cell, g->rect.y + (q + 0.5f) * cell);
  hl.frame(draw);
  float mean = 0;
  for (int hd = 0; hd < am.n_heads; ++hd) mean += am.at(hd, q - am.first_pos, k);
  mean /= am.n_heads;
  h = attention_hover(ui);
  REQUIRE(h.valid);
  CHECK(h.head == -1);
  CHECK(h.weight == doctest::Approx(mean));
  CHECK(std::fabs(mean - am.at(2, q - am.first_pos, k)) > 1e-3f);  // the average is not head 2

  // Clicking a row selects that token for every panel.
  hl.mouse(g->rect.x + 0.5f * cell, g->rect.y + 3.5f * cell, true);
  hl.frame(draw);
  hl.mouse(g->rect.x + 0.5f * cell, g->rect.y + 3.5f * cell, false);
  hl.frame(draw);
  CHECK(ui.sel.selected_position == 3);
  CHECK(cmd.empty());
}

TEST_CASE("attention panel: step into hides the current step's row until its layer is reached") {
  Headless hl;
  UiState ui;
  solo_panel(ui, PanelId::Attention, 1600, 900);
  ui.log.record = true;
  ui.sel.selected_layer = 2;
  Commands cmd;
  Session s;
  load_model(s);
  REQUIRE(s.step().ok());
  REQUIRE(s.step().ok());
  auto draw = [&] {
    ui.log.drawn.clear();
    draw_attention_panel(s, ui.env(), ui.attention, cmd);
  };
  hl.frame(draw);
  hl.frame(draw);
  REQUIRE(find_drawn(ui, "attention_grid") != nullptr);
  const DrawnItem grid = *find_drawn(ui, "attention_grid");
  const int n = std::stoi(grid.label);
  const float cell = grid.rect.w / n;
  const int q = n - 1;  // the decode step's row
  hl.mouse(grid.rect.x + 0.5f * cell, grid.rect.y + (q + 0.5f) * cell);
  hl.frame(draw);
  AttentionHoverReport h = attention_hover(ui);
  REQUIRE(h.valid);
  CHECK(h.query == q);
  CHECK(std::isfinite(h.weight));  // whole step revealed: the row is there

  REQUIRE(
      phase_reset(s).ok());  // back to the embed phase of this step: no layer's attention shown yet
  hl.frame(draw);
  // The map may sit elsewhere now (the panel says why the row is empty): point at row q again.
  REQUIRE(find_drawn(ui, "attention_grid") != nullptr);
  const DrawnItem reset_grid = *find_drawn(ui, "attention_grid");
  hl.mouse(reset_grid.rect.x + 0.5f * cell, reset_grid.rect.y + (q + 0.5f) * cell);
  hl.frame(draw);
  h = attention_hover(ui);
  REQUIRE(h.valid);
  CHECK(h.query == q);
  CHECK(std::isnan(h.weight));
  // A row of an earlier step (the prefill) stays visible.
  hl.mouse(reset_grid.rect.x + 0.5f * cell, reset_grid.rect.y + 1.5f * cell);
  hl.frame(draw);
  h = attention_hover(ui);
  REQUIRE(h.valid);
  CHECK(std::isfinite(h.weight));

  // Reveal up to layer 2's attention: the row comes back.
  const std::vector<PhaseItem> phases = ts::phases(s, 0);
  int at = -1;
  for (size_t i = 0; i < phases.size(); ++i)
    if (phases[i].kind == PhaseKind::Attention && phases[i].layer == 2) at = static_cast<int>(i);
  REQUIRE(at >= 0);
  REQUIRE(s.set_phase(at).ok());
  hl.mouse(grid.rect.x + 0.5f * cell, grid.rect.y + (q + 0.5f) * cell);
  hl.frame(draw);
  h = attention_hover(ui);
  REQUIRE(h.valid);
  CHECK(std::isfinite(h.weight));
}

TEST_CASE("attention panel: clicking a small map in the layers x heads grid selects it") {
  Headless hl;
  UiState ui;
  solo_panel(ui, PanelId::Attention, 1600, 900);
  ui.log.record = true;
  ui.attention.all_heads = true;
  Commands cmd;
  Session s;
  load_model(s);
  REQUIRE(s.step().ok());
  auto draw = [&] {
    ui.log.drawn.clear();
    draw_attention_panel(s, ui.env(), ui.attention, cmd);
  };
  hl.frame(draw);
  hl.frame(draw);
  REQUIRE(find_drawn(ui, "attention_mini", "2 3") != nullptr);
  const DrawnItem mini = *find_drawn(ui, "attention_mini", "2 3");
  const DrawnItem* m = &mini;
  const float x = m->rect.x + m->rect.w * 0.5f, y = m->rect.y + m->rect.h * 0.5f;
  hl.mouse(x, y, true);
  hl.frame(draw);
  hl.mouse(x, y, false);
  hl.frame(draw);
  CHECK(ui.sel.selected_layer == 2);
  CHECK(ui.sel.selected_head == 3);
}

TEST_CASE("branches panel: clicking a node emits the switch-branch command for that node") {
  Headless hl;
  UiState ui;
  solo_panel(ui, PanelId::Branches, 1600, 900);
  ui.log.record = true;
  Commands cmd;
  Session s;
  load_model(s);
  for (int i = 0; i < 4; ++i) REQUIRE(s.step().ok());
  REQUIRE(back(s).ok());
  const Step* cur = current_step(s, 0);
  const int other = cur->sampling.final_dist[0].id == cur->token ? cur->sampling.final_dist[1].id
                                                                 : cur->sampling.final_dist[0].id;
  REQUIRE(s.force(other).ok());
  REQUIRE(s.step().ok());
  const std::vector<BranchInfo> br = branches(s, 0);
  REQUIRE(br.size() == 2);
  int off_path = -1;  // the old branch's leaf: not on the current path
  for (const BranchInfo& b : br)
    if (!b.current) off_path = b.leaf;
  REQUIRE(off_path >= 0);

  auto draw = [&] {
    ui.log.drawn.clear();
    draw_branches_panel(s, ui.env(), cmd);
  };
  hl.frame(draw);
  hl.frame(draw);
  REQUIRE(find_drawn(ui, "branch_node", std::to_string(off_path)) != nullptr);
  const DrawnItem node_item = *find_drawn(ui, "branch_node", std::to_string(off_path));
  const DrawnItem* node = &node_item;
  // Every node of the tree is drawn once.
  int n_nodes = 0;
  for (const DrawnItem& d : ui.log.drawn) n_nodes += d.kind == "branch_node";
  CHECK(n_nodes == timeline(s, 0).size());

  const float x = node->rect.x + node->rect.w * 0.5f, y = node->rect.y + node->rect.h * 0.5f;
  hl.mouse(x, y, true);
  hl.frame(draw);
  CHECK(cmd.empty());  // pressed, not yet released
  hl.mouse(x, y, false);
  hl.frame(draw);
  const cmd::SwitchBranch* sw = cmd.find<cmd::SwitchBranch>();
  REQUIRE(sw != nullptr);
  CHECK(sw->node == off_path);
  CHECK(sw->lane == 0);
  CHECK(cmd.size() == 1);
}

TEST_CASE("compare panel: add-lane presets and remove emit commands") {
  Headless hl;
  UiState ui;
  solo_panel(ui, PanelId::Compare, 1600, 900);
  Commands cmd;
  Session s;
  load_model(s);
  SamplerSettings t08;
  t08.label = "T=0.8";
  stage<Temperature>(t08).t = 0.8f;
  REQUIRE(s.add_lane(t08).ok());
  for (int i = 0; i < 3; ++i) REQUIRE(s.step().ok());
  ImVec2 add_min, add_max;
  auto draw = [&] { draw_compare_panel(s, ui.env(), ui.compare, cmd); };
  // Locate the "add lane..." button: the first item in the window.
  hl.frame(draw);
  ImGuiWindow* w = ImGui::FindWindowByName(panel_title(PanelId::Compare));
  REQUIRE(w != nullptr);
  add_min = w->ContentRegionRect.Min;
  add_max = ImVec2(add_min.x + ImGui::CalcTextSize("add lane...").x, add_min.y + ImGui::GetFontSize());
  const float x = add_min.x + 4, y = (add_min.y + add_max.y) * 0.5f;
  hl.mouse(x, y, true);
  hl.frame(draw);
  hl.mouse(x, y, false);
  hl.frame(draw);
  hl.frame(draw);  // the popup opens
  ImGuiWindow* popup = nullptr;
  for (ImGuiWindow* win : GImGui->Windows)
    if (win->Active && (win->Flags & ImGuiWindowFlags_Popup)) popup = win;
  REQUIRE(popup != nullptr);
  // Click its first preset ("greedy").
  const ImVec2 p(popup->ContentRegionRect.Min.x + 4, popup->ContentRegionRect.Min.y + ImGui::GetFontSize() * 0.5f);
  hl.mouse(p.x, p.y, true);
  hl.frame(draw);
  hl.mouse(p.x, p.y, false);
  hl.frame(draw);
  const cmd::AddLane* add = cmd.find<cmd::AddLane>();
  REQUIRE(add != nullptr);
  CHECK(add->settings.label == "greedy");
  CHECK(stage_or_off<Temperature>(add->settings).t == 0.0f);
  CHECK(add->settings.seed == settings(s, 0).seed);

  // The second lane's remove button.
  cmd.clear();
  ui.log.record = true;
  auto draw_rec = [&] {
    ui.log.drawn.clear();
    draw_compare_panel(s, ui.env(), ui.compare, cmd);
  };
  hl.mouse(1, 1);
  hl.frame(draw_rec);
  hl.frame(draw_rec);
  CHECK(find_drawn(ui, "lane_remove", "0") != nullptr);
  REQUIRE(find_drawn(ui, "lane_remove", "1") != nullptr);
  const DrawnItem rm = *find_drawn(ui, "lane_remove", "1");
  const float rx = rm.rect.x + rm.rect.w * 0.5f, ry = rm.rect.y + rm.rect.h * 0.5f;
  hl.mouse(rx, ry, true);
  hl.frame(draw_rec);
  hl.mouse(rx, ry, false);
  hl.frame(draw_rec);
  const cmd::RemoveLane* remove = cmd.find<cmd::RemoveLane>();
  REQUIRE(remove != nullptr);
  CHECK(remove->lane == 1);
  CHECK(cmd.size() == 1);
}

}  // namespace ts
