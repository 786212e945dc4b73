// Headless tests of the Beam & speculative panel (panels/decoding_panel.cpp and its two views)
// on the shipped story model and draft: every node of the session's beam run is drawn once, with
// the best path, the finished and the pruned ones as the run says; every round's drafts are
// drawn with their tests; the Run buttons send the session's own commands; a new run turns the
// view to it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panels/panels.h"
#include "app/ui_state.h"
#include "harness.h"
#include "imgui.h"
#include "session/command.h"
#include "session/path_queries.h"
#include "session/side_runs.h"

namespace ts {

namespace {

struct DecodingFixture {
  test::ImGuiHarness h{1600, 900};
  UiState ui;
  Commands cmd;
  DecodingFixture() {
    ui.log.record = true;
    *ui.prefs.show_flag(PanelId::Decoding) = true;
    ui.frame.rects[static_cast<int>(PanelId::Decoding)] = PanelRect{0, 0, 1600, 900};
  }
  void draw(const Session& s) {
    for (int f = 0; f < 2; ++f) {
      ui.log.drawn.clear();
      h.frame([&] { draw_decoding_panel(s, ui.env(), ui.decoding, cmd); });
    }
  }
  int count(const std::string& kind, const std::string& label = "") const {
    int n = 0;
    for (const DrawnItem& d : ui.log.drawn)
      n += d.kind == kind && (label.empty() || d.label == label) && d.visible;
    return n;
  }
};

void apply(Session& s, const char* line) {
  Result<SessionCommand> c = parse_command(line);
  REQUIRE(c.ok());
  const Status st = apply_command(s, c.value());
  REQUIRE_MESSAGE(st.ok(), (st.ok() ? "" : st.error().message));
}

}  // namespace

TEST_CASE("decoding panel: the beam tree draws the session's run, node by node") {
  std::unique_ptr<Session> s = test::make_session(test::SessionState::Loaded);
  DecodingFixture f;
  f.draw(*s);
  CHECK(f.count("beam_node") == 0);  // nothing run yet: the button
  const DrawnItem* run = test::find_drawn(f.ui, "button", "run beam");
  REQUIRE(run != nullptr);
  f.h.click(run->rect.x + run->rect.w / 2, run->rect.y + run->rect.h / 2,
            [&] { draw_decoding_panel(*s, f.ui.env(), f.ui.decoding, f.cmd); });
  const cmd::Beam* sent = f.cmd.find<cmd::Beam>();
  REQUIRE(sent != nullptr);
  CHECK(sent->width == f.ui.decoding.beam_width);

  apply(*s, "beam 3 tokens 6");
  f.draw(*s);
  const BeamResult& b = s->side_runs().beam->result;
  int pruned = 0, finished = 0, on_best = 0;
  for (const BeamNode& n : b.nodes) pruned += n.fate == BeamFate::Pruned;
  for (int n = b.best; n >= 0; n = b.nodes[n].parent) ++on_best;
  for (const BeamNode& n : b.nodes)
    finished += (n.fate == BeamFate::Finished || n.fate == BeamFate::Budget);
  CHECK(f.count("beam_node") == static_cast<int>(b.nodes.size()));
  CHECK(f.count("beam_node", "best") == on_best);
  CHECK(on_best == static_cast<int>(b.best_tokens.size()));
  CHECK(f.count("beam_node", "pruned") == pruned);
  CHECK(f.count("beam_summary") == 1);
  // The best path's own finished node counts as best, the others as finished.
  CHECK(f.count("beam_node", "finished") == finished - 1);
}

TEST_CASE("decoding panel: a speculative run turns the view to its rounds") {
  std::unique_ptr<Session> s = test::make_session(test::SessionState::Loaded);
  DecodingFixture f;
  apply(*s, "sampler greedy");
  const std::string draft = (test::source_dir() / "models" / "tales-draft.gguf").string();
  apply(*s, ("speculate \"" + draft + "\" k 3 tokens 12").c_str());
  f.draw(*s);
  CHECK(f.ui.decoding.view == kDecodingSpeculative);
  const SpecResult& r = s->side_runs().spec->result;
  int accepted = 0, rejected = 0, untested = 0, bonus = 0;
  for (const SpecRound& rd : r.rounds) {
    for (const SpecDraft& d : rd.drafts) {
      accepted += d.accepted;
      rejected += d.tested && !d.accepted;
      untested += !d.tested;
    }
    bonus += rd.bonus;
  }
  CHECK(f.count("spec_draft", "accepted") == accepted);
  CHECK(f.count("spec_draft", "rejected") == rejected);
  CHECK(f.count("spec_draft", "untested") == untested);
  CHECK(f.count("spec_token") == static_cast<int>(r.rounds.size()));
  CHECK(f.count("spec_token", "bonus") == bonus);
  CHECK(f.count("spec_summary") == 1);
  // A beam run after it turns the view back.
  apply(*s, "beam 2 tokens 4");
  f.draw(*s);
  CHECK(f.ui.decoding.view == kDecodingBeam);
  CHECK(f.count("beam_node") > 0);
}

}  // namespace ts

namespace ts {

TEST_CASE(
    "compare panel: beam and speculative runs are rows beside the lanes, set against lane 0") {
  std::unique_ptr<Session> s = test::make_session(test::SessionState::Loaded);
  apply(*s, "sampler greedy");
  for (int i = 0; i < 9; ++i) REQUIRE(s->step().ok());  // the prefill and 8 tokens
  test::ImGuiHarness h{1600, 900};
  UiState ui;
  ui.log.record = true;
  *ui.prefs.show_flag(PanelId::Compare) = true;
  ui.frame.rects[static_cast<int>(PanelId::Compare)] = PanelRect{0, 0, 1600, 900};
  Commands cmd;
  auto draw = [&] {
    for (int f = 0; f < 2; ++f) {
      ui.log.drawn.clear();
      h.frame([&] { draw_compare_panel(*s, ui.env(), ui.compare, cmd); });
    }
  };
  auto rows_of = [&](const std::string& kind, const std::string& name) {
    int n = 0;
    for (const DrawnItem& d : ui.log.drawn) n += d.kind == kind && d.state == name && d.visible;
    return n;
  };
  draw();
  CHECK(rows_of("side_line", "beam 3") == 0);  // nothing run yet

  apply(*s, "beam 3 tokens 8");
  const std::string draft = (test::source_dir() / "models" / "tales-draft.gguf").string();
  apply(*s, ("speculate \"" + draft + "\" k 3 tokens 8").c_str());
  draw();
  const BeamRun& b = *s->side_runs().beam;
  CHECK(rows_of("side_line", "beam 3") >= 1);
  CHECK(rows_of("side_newest", "beam 3") == 1);
  CHECK(rows_of("side_line", "speculative") >= 1);
  // The beam's numbers are the run's: its sum and greedy's.
  char want[64];
  std::snprintf(want, sizeof want, "\xCE\xA3 log p %.2f (greedy %.2f)",
                b.result.nodes[b.result.best].sum_log_p, b.greedy.nodes[b.greedy.best].sum_log_p);
  bool named = false;
  for (const DrawnItem& d : ui.log.drawn)
    named |= d.kind == "side_info" && d.label.find(want) != std::string::npos;
  CHECK(named);
  // Lane 0 is greedy: where the beam's text leaves it, that token is outlined; speculative
  // greedy decoding is the target's greedy text, so nothing is outlined in its row.
  std::vector<int> lane0;
  for (const PathToken& t : path_tokens(*s, 0, true))
    if (!t.is_prompt) lane0.push_back(t.id);
  const std::vector<int>& bt = b.result.best_tokens;
  const bool differs =
      !std::equal(bt.begin(), bt.end(), lane0.begin(),
                  lane0.begin() + static_cast<std::ptrdiff_t>(std::min(bt.size(), lane0.size())));
  CHECK(rows_of("side_diverge", "beam 3") == (differs ? 1 : 0));
  CHECK(rows_of("side_diverge", "speculative") == 0);
  // A new prompt leaves the runs for the old one out of the panel.
  REQUIRE(s->set_prompt("A new prompt").ok());
  REQUIRE(s->step().ok());
  draw();
  CHECK(rows_of("side_line", "beam 3") == 0);
}

}  // namespace ts
