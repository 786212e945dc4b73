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
      {[](auto& s) { stage<Temperature>(s).t = -0.1f; }, "temperature", ">= 0"},
      {[&](auto& s) { stage<Temperature>(s).t = nan; }, "temperature", ">= 0"},
      {[](auto& s) { stage<Temperature>(s).t = INFINITY; }, "temperature", "finite"},
      {[](auto& s) { stage<TopK>(s).k = -1; }, "top_k", ">= 0"},
      {[](auto& s) { stage<TopP>(s).p = 0; }, "top_p", "(0, 1]"},
      {[](auto& s) { stage<TopP>(s).p = 1.01f; }, "top_p", "(0, 1]"},
      {[&](auto& s) { stage<TopP>(s).p = nan; }, "top_p", "(0, 1]"},
      {[](auto& s) { stage<MinP>(s).p = -0.01f; }, "min_p", "[0, 1]"},
      {[](auto& s) { stage<MinP>(s).p = 1.5f; }, "min_p", "[0, 1]"},
      {[&](auto& s) { stage<MinP>(s).p = nan; }, "min_p", "[0, 1]"},
      {[](auto& s) { stage<Penalties>(s).repeat = 0; }, "repetition_penalty", "> 0"},
      {[](auto& s) { stage<Penalties>(s).repeat = -1; }, "repetition_penalty", "> 0"},
      {[&](auto& s) { stage<Penalties>(s).frequency = nan; }, "frequency_penalty", "finite"},
      {[&](auto& s) { stage<Penalties>(s).presence = nan; }, "presence_penalty", "finite"},
      {[](auto& s) { stage<Penalties>(s).last_n = -1; }, "penalty_last_n", ">= 0"},
      // A repeated stage is checked too, its place in the chain named.
      {[](auto& s) {
         s.chain = {TopK{40}, TopP{0.9f}, TopK{-2}};
       },
       "top_k", "stage 3 of the chain"},
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
  stage<Temperature>(s).t = 1e6f;
  stage<TopK>(s).k = 1 << 30;
  stage<TopP>(s).p = std::numeric_limits<float>::min();
  stage<MinP>(s).p = 1;
  stage<Penalties>(s).repeat = 1e-6f;
  stage<Penalties>(s).last_n = 0;
  s.seed = UINT64_MAX;
  CHECK(validate(s).ok());
  s.chain.clear();
  CHECK(validate(s).ok());
  s.chain = {MinP{0}, Temperature{0}};
  s.seed = 0;
  CHECK(validate(s).ok());
  // An empty chain is the plain softmax.
  SamplerSettings plain;
  plain.chain.clear();
  const std::vector<float> d = final_distribution(plain, std::vector<float>{0, std::log(3.0f)}, {});
  CHECK(d[1] == doctest::Approx(0.75));
}

TEST_CASE("describe and stage names") {
  SamplerSettings s;
  stage<Temperature>(s).t = 0.8f;
  stage<TopK>(s).k = 40;
  stage<TopP>(s).p = 0.9f;
  CHECK(describe(s) == "T=0.8 top-k=40 top-p=0.9 seed=42");
  SamplerSettings g;
  stage<Temperature>(g).t = 0;
  CHECK(describe(g) == "greedy");
  SamplerSettings p;
  stage<MinP>(p).p = 0.05f;
  stage<Penalties>(p).repeat = 1.1f;
  p.seed = 7;
  p.chain = {stage_or_off<Temperature>(p), stage_or_off<MinP>(p), stage_or_off<Penalties>(p)};
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
