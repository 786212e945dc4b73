// Session loop: step / back / seek / first / last on a tiny random model; rewinding and stepping
// again reuses the recorded steps; a recomputation reproduces tokens and records bit for bit;
// the KV cache always matches the cursor.
#include <doctest/doctest.h>

#include "session/check.h"
#include "session/session.h"
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
  REQUIRE(s.set_record_level(level).ok());
  REQUIRE(s.set_prompt("the lol").ok());
  REQUIRE(s.set_sampler(0, warm()).ok());
  REQUIRE(s.set_max_tokens(1000).ok());
  return s;
}

}  // namespace

TEST_CASE("step computes the prefill then one decode per step, KV follows the cursor") {
  Session s = loop_session();
  const int n_prompt = static_cast<int>(s.prompt_tokens().size());
  REQUIRE(n_prompt >= 2);
  CHECK(s.prompt_tokens().front() == 1);  // BOS
  CHECK(s.cursor() == -1);
  CHECK(s.current_step() == nullptr);
  check_kv_invariant(s, 0);

  REQUIRE(s.step().ok());
  const Step* p = s.current_step();
  REQUIRE(p != nullptr);
  CHECK(p->index == 0);
  CHECK(p->forward->phase == Phase::Prefill);
  CHECK(p->forward->n_positions == n_prompt);
  CHECK(p->position == n_prompt);
  CHECK(s.kv_length(0) == n_prompt);
  check_kv_invariant(s, 0);

  for (int k = 1; k <= 10; ++k) {
    REQUIRE(s.step().ok());
    const Step* d = s.current_step();
    CHECK(d->index == k);
    CHECK(d->forward->phase == Phase::Decode);
    CHECK(d->forward->n_positions == 1);
    CHECK(d->forward->input_ids == std::vector<int>{s.step_at(0, k - 1)->token});
    CHECK(d->forward->first_pos == n_prompt + k - 1);
    check_kv_invariant(s, 0);
  }
  CHECK(s.path_length(0) == 11);
  CHECK(s.sequence(0).size() == static_cast<size_t>(n_prompt + 11));
}

TEST_CASE("back, seek, first, last move the cursor without recomputing") {
  Session s = loop_session();
  for (int k = 0; k < 15; ++k) REQUIRE(s.step().ok());
  const std::vector<int> ids = path_ids(s, 0);
  const int nodes = s.timeline(0).size();
  const Step* step7 = s.step_at(0, 7);

  REQUIRE(s.back().ok());
  CHECK(s.cursor() == 13);
  check_kv_invariant(s, 0);
  REQUIRE(s.seek(3).ok());
  CHECK(s.cursor() == 3);
  check_kv_invariant(s, 0);
  REQUIRE(s.first().ok());
  CHECK(s.cursor() == -1);
  CHECK(s.kv_length(0) == 0);
  REQUIRE(s.last().ok());
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
  CHECK(s.step_at(0, 7) == step7);
  CHECK(s.timeline(0).size() == nodes);
  CHECK(path_ids(s, 0) == ids);

  // Going past the end computes new steps.
  REQUIRE(s.step().ok());
  CHECK(s.path_length(0) == 16);
  CHECK(s.timeline(0).size() == nodes + 1);

  Session none;
  CHECK_FALSE(none.step().ok());
  CHECK(none.last_error().find("no model") != std::string::npos);
  CHECK_FALSE(none.back().ok());
}

TEST_CASE("a recomputation reproduces tokens and records bit for bit") {
  Session a = loop_session();
  for (int k = 0; k < 20; ++k) REQUIRE(a.step().ok());

  // A fresh session computing straight through.
  Session b = loop_session();
  REQUIRE(b.run_to(19).ok());
  REQUIRE(path_ids(a, 0) == path_ids(b, 0));
  for (int k = 0; k < 20; ++k) check_same_step(*a.step_at(0, k), *b.step_at(0, k));

  // Rewind, then force and return: later steps are recomputed from a truncated cache.
  REQUIRE(a.seek(8).ok());
  const int original = a.step_at(0, 8)->token;
  const int other = original == 270 ? 271 : 270;
  REQUIRE(a.force(other).ok());
  for (int k = 0; k < 5; ++k) REQUIRE(a.step().ok());
  REQUIRE(a.seek(8).ok());
  REQUIRE(a.force(original).ok());  // the old branch again (an existing sibling)
  REQUIRE(a.last().ok());
  REQUIRE(path_ids(a, 0) == path_ids(b, 0));
  check_kv_invariant(a, 0);

  // A session that forces at 8 directly agrees with the rewound one on the forced branch.
  Session c = loop_session();
  REQUIRE(c.run_to(8).ok());
  REQUIRE(c.force(other).ok());
  for (int k = 0; k < 5; ++k) REQUIRE(c.step().ok());
  REQUIRE(a.seek(8).ok());
  REQUIRE(a.force(other).ok());
  REQUIRE(a.last().ok());
  REQUIRE(path_ids(a, 0) == path_ids(c, 0));
  for (int k = 0; k < a.path_length(0); ++k) check_same_step(*a.step_at(0, k), *c.step_at(0, k));
  // The working caches agree row for row.
  REQUIRE(a.kv_length(0) == c.kv_length(0));
  for (int l = 0; l < a.config().n_layers; ++l) {
    CHECK(a.lane(0).kv.keys(l).topRows(a.kv_length(0)) ==
          c.lane(0).kv.keys(l).topRows(c.kv_length(0)));
    CHECK(a.lane(0).kv.values(l).topRows(a.kv_length(0)) ==
          c.lane(0).kv.values(l).topRows(c.kv_length(0)));
  }
}

TEST_CASE("changing the record level recomputes the path with the same tokens") {
  Session s = loop_session();
  REQUIRE(s.run_to(12).ok());
  const std::vector<int> ids = path_ids(s, 0);
  const size_t full_bytes = s.record_bytes();
  CHECK(s.step_at(0, 3)->forward->attention.size() == 2);
  REQUIRE(s.set_record_level(RecordLevel::Off).ok());
  CHECK(s.cursor() == 12);
  CHECK(path_ids(s, 0) == ids);
  CHECK(s.step_at(0, 3)->forward->attention.empty());
  CHECK(s.record_bytes() < full_bytes);
  check_kv_invariant(s, 0);
  REQUIRE(s.set_record_level(RecordLevel::Summary).ok());
  CHECK(path_ids(s, 0) == ids);
  CHECK(s.record_bytes() > 0);
}

TEST_CASE("record memory grows with the steps and counts shared records once") {
  Session s = loop_session();
  REQUIRE(s.step().ok());
  const size_t one = s.record_bytes();
  CHECK(one >= s.current_step()->forward->memory_bytes());
  REQUIRE(s.run_to(9).ok());
  CHECK(s.record_bytes() > one);
  const size_t before = s.record_bytes();
  REQUIRE(s.seek(4).ok());
  CHECK(s.record_bytes() == before);  // seeking stores nothing
}

TEST_CASE("path tokens carry pieces, prompt flags and the chosen probability") {
  Session s = loop_session();
  REQUIRE(s.run_to(4).ok());
  const std::vector<PathToken> toks = s.path_tokens(0);
  const size_t n_prompt = s.prompt_tokens().size();
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
  CHECK(s.path_tokens(0).size() == n_prompt + 2);
  CHECK(s.path_tokens(0, false).size() == n_prompt + 5);
  std::string text;
  for (size_t i = n_prompt; i < toks.size(); ++i) text += toks[i].piece;
  CHECK(s.generated_text(0, false) == text);
}
