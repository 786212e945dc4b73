// Simulated input on the panels (1.86 API: io.MousePos, io.MouseDown[0], io.KeysDown): transport
// buttons, the timeline scrubber, a probability bar (force), a token chip (selection), the phase
// strip, and the keyboard shortcuts each produce exactly the expected command or UI change.
#include <doctest/doctest.h>

#include "app/panels/panels.h"
#include "app/switchboard.h"
#include "harness.h"
#include "session/path_queries.h"
#include "session/phase_walk.h"

namespace ts::test {
namespace {

ImVec2 centre(const DrawnItem& d) {
  return ImVec2(d.rect.x + d.rect.w * 0.5f, d.rect.y + d.rect.h * 0.5f);
}

// Draws `panel` once with recording on and returns the drawn item (kind, label).
template <class F>
DrawnItem locate(ImGuiHarness& h, UiState& ui, F panel, const char* kind, const char* label = "") {
  ui.log.record = true;
  ui.log.drawn.clear();
  Commands scratch;
  h.frame([&] { panel(scratch); });
  const DrawnItem* d = find_drawn(ui, kind, label);
  REQUIRE_MESSAGE(d != nullptr, "nothing drawn of kind " << kind << " " << label);
  return *d;
}

}  // namespace

TEST_CASE("app clicks: transport buttons emit their commands") {
  std::unique_ptr<Session> s = make_session(SessionState::Rewound);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  auto panel = [&](Commands& c) { draw_transport_panel(*s, ui.env(), ui.timeline, c); };
  struct Case {
    const char* button;
    int expect_index;  // Command variant index
  };
  const Case cases[] = {
      {"step", static_cast<int>(Command(cmd::Step{}).index())},
      {"back", static_cast<int>(Command(cmd::Back{}).index())},
      {"first", static_cast<int>(Command(cmd::First{}).index())},
      {"last", static_cast<int>(Command(cmd::Last{}).index())},
      {"play", static_cast<int>(Command(cmd::Play{}).index())},
      {"into", static_cast<int>(Command(cmd::StepInto{}).index())},
  };
  for (const Case& c : cases) {
    CAPTURE(c.button);
    const DrawnItem b = locate(h, ui, panel, "button", c.button);
    Commands cmd;
    const ImVec2 p = centre(b);
    h.click(p.x, p.y, [&] { panel(cmd); });
    REQUIRE(cmd.size() == 1);
    CHECK(static_cast<int>(cmd.queue[0].index()) == c.expect_index);
  }
}

TEST_CASE("app clicks: a disabled transport button emits nothing") {
  std::unique_ptr<Session> s = make_session(SessionState::Loaded);  // cursor -1: no back/first
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  auto panel = [&](Commands& c) { draw_transport_panel(*s, ui.env(), ui.timeline, c); };
  const DrawnItem b = locate(h, ui, panel, "button", "back");
  Commands cmd;
  h.click(centre(b).x, centre(b).y, [&] { panel(cmd); });
  CHECK(cmd.empty());
}

TEST_CASE("app clicks: clicking a scrubber cell seeks to that step") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  auto panel = [&](Commands& c) { draw_transport_panel(*s, ui.env(), ui.timeline, c); };
  const DrawnItem cell = locate(h, ui, panel, "scrub_cell", "2");
  Commands cmd;
  h.click(centre(cell).x, centre(cell).y, [&] { panel(cmd); });
  const cmd::Seek* seek = cmd.find<cmd::Seek>();
  REQUIRE(seek != nullptr);
  CHECK(seek->step == 2);
  // The prefill cell (step 0) is wider than a decode cell.
  const DrawnItem prefill = locate(h, ui, panel, "scrub_cell", "0");
  CHECK(prefill.rect.w > cell.rect.w * 2.0f);
}

TEST_CASE("app clicks: clicking a probability bar forces that token on the shown lane") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  auto panel = [&](Commands& c) { draw_distribution_panel(*s, ui.env(), ui.dist, c); };
  const Step* st = current_step(*s, 0);
  REQUIRE(st != nullptr);
  // The second most probable token of the final distribution.
  REQUIRE(st->sampling.final_dist.size() >= 2);
  const int target = st->sampling.final_dist[1].id;
  const std::string label = s->tokenizer().display_piece(target);
  ui.log.record = true;
  Commands scratch;
  h.frame([&] { panel(scratch); });
  const DrawnItem* bar = nullptr;
  for (const DrawnItem& d : ui.log.drawn)
    if (d.kind == "bar" && d.state != "cut" && d.label == label) bar = &d;
  REQUIRE(bar != nullptr);
  Commands cmd;
  h.click(bar->rect.x + 2, bar->rect.y + bar->rect.h * 0.5f, [&] { panel(cmd); });
  const cmd::Force* f = cmd.find<cmd::Force>();
  REQUIRE(f != nullptr);
  CHECK(f->token_id == target);
  CHECK(f->lane == 0);
  CHECK(cmd.size() == 1);
}

TEST_CASE("app clicks: clicking a token chip selects its position, clicking again clears it") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  auto panel = [&](Commands& c) { draw_tokens_panel(*s, ui.env(), ui.tokens, c); };
  const DrawnItem chip = locate(h, ui, panel, "prompt_chip");
  Commands cmd;
  h.click(centre(chip).x, centre(chip).y, [&] { panel(cmd); });
  CHECK(ui.sel.selected_position == 0);
  CHECK(cmd.empty());
  h.click(centre(chip).x, centre(chip).y, [&] { panel(cmd); });
  CHECK(ui.sel.selected_position == -1);
}

TEST_CASE("app clicks: clicking a phase of the step shows that phase") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.timeline.phases = true;  // the strip is shown (it is collapsed unless stepping into)
  auto panel = [&](Commands& c) { draw_transport_panel(*s, ui.env(), ui.timeline, c); };
  const DrawnItem cur = locate(h, ui, panel, "phase_current");
  // The whole step is revealed: the current phase is the last one (the append).
  CHECK(cur.label == std::to_string(phases(*s, 0).size() - 1));
  const DrawnItem first = locate(h, ui, panel, "phase", "0");
  Commands cmd;
  h.click(centre(first).x, centre(first).y, [&] { panel(cmd); });
  const cmd::SetPhase* p = cmd.find<cmd::SetPhase>();
  REQUIRE(p != nullptr);
  CHECK(p->phase == 0);
}

TEST_CASE("app keys: Space, arrows, Shift+Right, Home and End") {
  std::unique_ptr<Session> s = make_session(SessionState::Rewound);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  struct Case {
    int key;
    bool shift;
    size_t expect_index;
  };
  const Case cases[] = {
      {262, false, Command(cmd::Step{}).index()},  {262, true, Command(cmd::StepInto{}).index()},
      {263, false, Command(cmd::Back{}).index()},  {32, false, Command(cmd::TogglePlay{}).index()},
      {268, false, Command(cmd::First{}).index()}, {269, false, Command(cmd::Last{}).index()}};
  for (const Case& c : cases) {
    CAPTURE(c.key);
    CAPTURE(c.shift);
    Commands cmd;
    h.press_key(c.key, c.shift, [&] { handle_shortcuts(*s, nullptr, ui, cmd); });
    REQUIRE(cmd.size() == 1);
    CHECK(cmd.queue[0].index() == c.expect_index);
  }
}

TEST_CASE("app keys: Ctrl+= and Ctrl+- change the font size and ask for an atlas rebuild") {
  std::unique_ptr<Session> s = make_session(SessionState::Empty);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.prefs.font_size = 20;
  Commands cmd;
  ImGui::GetIO().KeyCtrl = true;
  h.press_key(61, false, [&] { handle_shortcuts(*s, nullptr, ui, cmd); });
  CHECK(ui.prefs.font_size == 22);
  CHECK(ui.status.want_font_rebuild);
  h.press_key(45, false, [&] { handle_shortcuts(*s, nullptr, ui, cmd); });
  h.press_key(45, false, [&] { handle_shortcuts(*s, nullptr, ui, cmd); });
  CHECK(ui.prefs.font_size == 18);
  ImGui::GetIO().KeyCtrl = false;
  CHECK(cmd.empty());
}

}  // namespace ts::test
