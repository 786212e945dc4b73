// Traces of intervention branches and receipts: the intervention is written on its branch's
// steps (only there), read back and replayed exactly; receipts, when asked for, round-trip
// field by field; a trace written without either (an older trace) still reads.
#include <doctest/doctest.h>

#include <regex>

#include "session/check.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/tiny_model.h"
#include "trace/trace_json.h"
#include "trace/trace_replay.h"

using namespace ts;
using namespace ts::test;

namespace {

Session tr_ablated_session() {
  Session a;
  REQUIRE(a.set_model(tiny_model(64, 4)).ok());
  REQUIRE(a.set_prompt("the cat").ok());
  SamplerSettings t;
  t.label = "T=0.9";
  stage<Temperature>(t).t = 0.9f;
  stage<TopK>(t).k = 20;
  t.seed = 77;
  REQUIRE(a.set_sampler(0, t).ok());
  SamplerSettings g;
  g.label = "greedy";
  stage<Temperature>(g).t = 0.0f;
  REQUIRE(a.add_lane(g).ok());
  REQUIRE(a.run_to(2).ok());
  // Lane 0: L0.H1 off from step 2 on, then at step 5 back to no intervention.
  REQUIRE(a.ablate(Ablation{parse_interventions("L0.H1").value(), true}, 0).ok());
  REQUIRE(a.run_to(5).ok());
  REQUIRE(a.ablate(Ablation{}, 0).ok());
  // Lane 1: its MLP scaled at step 3 only, and a forced token at step 4.
  REQUIRE(a.seek(3).ok());
  REQUIRE(a.ablate(Ablation{parse_interventions("L1.mlp=0.123456789").value(), false}, 1).ok());
  REQUIRE(a.step().ok());
  REQUIRE(a.force(current_step(a, 1)->sampling.raw[2].id, 1).ok());
  REQUIRE(a.run_to(8).ok());
  REQUIRE(a.seek(6).ok());
  return a;
}

}  // namespace

TEST_CASE("trace: interventions are written on their branches and replayed exactly") {
  const Session a = tr_ablated_session();
  const Trace t = make_trace(a);
  for (int lane = 0; lane < 2; ++lane) {
    for (const TraceStep& st : t.lanes[lane].steps) {
      CAPTURE(lane);
      CAPTURE(st.index);
      CHECK(st.has_intervention == !st.ablation.empty());
      CHECK(st.ablation == step_at(a, lane, st.index)->ablation);
    }
  }
  CHECK(t.lanes[0].steps[3].has_intervention);
  CHECK_FALSE(t.lanes[0].steps[5].has_intervention);
  CHECK(t.lanes[1].steps[3].has_intervention);
  CHECK_FALSE(t.lanes[1].steps[4].has_intervention);
  const std::string text = trace_to_json(t);
  CHECK(text.find("\"set\": \"L0.H1\"") != std::string::npos);
  Result<Trace> back = parse_trace_json(text);
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  CHECK(trace_to_json(back.value()) == text);
  CHECK(back->lanes[1].steps[3].ablation.set == t.lanes[1].steps[3].ablation.set);  // exact float
  CHECK_FALSE(back->lanes[1].steps[3].ablation.from_here_on);

  Session b;
  REQUIRE(b.set_model(tiny_model(64, 4)).ok());
  const Status r = replay_trace(b, back.value());
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  CHECK(b.cursor() == a.cursor());
  for (int lane = 0; lane < 2; ++lane) {
    CHECK(sequence(b, lane, false) == sequence(a, lane, false));
    for (int k = 0; k < path_length(a, lane); ++k) {
      CAPTURE(k);
      CHECK(step_at(b, lane, k)->ablation == step_at(a, lane, k)->ablation);
      CHECK(same_bits(step_at(b, lane, k)->forward->logits, step_at(a, lane, k)->forward->logits));
    }
    check_kv_invariant(b, lane);
  }

  // A damaged set is refused with its field named.
  std::string bad = text;
  bad.replace(bad.find("\"set\": \"L0.H1\""), 14, "\"set\": \"L0.Q1\"");
  Result<Trace> refused = parse_trace_json(bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("intervention.set") != std::string::npos);
}

TEST_CASE("trace: receipts when asked, read back field by field; older traces still read") {
  const Session a = tr_ablated_session();
  Trace t = make_trace(a);
  const std::string plain = trace_to_json(t);
  CHECK(plain.find("\"receipt\"") == std::string::npos);
  REQUIRE(add_receipts(t, a).ok());  // each step against its runner-up
  for (int lane = 0; lane < 2; ++lane) {
    for (const TraceStep& st : t.lanes[lane].steps) {
      REQUIRE(st.has_receipt);
      CHECK(st.receipt.chosen.id == st.token);
      CHECK(st.receipt.vs.id != st.token);
      CHECK(st.receipt.lane == lane);
      CHECK(std::abs(st.receipt.parts_sum - st.receipt.logit_diff) <
            1e-4 * std::max(1.0, std::abs(st.receipt.logit_diff)));
    }
  }
  const std::string text = trace_to_json(t);
  Result<Trace> back = parse_trace_json(text);
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  CHECK(trace_to_json(back.value()) == text);
  const TokenReceipt& r = back->lanes[0].steps[3].receipt;
  const TokenReceipt& w = t.lanes[0].steps[3].receipt;
  REQUIRE(r.parts.size() == w.parts.size());
  for (size_t i = 0; i < r.parts.size(); ++i) {
    CHECK(r.parts[i].part == w.parts[i].part);
    CHECK(r.parts[i].value == w.parts[i].value);
  }
  CHECK(r.stages.size() == w.stages.size());
  CHECK(r.draw.u == w.draw.u);
  CHECK(r.chosen.piece == w.chosen.piece);
  // Against one rival for every step.
  Trace one = make_trace(a, 1);
  REQUIRE(add_receipts(one, a, 1, 7).ok());
  for (const TraceStep& st : one.lanes[0].steps) CHECK(st.receipt.vs.id == 7);
  CHECK(receipt_to_json(one.lanes[0].steps[2].receipt).find("\"parts\"") != std::string::npos);
  CHECK_FALSE(add_receipts(one, a, 1, 99999).ok());

  // Without the new fields (a trace from before them): read as no intervention, no receipt.
  std::string stripped =
      std::regex_replace(plain, std::regex(",\\s*\"intervention\": \\{[^}]*\\}"), "");
  REQUIRE(stripped.find("\"intervention\"") == std::string::npos);
  Result<Trace> older = parse_trace_json(stripped);
  REQUIRE_MESSAGE(older.ok(), (older.ok() ? "" : older.error().message));
  for (const TraceStep& st : older->lanes[0].steps) {
    CHECK_FALSE(st.has_intervention);
    CHECK(st.ablation.empty());
    CHECK_FALSE(st.has_receipt);
  }
}
