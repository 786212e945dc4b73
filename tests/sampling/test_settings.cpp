// Tests of SamplerSettings: validation messages name the field and range, extreme-but-valid
// settings pass and behave, describe() and stage names, and sample() survives invalid settings.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "sampling/sampler.h"

using namespace ts;

TEST_CASE("validate rejects each bad field with a message naming it and its range") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Row {
    std::function<void(SamplerSettings&)> set;
    const char* field;
    const char* range;
  };
  const Row rows[] = {
      {[](auto& s) { s.temperature = -0.1f; }, "temperature", ">= 0"},
      {[&](auto& s) { s.temperature = nan; }, "temperature", ">= 0"},
      {[](auto& s) { s.temperature = INFINITY; }, "temperature", "finite"},
      {[](auto& s) { s.top_k = -1; }, "top_k", ">= 0"},
      {[](auto& s) { s.top_p = 0; }, "top_p", "(0, 1]"},
      {[](auto& s) { s.top_p = 1.01f; }, "top_p", "(0, 1]"},
      {[&](auto& s) { s.top_p = nan; }, "top_p", "(0, 1]"},
      {[](auto& s) { s.min_p = -0.01f; }, "min_p", "[0, 1]"},
      {[](auto& s) { s.min_p = 1.5f; }, "min_p", "[0, 1]"},
      {[&](auto& s) { s.min_p = nan; }, "min_p", "[0, 1]"},
      {[](auto& s) { s.repetition_penalty = 0; }, "repetition_penalty", "> 0"},
      {[](auto& s) { s.repetition_penalty = -1; }, "repetition_penalty", "> 0"},
      {[&](auto& s) { s.frequency_penalty = nan; }, "frequency_penalty", "finite"},
      {[&](auto& s) { s.presence_penalty = nan; }, "presence_penalty", "finite"},
      {[](auto& s) { s.penalty_last_n = -1; }, "penalty_last_n", ">= 0"},
      {[](auto& s) { s.order = {StageKind::TopK, StageKind::TopP, StageKind::TopK}; }, "top-k",
       "twice"},
  };
  for (const Row& r : rows) {
    SamplerSettings s;
    r.set(s);
    const Status st = validate(s);
    REQUIRE_FALSE(st.ok());
    const std::string& msg = st.error().message;
    INFO(msg);
    CHECK(msg.find(r.field) != std::string::npos);
    CHECK(msg.find(r.range) != std::string::npos);
    // And sample() on the unvalidated settings still returns a token.
    const std::vector<float> logits = {0.1f, 0.5f, -0.2f};
    const int id = sample(s, logits, std::vector<int>{1, 1}, 0, nullptr);
    CHECK(id >= 0);
    CHECK(id < 3);
  }
  CHECK(validate(SamplerSettings{}).ok());
}

TEST_CASE("extreme but valid settings pass validation") {
  SamplerSettings s;
  s.temperature = 1e6f;
  s.top_k = 1 << 30;
  s.top_p = std::numeric_limits<float>::min();
  s.min_p = 1;
  s.repetition_penalty = 1e-6f;
  s.penalty_last_n = 0;
  s.seed = UINT64_MAX;
  s.order = {};
  CHECK(validate(s).ok());
  s.temperature = 0;
  s.min_p = 0;
  s.seed = 0;
  s.order = {StageKind::MinP, StageKind::Temperature};
  CHECK(validate(s).ok());
  // An empty chain is the plain softmax.
  SamplerSettings plain;
  plain.order = {};
  const std::vector<float> d = final_distribution(plain, std::vector<float>{0, std::log(3.0f)}, {});
  CHECK(d[1] == doctest::Approx(0.75));
}

TEST_CASE("describe and stage names") {
  SamplerSettings s;
  s.temperature = 0.8f;
  s.top_k = 40;
  s.top_p = 0.9f;
  CHECK(describe(s) == "T=0.8 top-k=40 top-p=0.9 seed=42");
  SamplerSettings g;
  g.temperature = 0;
  CHECK(describe(g) == "greedy");
  SamplerSettings p;
  p.min_p = 0.05f;
  p.repetition_penalty = 1.1f;
  p.seed = 7;
  p.order = {StageKind::Temperature, StageKind::MinP, StageKind::Penalties};
  CHECK(describe(p) == "T=1 min-p=0.05 rep=1.1 last-n=64 seed=7 order=temperature>min-p>penalties");
  for (StageKind k : {StageKind::Penalties, StageKind::Temperature, StageKind::TopK,
                      StageKind::TopP, StageKind::MinP}) {
    const Result<StageKind> back = parse_stage_kind(stage_name(k));
    REQUIRE(back.ok());
    CHECK(back.value() == k);
  }
  const Result<StageKind> bad = parse_stage_kind("top_p");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("top-p") != std::string::npos);
}
