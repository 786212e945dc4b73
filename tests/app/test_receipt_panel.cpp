// Headless tests of the Why this token panel (panels/receipt_panel.cpp and its sections) on the
// shipped model: the receipt's bars are the session's parts with their signs and its sum line
// prints the receipt's own numbers, for a rival far outside the top-k too; the receipt is kept
// between frames; a right-click on a Next token bar picks the rival; a click on a part sets up
// switching it off and the button sends the session's ablate command, after which the panel
// shows the branch beside its parent with the KL the session computes; the decision map draws
// one cell per layer and step, marks the deciding layers and a click seeks its step.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "app/panels/panels.h"
#include "app/script.h"
#include "app/ui_state.h"
#include "app/view.h"
#include "harness.h"
#include "imgui.h"
#include "session/decision_map.h"
#include "session/intervention_compare.h"
#include "session/receipt.h"
#include "session/session_access.h"

namespace ts {

using test::find_drawn;
using test::ImGuiHarness;
using test::make_session;
using test::SessionState;

namespace {

// The panel alone over the whole display, drawn for two frames (the layout of the first is
// settled in the second), recording what it drew.
struct WhyFixture {
  ImGuiHarness h{1280, 720};
  UiState ui;
  Commands cmd;
  WhyFixture() {
    ui.log.record = true;
    *ui.prefs.show_flag(PanelId::Why) = true;
    ui.frame.rects[static_cast<int>(PanelId::Why)] = PanelRect{0, 0, 1280, 720};
  }
  void draw(const Session& s) {
    for (int f = 0; f < 2; ++f) {
      ui.log.drawn.clear();
      h.frame([&] { draw_receipt_panel(s, ui.env(), ui.why, cmd); });
    }
  }
  void click(const Session& s, const DrawnItem& d) {
    h.click(d.rect.x + d.rect.w / 2, d.rect.y + d.rect.h / 2,
            [&] { draw_receipt_panel(s, ui.env(), ui.why, cmd); });
  }
  bool text_has(const std::string& needle) const {
    for (const DrawnItem& d : ui.log.drawn)
      if (d.kind == "text" && d.label.find(needle) != std::string::npos) return true;
    return false;
  }
  int count(const std::string& kind) const {
    int n = 0;
    for (const DrawnItem& d : ui.log.drawn) n += d.kind == kind;
    return n;
  }
};

// A token that the shown step's recorded candidates do not list (far outside the top-k).
int token_outside_top(const Step& st) {
  for (int id = 0;; ++id) {
    bool listed = id == st.token;
    for (const Candidate& c : st.sampling.raw) listed |= c.id == id;
    if (!listed) return id;
  }
}

std::string four(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4f", v);
  return b;
}

}  // namespace

TEST_CASE(
    "why panel: the receipt's bars and sum line are the session's receipt, rival outside the "
    "top-k") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  WhyFixture f;
  const Step* st = current_step(*s, 0);
  REQUIRE(st != nullptr);
  const int rival = token_outside_top(*st);
  f.ui.sel.rival_token = rival;
  f.draw(*s);
  Result<TokenReceipt> r = token_receipt(*s, 0, st->index, rival);
  REQUIRE(r.ok());
  CHECK(r->vs.rank >= static_cast<int>(st->sampling.raw.size()));
  // Every bar drawn is a part of the receipt, on its side of zero.
  int bars = 0;
  for (const DrawnItem& d : f.ui.log.drawn) {
    if (d.kind != "receipt_part") continue;
    ++bars;
    bool found = false;
    for (const ReceiptPart& p : r->parts)
      if (part_name(p.part) == d.label) {
        found = true;
        CHECK(d.state == (p.value >= 0 ? "for" : "against"));
      }
    CHECK_MESSAGE(found, d.label);
  }
  CHECK(bars >= 3);
  CHECK(f.text_has("parts add up to " + four(r->parts_sum) + " = logit difference " +
                   four(r->logit_diff)));
  if (bars < static_cast<int>(r->parts.size()))
    CHECK(f.text_has(std::to_string(r->parts.size() - bars) + " smaller parts"));
  CHECK(f.text_has("draw u = "));
  // Kept between frames: the same receipt object until the rival changes.
  const TokenReceipt* kept = f.ui.why.receipt.get();
  f.draw(*s);
  CHECK(f.ui.why.receipt.get() == kept);
  f.ui.sel.rival_token =
      st->sampling.raw[1].id == st->token ? st->sampling.raw[0].id : st->sampling.raw[1].id;
  f.draw(*s);
  REQUIRE(f.ui.why.receipt != nullptr);
  CHECK(f.ui.why.receipt->vs.id == f.ui.sel.rival_token);
  CHECK(f.cmd.empty());  // drawing asks for nothing
}

TEST_CASE("next-token panel: a right-click on a bar makes its token the receipt's rival") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = test::laid_out_ui();
  ui.log.record = true;
  Commands cmd;
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  REQUIRE(test::find_bar(ui, "kept") != nullptr);
  const DrawnItem bar_item = *test::find_bar(ui, "kept");  // (the log grows: keep a copy)
  const DrawnItem* bar = &bar_item;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(bar->rect.x + 2, bar->rect.y + bar->rect.h / 2);
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  io.MouseDown[1] = true;
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  io.MouseDown[1] = false;
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  REQUIRE(ui.sel.rival_token >= 0);
  CHECK(s->tokenizer().display_piece(ui.sel.rival_token) == bar->label);
  CHECK(cmd.find<cmd::Force>() == nullptr);  // a right-click forces nothing
}

TEST_CASE("why panel: a clicked part is switched off as a branch, shown beside its parent") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  WhyFixture f;
  f.draw(*s);
  const DrawnItem* mlp = find_drawn(f.ui, "receipt_part", "L1.mlp");
  REQUIRE(mlp != nullptr);
  f.click(*s, *mlp);
  CHECK(f.ui.why.section == kWhyIntervention);
  CHECK(f.ui.why.ablate_what == 2);
  CHECK(f.ui.why.ablate_layer == 1);
  f.draw(*s);
  const DrawnItem* button = find_drawn(f.ui, "button", "ablate");
  REQUIRE(button != nullptr);
  f.click(*s, *button);
  const cmd::Ablate* a = f.cmd.find<cmd::Ablate>();
  REQUIRE(a != nullptr);
  CHECK(describe(a->ablation) == "L1.mlp from");
  REQUIRE(apply_command(*s, SessionCommand{*a}).ok());
  f.cmd.clear();
  f.draw(*s);
  const int node = shown_node(*s, f.ui.sel);
  REQUIRE(is_intervention_fork(timeline(*s, 0), node));
  Result<InterventionComparison> c = compare_intervention(*s, 0, node);
  REQUIRE(c.ok());
  char kl[32];
  std::snprintf(kl, sizeof kl, "%.3f bits", c->kl_bits);
  CHECK(f.text_has(kl));
  CHECK(f.text_has("Branch L1.mlp from step " + std::to_string(c->fork_step)));
  CHECK(f.text_has("without"));
  CHECK(f.count("bar") >= 4);  // the top tokens of both sides
}

TEST_CASE("why panel: the decision map draws layers x steps, marks the deciding layer, seeks") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  WhyFixture f;
  f.ui.why.section = kWhyMap;
  f.draw(*s);
  Result<DecisionMap> m = decision_map(*s, 0);
  REQUIRE(m.ok());
  CHECK(f.count("map_cell") == m->n_layers * m->n_steps());
  int decided = 0;
  for (int k = 0; k < m->n_steps(); ++k) decided += m->decided_at[k] >= 0;
  CHECK(f.count("map_decided") == decided);
  // A cell's "top" state is the lens rank, the last layer's the step's own rank.
  const int last = m->n_steps() - 1;
  const std::string label =
      "step " + std::to_string(m->first_step + last) + " L" + std::to_string(m->n_layers - 1);
  const DrawnItem* cell = find_drawn(f.ui, "map_cell", label);
  REQUIRE(cell != nullptr);
  CHECK((cell->state == "top") == (m->at(last, m->n_layers - 1).rank == 0));
  const DrawnItem* first = find_drawn(f.ui, "map_cell", "step 1 L2");
  REQUIRE(first != nullptr);
  f.click(*s, *first);
  const cmd::Seek* seek = f.cmd.find<cmd::Seek>();
  REQUIRE(seek != nullptr);
  CHECK(seek->step == 1);
  CHECK(f.ui.sel.selected_layer == 2);
}

TEST_CASE("script: rival PIECE|#ID and the panel's view words parse") {
  Result<std::vector<ScriptLine>> sc = parse_script("rival \" the\"\nrival #263\nview map\n");
  REQUIRE(sc.ok());
  REQUIRE(sc.value().size() == 3);
  CHECK(std::get<verb::Rival>(sc.value()[0].verb).piece == " the");
  CHECK(std::get<verb::Rival>(sc.value()[1].verb).piece == "#263");
  CHECK(std::holds_alternative<verb::View>(sc.value()[2].verb));
  CHECK_FALSE(parse_script("rival\n").ok());
}

}  // namespace ts
