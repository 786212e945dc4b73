// Session loop: step / back / seek / first / last on a tiny random model; rewinding and stepping
// again reuses the recorded steps; a recomputation reproduces tokens and records bit for bit;
// the KV cache always matches the cursor.
#include <doctest/doctest.h>

#include <cmath>

#include "session/check.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"
#include "session/tiny_model.h"

using namespace ts;
using namespace ts::test;

namespace {

SamplerSettings warm(uint64_t seed = 7) {
  SamplerSettings s;
  s.label = "T=1";
  stage<Temperature>(s).t = 1.0f;
  s.seed = seed;
  return s;
}

Session loop_session(int n_ctx = 64, RecordLevel level = RecordLevel::Full) {
  Session s;
  REQUIRE(s.set_model(tiny_model(n_ctx)).ok());
  REQUIRE(set_record_level(s, level).ok());
  REQUIRE(s.set_prompt("the lol").ok());
  REQUIRE(s.set_sampler(0, warm()).ok());
  REQUIRE(set_max_tokens(s, 1000).ok());
  return s;
}

}  // namespace

TEST_CASE("step computes the prefill then one decode per step, KV follows the cursor") {
  Session s = loop_session();
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  REQUIRE(n_prompt >= 2);
  CHECK(prompt_tokens(s).front() == 1);  // BOS
  CHECK(s.cursor() == -1);
  CHECK(current_step(s) == nullptr);
  check_kv_invariant(s, 0);

  REQUIRE(s.step().ok());
  const Step* p = current_step(s);
  REQUIRE(p != nullptr);
  CHECK(p->index == 0);
  CHECK(p->forward->phase == Phase::Prefill);
  CHECK(p->forward->n_positions == n_prompt);
  CHECK(p->position == n_prompt);
  CHECK(kv_length(s, 0) == n_prompt);
  check_kv_invariant(s, 0);

  for (int k = 1; k <= 10; ++k) {
    REQUIRE(s.step().ok());
    const Step* d = current_step(s);
    CHECK(d->index == k);
    CHECK(d->forward->phase == Phase::Decode);
    CHECK(d->forward->n_positions == 1);
    CHECK(d->forward->input_ids == std::vector<int>{step_at(s, 0, k - 1)->token});
    CHECK(d->forward->first_pos == n_prompt + k - 1);
    check_kv_invariant(s, 0);
  }
  CHECK(path_length(s, 0) == 11);
  CHECK(sequence(s, 0).size() == static_cast<size_t>(n_prompt + 11));
}

TEST_CASE("back, seek, first, last move the cursor without recomputing") {
  Session s = loop_session();
  for (int k = 0; k < 15; ++k) REQUIRE(s.step().ok());
  const std::vector<int> ids = path_ids(s, 0);
  const int nodes = timeline(s, 0).size();
  const Step* step7 = step_at(s, 0, 7);

  REQUIRE(back(s).ok());
  CHECK(s.cursor() == 13);
  check_kv_invariant(s, 0);
  REQUIRE(s.seek(3).ok());
  CHECK(s.cursor() == 3);
  check_kv_invariant(s, 0);
  REQUIRE(first(s).ok());
  CHECK(s.cursor() == -1);
  CHECK(kv_length(s, 0) == 0);
  REQUIRE(last(s).ok());
  CHECK(s.cursor() == 14);
  check_kv_invariant(s, 0);
  CHECK_FALSE(s.seek(15).ok());
  CHECK_FALSE(s.last_error().empty());
  CHECK_FALSE(s.seek(-2).ok());
  CHECK(s.cursor() == 14);

  // Stepping forward from a rewound cursor reuses the recorded steps: same nodes, same tokens.
  REQUIRE(s.seek(5).ok());
  for (int k = 6; k < 15; ++k) {
    REQUIRE(s.step().ok());
    check_kv_invariant(s, 0);
  }
  CHECK(step_at(s, 0, 7) == step7);
  CHECK(timeline(s, 0).size() == nodes);
  CHECK(path_ids(s, 0) == ids);

  // Going past the end computes new steps.
  REQUIRE(s.step().ok());
  CHECK(path_length(s, 0) == 16);
  CHECK(timeline(s, 0).size() == nodes + 1);

  Session none;
  CHECK_FALSE(none.step().ok());
  CHECK(none.last_error().find("no model") != std::string::npos);
  CHECK_FALSE(back(none).ok());
}

TEST_CASE("a recomputation reproduces tokens and records bit for bit") {
  Session a = loop_session();
  for (int k = 0; k < 20; ++k) REQUIRE(a.step().ok());

  // A fresh session computing straight through.
  Session b = loop_session();
  REQUIRE(b.run_to(19).ok());
  REQUIRE(path_ids(a, 0) == path_ids(b, 0));
  for (int k = 0; k < 20; ++k) check_same_step(*step_at(a, 0, k), *step_at(b, 0, k));

  // Rewind, then force and return: later steps are recomputed from a truncated cache.
  REQUIRE(a.seek(8).ok());
  const int original = step_at(a, 0, 8)->token;
  const int other = original == 270 ? 271 : 270;
  REQUIRE(a.force(other).ok());
  for (int k = 0; k < 5; ++k) REQUIRE(a.step().ok());
  REQUIRE(a.seek(8).ok());
  REQUIRE(a.force(original).ok());  // the old branch again (an existing sibling)
  REQUIRE(last(a).ok());
  REQUIRE(path_ids(a, 0) == path_ids(b, 0));
  check_kv_invariant(a, 0);

  // A session that forces at 8 directly agrees with the rewound one on the forced branch.
  Session c = loop_session();
  REQUIRE(c.run_to(8).ok());
  REQUIRE(c.force(other).ok());
  for (int k = 0; k < 5; ++k) REQUIRE(c.step().ok());
  REQUIRE(a.seek(8).ok());
  REQUIRE(a.force(other).ok());
  REQUIRE(last(a).ok());
  REQUIRE(path_ids(a, 0) == path_ids(c, 0));
  for (int k = 0; k < path_length(a, 0); ++k) check_same_step(*step_at(a, 0, k), *step_at(c, 0, k));
  // The working caches agree row for row.
  REQUIRE(kv_length(a, 0) == kv_length(c, 0));
  for (int l = 0; l < config(a).n_layers; ++l) {
    CHECK(a.lanes()[0].kv.keys(l).topRows(kv_length(a, 0)) ==
          c.lanes()[0].kv.keys(l).topRows(kv_length(c, 0)));
    CHECK(a.lanes()[0].kv.values(l).topRows(kv_length(a, 0)) ==
          c.lanes()[0].kv.values(l).topRows(kv_length(c, 0)));
  }
}

TEST_CASE("changing the record level recomputes the path with the same tokens") {
  Session s = loop_session();
  REQUIRE(s.run_to(12).ok());
  const std::vector<int> ids = path_ids(s, 0);
  const size_t full_bytes = record_bytes(s);
  CHECK(step_at(s, 0, 3)->forward->attention.size() == 2);
  REQUIRE(set_record_level(s, RecordLevel::Off).ok());
  CHECK(s.cursor() == 12);
  CHECK(path_ids(s, 0) == ids);
  CHECK(step_at(s, 0, 3)->forward->attention.empty());
  CHECK(record_bytes(s) < full_bytes);
  check_kv_invariant(s, 0);
  REQUIRE(set_record_level(s, RecordLevel::Summary).ok());
  CHECK(path_ids(s, 0) == ids);
  CHECK(record_bytes(s) > 0);
}

TEST_CASE("record memory grows with the steps and counts shared records once") {
  Session s = loop_session();
  REQUIRE(s.step().ok());
  const size_t one = record_bytes(s);
  CHECK(one >= current_step(s)->forward->memory_bytes());
  REQUIRE(s.run_to(9).ok());
  CHECK(record_bytes(s) > one);
  const size_t before = record_bytes(s);
  REQUIRE(s.seek(4).ok());
  CHECK(record_bytes(s) == before);  // seeking stores nothing
}

TEST_CASE("path tokens carry pieces, prompt flags and the chosen probability") {
  Session s = loop_session();
  REQUIRE(s.run_to(4).ok());
  const std::vector<PathToken> toks = path_tokens(s, 0);
  const size_t n_prompt = prompt_tokens(s).size();
  REQUIRE(toks.size() == n_prompt + 5);
  for (size_t i = 0; i < toks.size(); ++i) {
    CHECK(toks[i].position == static_cast<int>(i));
    CHECK(toks[i].is_prompt == (i < n_prompt));
    if (!toks[i].is_prompt) {
      CHECK(toks[i].p > 0.0f);
      CHECK(toks[i].rank >= 0);
      CHECK(toks[i].step == static_cast<int>(i - n_prompt));
    }
  }
  REQUIRE(s.seek(1).ok());
  CHECK(path_tokens(s, 0).size() == n_prompt + 2);
  CHECK(path_tokens(s, 0, false).size() == n_prompt + 5);
  std::string text;
  for (size_t i = n_prompt; i < toks.size(); ++i) text += toks[i].piece;
  CHECK(generated_text(s, 0, false) == text);
}

TEST_CASE("sum_log_prob: Σ log softmax(raw logits)[token] over the path, forced tokens too") {
  Session s = loop_session();
  REQUIRE(s.run_to(5).ok());
  REQUIRE(s.force(40).ok());  // step 5 becomes a forced token
  REQUIRE(s.run_to(8).ok());
  double sum = 0;
  for (int k = 0; k <= 8; ++k) {
    const Step* st = step_at(s, 0, k);
    REQUIRE(st != nullptr);
    const std::vector<float>& lg = st->forward->logits;
    double mx = -1e300, z = 0;
    for (float x : lg) mx = std::max(mx, double(x));
    for (float x : lg) z += std::exp(double(x) - mx);
    const double lp = double(lg[st->token]) - mx - std::log(z);
    CHECK(st->raw_log_p == doctest::Approx(lp).epsilon(1e-9));
    CHECK(st->raw_log_p < 0);
    sum += lp;
  }
  CHECK(step_at(s, 0, 5)->forced);
  CHECK(sum_log_prob(s, 0) == doctest::Approx(sum).epsilon(1e-9));
  REQUIRE(s.seek(2).ok());
  CHECK(sum_log_prob(s, 0) < 0);
  CHECK(sum_log_prob(s, 0) > sum);  // up to the cursor only: fewer (negative) terms
  CHECK(sum_log_prob(s, 0, false) == doctest::Approx(sum).epsilon(1e-9));
}
