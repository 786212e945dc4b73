// Headless panel tests: every panel (and the whole switchboard) draws in every session state —
// empty, loaded, mid-generation, after a rewind, on a branch, while stepping into a step, with two
// lanes, stopped — for several frames with balanced Begin/End, in three themes and two window
// sizes, and shows what it should (recorded DrawnItems match the session).
#include <doctest/doctest.h>

#include "app/panels/panels.h"
#include "app/switchboard.h"
#include "app/view.h"
#include "harness.h"
#include "session/command.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts::test {
namespace {

using PanelFn = void (*)(const Session&, UiState&, Commands&);
struct NamedPanel {
  const char* name;
  PanelFn fn;
};
// Each panel with the state the switchboard gives it (its own part and the shared env).
const NamedPanel kPanels[] = {
    {"prompt", [](const Session& s, UiState& ui,
                  Commands& c) { draw_prompt_panel(s, ui.env(), ui.prompt, c); }},
    {"tokens", [](const Session& s, UiState& ui,
                  Commands& c) { draw_tokens_panel(s, ui.env(), ui.tokens, c); }},
    {"transport", [](const Session& s, UiState& ui,
                     Commands& c) { draw_transport_panel(s, ui.env(), ui.timeline, c); }},
    {"distribution", [](const Session& s, UiState& ui,
                        Commands& c) { draw_distribution_panel(s, ui.env(), ui.dist, c); }},
    {"status", [](const Session& s, UiState& ui,
                  Commands& c) { draw_status_panel(s, ui.env(), ui.trace_view, c); }},
    {"menu", draw_menu_bar},
    {"attention", [](const Session& s, UiState& ui,
                     Commands& c) { draw_attention_panel(s, ui.env(), ui.attention, c); }},
    {"kv_cache", [](const Session& s, UiState& ui,
                    Commands& c) { draw_kv_cache_panel(s, ui.env(), ui.kv, c); }},
    {"cost",
     [](const Session& s, UiState& ui, Commands& c) { draw_cost_panel(s, ui.env(), ui.cost, c); }},
    {"compare", [](const Session& s, UiState& ui,
                   Commands& c) { draw_compare_panel(s, ui.env(), ui.compare, c); }},
    {"branches",
     [](const Session& s, UiState& ui, Commands& c) { draw_branches_panel(s, ui.env(), c); }},
    {"model", [](const Session& s, UiState& ui, Commands& c) { draw_model_panel(s, ui.env(), c); }},
    {"poll", [](const Session& s, UiState& ui, Commands& c) { draw_poll_panel(s, ui.env(), ui.poll, c); }},
};

}  // namespace

TEST_CASE("app panels: every panel draws in every session state with balanced Begin/End") {
  for (SessionState state : kAllStates) {
    CAPTURE(state_name(state));
    std::unique_ptr<Session> s = make_session(state);
    ImGuiHarness h;
    for (const NamedPanel& p : kPanels) {
      CAPTURE(p.name);
      UiState ui = laid_out_ui();
      ui.status.no_model_hint = "no model in this test";
      Commands cmd;
      for (int f = 0; f < 3; ++f) h.frame([&] { p.fn(*s, ui, cmd); });
      CHECK(cmd.empty());  // drawing alone (no input) asks for nothing
    }
  }
}

TEST_CASE("app panels: the whole switchboard in every state, theme and window size") {
  const ThemeKind themes[] = {ThemeKind::Light, ThemeKind::Dark, ThemeKind::Projector};
  const ImVec2 sizes[] = {ImVec2(1600, 900), ImVec2(800, 600)};
  for (SessionState state : kAllStates) {
    CAPTURE(state_name(state));
    std::unique_ptr<Session> s = make_session(state);
    for (ThemeKind t : themes) {
      for (ImVec2 size : sizes) {
        ImGuiHarness h(size.x, size.y);
        apply_theme(t, 16.0f);
        UiState ui = laid_out_ui(size.x, size.y);
        ui.prefs.theme = t;
        Commands cmd;
        for (int f = 0; f < 2; ++f) h.frame([&] { draw_switchboard(*s, nullptr, ui, cmd); });
        CHECK(cmd.empty());
      }
    }
  }
}

TEST_CASE("app panels: a hidden panel draws nothing and a closed one stays closed") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.prefs.show[static_cast<int>(PanelId::Distribution)] = false;
  ui.log.record = true;
  Commands cmd;
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  CHECK(ui.log.drawn.empty());
  CHECK(ImGui::FindWindowByName(panel_title(PanelId::Distribution)) == nullptr);
}

TEST_CASE("app panels: the tokens panel shows prompt and generated chips as the session has them") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  Commands cmd;
  h.frame([&] { draw_tokens_panel(*s, ui.env(), ui.tokens, cmd); });
  int prompt = 0, generated = 0;
  for (const DrawnItem& d : ui.log.drawn) {
    if (d.kind == "prompt_chip") ++prompt;
    if (d.kind == "generated_chip") ++generated;
  }
  CHECK(prompt == static_cast<int>(prompt_tokens(*s).size()));
  CHECK(generated == s->cursor() + 1);  // one token per step, prefill included
  // Chips carry the tokenizer's visible pieces (spaces as ␣).
  const std::vector<PathToken> toks = path_tokens(*s, 0, true);
  const DrawnItem* last = nullptr;
  for (const DrawnItem& d : ui.log.drawn)
    if (d.kind == "generated_chip") last = &d;
  REQUIRE(last != nullptr);
  CHECK(last->label == s->tokenizer().display_piece(toks.back().id));
}

TEST_CASE("app panels: after a rewind, recorded tokens past the cursor are drawn faded") {
  std::unique_ptr<Session> s = make_session(SessionState::Rewound);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  Commands cmd;
  h.frame([&] { draw_tokens_panel(*s, ui.env(), ui.tokens, cmd); });
  int future = 0;
  for (const DrawnItem& d : ui.log.drawn) future += d.kind == "future_chip";
  CHECK(future == 3);
}

TEST_CASE("app panels: on a branch the forced token is drawn as a forced chip") {
  std::unique_ptr<Session> s = make_session(SessionState::Branch);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  Commands cmd;
  h.frame([&] { draw_tokens_panel(*s, ui.env(), ui.tokens, cmd); });
  const DrawnItem* forced = find_drawn(ui, "forced_chip");
  REQUIRE(forced != nullptr);
  const Step* st = step_at(*s, 0, 4);
  REQUIRE(st != nullptr);
  CHECK(st->forced);
  CHECK(forced->label == s->tokenizer().display_piece(st->token));
}

TEST_CASE("app panels: the distribution shows the chosen token, the cut line and the draw u") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  Commands cmd;
  const Step* st = current_step(*s, 0);
  REQUIRE(st != nullptr);
  SUBCASE("final distribution") {
    h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
    const DrawnItem* chosen = find_bar(ui, "chosen");
    if (st->chosen_rank < ui.dist.top_n) {
      REQUIRE(chosen != nullptr);
      CHECK(chosen->label == s->tokenizer().display_piece(st->token));
    }
    const DrawnItem* strip = find_drawn(ui, "strip_chosen");
    REQUIRE(strip != nullptr);
    const DrawnItem* needle = find_drawn(ui, "u_needle");
    REQUIRE(needle != nullptr);
    // The needle sits inside the chosen segment: u in [cum_lo, cum_hi).
    CHECK(needle->rect.x + 1 >= strip->rect.x - 1);
    CHECK(needle->rect.x + 1 <= strip->rect.x + strip->rect.w + 1);
    CHECK(find_bar(ui, "cut") == nullptr);  // the final view has no cut tokens
  }
  SUBCASE("after top-k: tokens beyond k are greyed") {
    // Find the top-k stage in the chain and show it.
    int k_index = -1;
    for (int i = 0; i < static_cast<int>(st->sampling.stages.size()); ++i)
      if (st->sampling.stages[i].kind == StageKind::TopK) k_index = i;
    REQUIRE(k_index >= 0);
    ui.dist.stage = DistStage::Stage;
    ui.dist.stage_index = k_index;
    ui.dist.top_n = 64;
    const StageRecord& sr = st->sampling.stages[k_index];
    int cut_recorded = 0;
    for (const Candidate& c : sr.top) cut_recorded += !c.kept;
    h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
    int cut_drawn = 0;
    for (const DrawnItem& d : ui.log.drawn) cut_drawn += (d.kind == "bar" && d.state == "cut");
    CHECK(cut_drawn > 0);
    CHECK(cut_drawn <= cut_recorded);
  }
}

TEST_CASE("app panels: predict-then-reveal hides the outcome until revealed") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.sel.predict_then_reveal = true;
  ui.log.record = true;
  Commands cmd;
  h.frame([&] {
    draw_distribution_panel(*s, ui.env(), ui.dist, cmd);
    draw_tokens_panel(*s, ui.env(), ui.tokens, cmd);
  });
  CHECK(find_bar(ui, "chosen") == nullptr);
  CHECK(find_drawn(ui, "bar") == nullptr);
  const DrawnItem* newest = nullptr;
  for (const DrawnItem& d : ui.log.drawn)
    if (d.kind == "generated_chip") newest = &d;
  REQUIRE(newest != nullptr);
  CHECK(newest->label == "?");
  ui.sel.revealed_node = shown_node(*s, ui.sel);
  ui.log.drawn.clear();
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  CHECK(find_drawn(ui, "bar") != nullptr);
}

TEST_CASE("app panels: stepping into shows the phases and only the revealed distribution") {
  std::unique_ptr<Session> s = make_session(SessionState::SteppingInto);
  REQUIRE(stepping_into(*s));
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  Commands cmd;
  h.frame([&] {
    draw_transport_panel(*s, ui.env(), ui.timeline, cmd);
    draw_distribution_panel(*s, ui.env(), ui.dist, cmd);
    draw_tokens_panel(*s, ui.env(), ui.tokens, cmd);
  });
  // The token of the iteration being stepped into is not appended yet.
  int generated = 0;
  for (const DrawnItem& d : ui.log.drawn) generated += d.kind == "generated_chip";
  CHECK(generated == s->cursor());
  const DrawnItem* phase = find_drawn(ui, "phase_current");
  REQUIRE(phase != nullptr);
  // 5 phases in: embed + a few blocks; the logits are not computed yet in the lesson's order.
  CHECK_FALSE(phase_revealed(*s, PhaseKind::Logits));
  CHECK(find_drawn(ui, "bar") == nullptr);
  CHECK(find_bar(ui, "chosen") == nullptr);
}

}  // namespace ts::test

namespace ts::test {

TEST_CASE("app panels: selecting a prompt position shows the prefill's unused prediction there") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  ui.sel.selected_position = 1;
  Commands cmd;
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  const Step* prefill = step_at(*s, 0, 0);
  REQUIRE(prefill != nullptr);
  const std::vector<TokenScore>& top = prefill->forward->position_top[1];
  REQUIRE_FALSE(top.empty());
  // One bar per recorded candidate, most probable first; the prompt's real next token marked.
  int bars = 0;
  for (const DrawnItem& d : ui.log.drawn) bars += d.kind == "bar" && d.state != "cut";
  CHECK(bars == static_cast<int>(top.size()));
  const int actual = prompt_tokens(*s)[2];
  const DrawnItem* marked = find_bar(ui, "chosen");
  bool in_top = false;
  for (const TokenScore& t : top) in_top |= t.id == actual;
  if (in_top) {
    REQUIRE(marked != nullptr);
    CHECK(marked->label == s->tokenizer().display_piece(actual));
  } else {
    CHECK(marked == nullptr);
  }
  CHECK(find_drawn(ui, "strip_chosen") == nullptr);  // no draw happened at this position
  // Clicking such a bar does not force anything: the prompt is given.
  const DrawnItem* bar = find_drawn(ui, "bar");
  if (!bar) bar = marked;
  REQUIRE(bar != nullptr);
  const DrawnItem b = *bar;
  h.click(b.rect.x + 2, b.rect.y + b.rect.h / 2,
          [&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  CHECK(cmd.empty());
  // The last prompt position and generated positions show the normal view.
  ui.sel.selected_position = static_cast<int>(prompt_tokens(*s).size()) - 1;
  ui.log.drawn.clear();
  h.frame([&] { draw_distribution_panel(*s, ui.env(), ui.dist, cmd); });
  CHECK(find_drawn(ui, "strip_chosen") != nullptr);
}

TEST_CASE(
    "app panels: a chat model offers Send as a chat message; its prompt's markers are framed") {
  ImGuiHarness h;
  for (const char* model : {"tales-4m.gguf", "tales-chat-4m.gguf"}) {
    CAPTURE(model);
    const bool chat = std::string(model) == "tales-chat-4m.gguf";
    Session s;
    REQUIRE(s.load_model(std::string(TS_SOURCE_DIR) + "/models/" + model).ok());
    UiState ui = laid_out_ui();
    ui.log.record = true;
    ui.prompt.prompt_edit = "Tell me a story about a fox.";
    Commands cmd;
    h.frame([&] { draw_prompt_panel(s, ui.env(), ui.prompt, cmd); });
    CHECK((find_drawn(ui, "chat_button") != nullptr) == chat);
    if (!chat) continue;
    REQUIRE(apply_command(s, cmd::Chat{ui.prompt.prompt_edit, ""}).ok());
    ui.log.drawn.clear();
    h.frame([&] { draw_tokens_panel(s, ui.env(), ui.tokens, cmd); });
    int framed = 0;
    for (const DrawnItem& d : ui.log.drawn) framed += d.kind == "special_chip";
    CHECK(framed == 4);  // BOS, <|im_start|> user, <|im_end|>, <|im_start|> assistant
  }
}

}  // namespace ts::test
