// Headless tests of the Beam & speculative panel (panels/decoding_panel.cpp and its two views)
// on the shipped story model and draft: every node of the session's beam run is drawn once, with
// the best path, the finished and the pruned ones as the run says; every round's drafts are
// drawn with their tests; the Run buttons send the session's own commands; a new run turns the
// view to it.
#include <doctest/doctest.h>

#include <string>

#include "app/panels/panels.h"
#include "app/ui_state.h"
#include "harness.h"
#include "imgui.h"
#include "session/command.h"
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
