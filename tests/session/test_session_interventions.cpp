// Interventions as branches: ablate forks a sibling whose pass runs with heads, blocks or MLPs
// switched off or scaled, generation continues there (with it, from here on, or without it
// after the one step), the branch's logits equal reference_forward with the same components
// changed, and rewind, branch switches, recomputation, force, lanes and the text form treat
// these branches like any other. The comparison with the step it replaced: KL and where the
// texts part.
#include <doctest/doctest.h>

#include "session/check.h"
#include "session/command.h"
#include "session/intervention_compare.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/tiny_model.h"

using namespace ts;
using namespace ts::test;

namespace {

Ablation iv_ablation(const char* text, bool from = true) {
  Result<InterventionSet> s = parse_interventions(text);
  REQUIRE(s.ok());
  return Ablation{s.value(), from};
}

Session iv_session(float t = 1.0f) {
  Session s;
  REQUIRE(s.set_model(tiny_model(64, 5)).ok());
  REQUIRE(s.set_prompt("lol the").ok());
  SamplerSettings set;
  set.label = "lane";
  stage<Temperature>(set).t = t;
  set.seed = 7;
  REQUIRE(s.set_sampler(0, set).ok());
  return s;
}

// The logits each step of lane 0's path recorded, against reference_forward over the whole
// sequence with `set` applied at positions [first, end): within 1e-5 of the logits' scale.
void check_against_reference(const Session& s, const InterventionSet& set, int first, int end) {
  const std::vector<int> seq = sequence(s, 0, false);
  const Mat ref = reference_forward(model(s), seq, set, first, end);  // (n, vocab_size)
  REQUIRE(ref.rows() == static_cast<Eigen::Index>(seq.size()));
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  for (int k = 0; k < path_length(s, 0); ++k) {
    CAPTURE(k);
    const std::vector<float>& got = step_at(s, 0, k)->forward->logits;
    const Eigen::Index row = n_prompt - 1 + k;  // the position step k predicts from
    const double scale = std::max(1.0, static_cast<double>(ref.row(row).cwiseAbs().maxCoeff()));
    double worst = 0;
    for (int i = 0; i < ref.cols(); ++i) {
      worst = std::max(worst, std::abs(static_cast<double>(got[i]) - ref(row, i)));
    }
    CHECK(worst < 1e-5 * scale);
  }
}

}  // namespace

TEST_CASE("ablate forks a branch from the cursor; later steps inherit it (from here on)") {
  Session s = iv_session();
  REQUIRE(s.run_to(9).ok());
  const std::vector<int> plain = path_ids(s, 0);
  const int plain_leaf = timeline(s, 0).path().back();
  REQUIRE(s.seek(3).ok());
  const int replaced = timeline(s, 0).path()[3];
  REQUIRE(s.ablate(iv_ablation("L0.H0,L1.mlp")).ok());
  CHECK(s.cursor() == 3);
  const int fork = timeline(s, 0).path()[3];
  CHECK(fork != replaced);
  CHECK(timeline(s, 0).node(fork).parent == timeline(s, 0).node(replaced).parent);
  CHECK(is_intervention_fork(timeline(s, 0), fork));
  CHECK_FALSE(is_intervention_fork(timeline(s, 0), replaced));
  CHECK(path_length(s, 0) == 4);  // the old continuation stays in the tree, off the path
  check_kv_invariant(s, 0);
  REQUIRE(s.run_to(9).ok());
  for (int k = 0; k < 10; ++k) {
    CHECK(step_at(s, 0, k)->ablation.empty() == (k < 3));
  }
  CHECK_FALSE(is_intervention_fork(timeline(s, 0), timeline(s, 0).path()[5]));  // inherited
  check_kv_invariant(s, 0);
  const InterventionSet set = iv_ablation("L0.H0,L1.mlp").set;
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  check_against_reference(s, set, n_prompt - 1 + 3, 1 << 30);
  // The old branch comes back exactly, and so does the new one.
  const std::vector<int> ablated = path_ids(s, 0);
  CHECK(ablated != plain);
  REQUIRE(s.switch_branch(plain_leaf).ok());
  CHECK(path_ids(s, 0) == plain);
  check_kv_invariant(s, 0);
  check_against_reference(s, {}, 0, 0);
  REQUIRE(s.switch_branch(timeline(s, 0).branches().back().leaf).ok());
  CHECK(path_ids(s, 0) == ablated);
  check_kv_invariant(s, 0);
  // Ablating again with the same set at the same step goes to that branch, not a new one.
  const int nodes = timeline(s, 0).size();
  REQUIRE(s.switch_branch(plain_leaf).ok());
  REQUIRE(s.seek(3).ok());
  REQUIRE(s.ablate(iv_ablation("L0.H0,L1.mlp")).ok());
  CHECK(timeline(s, 0).size() == nodes);
  CHECK(timeline(s, 0).path()[3] == fork);
}

TEST_CASE("ablate at one step only; at the prefill; scaled; none ends an inherited one") {
  Session s = iv_session();
  REQUIRE(s.run_to(7).ok());
  REQUIRE(s.seek(2).ok());
  REQUIRE(s.ablate(iv_ablation("L1.attn", false)).ok());
  REQUIRE(s.run_to(7).ok());
  for (int k = 0; k < 8; ++k) CHECK(step_at(s, 0, k)->ablation.empty() == (k != 2));
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  // Only the pass of step 2 ran with it; its K/V row carries it into the later steps.
  check_against_reference(s, iv_ablation("L1.attn").set, n_prompt + 1, n_prompt + 2);

  Session p = iv_session();
  REQUIRE(p.run_to(0).ok());
  REQUIRE(p.ablate(iv_ablation("L0.H1=0.5,L0.mlp=2")).ok());
  REQUIRE(p.run_to(6).ok());
  check_against_reference(p, iv_ablation("L0.H1=0.5,L0.mlp=2").set, 0, 1 << 30);
  check_kv_invariant(p, 0);
  // "none" at step 4: the pass there and after run without it.
  REQUIRE(p.seek(4).ok());
  REQUIRE(p.ablate(Ablation{}).ok());
  REQUIRE(p.run_to(6).ok());
  for (int k = 0; k < 7; ++k) CHECK(step_at(p, 0, k)->ablation.empty() == (k >= 4));
  check_against_reference(p, iv_ablation("L0.H1=0.5,L0.mlp=2").set, 0, n_prompt + 3);
}

TEST_CASE("a recomputation, a forced token and a sampler branch keep the intervention") {
  Session s = iv_session();
  REQUIRE(s.run_to(4).ok());
  REQUIRE(s.seek(1).ok());
  REQUIRE(s.ablate(iv_ablation("L0.H1")).ok());
  REQUIRE(s.run_to(6).ok());
  const std::vector<int> ids = path_ids(s, 0);
  // A settings change recomputes the path: the same interventions, the same tokens.
  GenerationSettings g = s.generation();
  g.record_level = RecordLevel::Summary;
  REQUIRE(s.set_generation(g).ok());
  CHECK(path_ids(s, 0) == ids);
  for (int k = 0; k < 7; ++k) CHECK(step_at(s, 0, k)->ablation.empty() == (k < 1));
  check_kv_invariant(s, 0);
  // Forcing on the branch: the pass (and its intervention) stays.
  REQUIRE(s.seek(3).ok());
  const int other = step_at(s, 0, 3)->token == 280 ? 281 : 280;
  REQUIRE(s.force(other).ok());
  CHECK(step_at(s, 0, 3)->forced);
  CHECK(step_at(s, 0, 3)->ablation == iv_ablation("L0.H1"));
  REQUIRE(s.run_to(6).ok());
  CHECK(step_at(s, 0, 5)->ablation == iv_ablation("L0.H1"));
  check_kv_invariant(s, 0);
  // Forcing the old token back goes to the ablated sibling that had it, not the plain step.
  REQUIRE(s.seek(3).ok());
  REQUIRE(s.force(ids[3]).ok());
  CHECK(path_ids(s, 0) == ids);
  CHECK(step_at(s, 0, 3)->ablation == iv_ablation("L0.H1"));
  // A sampler changed mid-run chooses again from the same intervened pass.
  SamplerSettings greedy = settings(s, 0);
  stage<Temperature>(greedy).t = 0.0f;
  REQUIRE(s.branch_sampler(0, greedy).ok());
  CHECK(step_at(s, 0, 3)->ablation == iv_ablation("L0.H1"));
  check_kv_invariant(s, 0);
}

TEST_CASE("lanes: an intervened prefill is not shared with the other lanes") {
  Session s = iv_session(0.0f);
  REQUIRE(s.run_to(0).ok());
  REQUIRE(s.ablate(iv_ablation("L0.attn,L1.attn")).ok());
  SamplerSettings other = settings(s, 0);
  other.label = "second";
  Result<int> lane = s.add_lane(other);
  REQUIRE(lane.ok());
  const Step* a = step_at(s, 0, 0);
  const Step* b = step_at(s, 1, 0);
  CHECK_FALSE(a->ablation.empty());
  CHECK(b->ablation.empty());
  CHECK(a->forward != b->forward);
  CHECK_FALSE(same_bits(a->forward->logits, b->forward->logits));
  REQUIRE(s.run_to(5).ok());
  check_kv_invariant(s, 0);
  check_kv_invariant(s, 1);
  // Ablating lane 1 the same way at the prefill gives it lane 0's tokens.
  REQUIRE(s.seek(0).ok());
  REQUIRE(s.ablate(iv_ablation("L0.attn,L1.attn"), 1).ok());
  REQUIRE(s.run_to(5).ok());
  CHECK(path_ids(s, 1) == path_ids(s, 0));
}

TEST_CASE("ablate refuses what it cannot do, one line, the session unchanged") {
  Session s = iv_session();
  CHECK_FALSE(s.ablate(iv_ablation("L0.H0")).ok());  // before the prefill
  REQUIRE(s.run_to(3).ok());
  const std::vector<int> ids = path_ids(s, 0);
  const int nodes = timeline(s, 0).size();
  const Status bad = s.ablate(iv_ablation("L2.mlp"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "ablate: L2.mlp: the model has 2 layers (L0..L1)");
  const Status head = s.ablate(iv_ablation("L0.H2"));  // 2 heads
  REQUIRE_FALSE(head.ok());
  CHECK(head.error().message.find('\n') == std::string::npos);
  CHECK_FALSE(s.ablate(iv_ablation("L0.H0"), 3).ok());  // no lane 3
  CHECK(path_ids(s, 0) == ids);
  CHECK(timeline(s, 0).size() == nodes);
  check_kv_invariant(s, 0);
}

TEST_CASE("the intervention beside the step it replaced: KL and where the texts part") {
  Session s = iv_session(1.0f);
  REQUIRE(s.run_to(12).ok());
  REQUIRE(s.seek(2).ok());
  const int plain_node = timeline(s, 0).path()[2];
  REQUIRE(s.ablate(iv_ablation("L0.attn,L1.mlp")).ok());
  REQUIRE(s.run_to(12).ok());
  const int fork = timeline(s, 0).path()[2];
  Result<InterventionComparison> c = compare_intervention(s, 0, fork);
  REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
  CHECK(c->fork_step == 2);
  CHECK(c->parent_node == plain_node);
  CHECK(c->branch_node == fork);
  CHECK(c->kl_bits > 0.0);
  REQUIRE(c->parent_p.size() == static_cast<size_t>(config(s).vocab_size));
  // KL by hand from the two distributions.
  double kl = 0;
  for (size_t i = 0; i < c->parent_p.size(); ++i) {
    if (c->parent_p[i] > 0) kl += c->parent_p[i] * std::log2(c->parent_p[i] / c->branch_p[i]);
  }
  CHECK(c->kl_bits == doctest::Approx(kl).epsilon(1e-4));
  // Where the texts part: the first step whose tokens differ.
  int part = -1;
  for (size_t k = 0; k < std::min(c->parent_tokens.size(), c->branch_tokens.size()); ++k) {
    if (c->parent_tokens[k] != c->branch_tokens[k]) {
      part = 2 + static_cast<int>(k);
      break;
    }
  }
  CHECK(c->texts_part == part);
  CHECK(c->texts_part >= 2);  // this intervention changes the greedy text
  const std::vector<int> ids = path_ids(s, 0);
  CHECK(c->branch_tokens == std::vector<int>(ids.begin() + 2, ids.end()));
  CHECK(c->parent_tokens.size() == 11);  // steps 2..12 of the plain run
  // A factor of 1 changes nothing: KL 0, the texts never part.
  REQUIRE(s.seek(2).ok());
  REQUIRE(s.ablate(iv_ablation("L0.H0=1")).ok());
  REQUIRE(s.run_to(12).ok());
  Result<InterventionComparison> same = compare_intervention(s, 0, timeline(s, 0).path()[2]);
  REQUIRE(same.ok());
  CHECK(same->kl_bits == 0.0);
  CHECK(same->texts_part == -1);
  CHECK_FALSE(compare_intervention(s, 0, plain_node).ok());  // not an intervention fork
  CHECK_FALSE(compare_intervention(s, 0, 9999).ok());
}

TEST_CASE("the text form: ablate SET [from|at] [lane N], ablate none") {
  const auto parse = [](const char* line) {
    Result<SessionCommand> c = parse_command(line);
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    const cmd::Ablate* a = std::get_if<cmd::Ablate>(&c.value());
    REQUIRE(a != nullptr);
    return *a;
  };
  cmd::Ablate a = parse("ablate L0.H3,L1.mlp=0.5");
  CHECK(a.ablation == iv_ablation("L0.H3,L1.mlp=0.5", true));
  CHECK(a.lane == 0);
  a = parse("ablate L1.attn at lane 2");
  CHECK(a.ablation == iv_ablation("L1.attn", false));
  CHECK(a.lane == 2);
  a = parse("ablate L0.H0 from");
  CHECK(a.ablation.from_here_on);
  a = parse("ablate L0.H3, L1.mlp=0.5 at");  // spaces after the commas
  CHECK(a.ablation == iv_ablation("L0.H3,L1.mlp=0.5", false));
  CHECK(parse("ablate none").ablation.empty());
  CHECK(is_command_verb("ablate"));
  CHECK(std::string(command_name(SessionCommand{cmd::Ablate{}})) == "ablate");
  for (const char* bad :
       {"ablate", "ablate L0.X1", "ablate L0.H0 sometimes", "ablate L0.H0 lane x",
        "ablate L0.H0,L0.H0", "ablate at", "ablate L0.H0 at from", "ablate L0.H0 from at"}) {
    CAPTURE(bad);
    Result<SessionCommand> c = parse_command(bad);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().message.rfind("ablate: ", 0) == 0);
  }
  // Applied: the same branch as the call.
  Session s = iv_session();
  REQUIRE(apply_command(s, parse_command("run-to 4").value()).ok());
  REQUIRE(apply_command(s, parse_command("seek 2").value()).ok());
  REQUIRE(apply_command(s, parse_command("ablate L0.H1 at").value()).ok());
  CHECK(step_at(s, 0, 2)->ablation == iv_ablation("L0.H1", false));
  CHECK_FALSE(apply_command(s, parse_command("ablate L5.mlp").value()).ok());
}
