// Tests of the sampler stages on tiny hand-checked distributions: top-k, top-p, min-p,
// temperature, penalties, their order effects and numerical robustness.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "sampling/sampler.h"
#include "sampling/stages.h"
#include "sampling_test_util.h"

using namespace ts;
using ts::test::logits_of;
using ts::test::only;

namespace {
const std::vector<double> kP = {0.1, 0.2, 0.3, 0.4};
constexpr float kInf = std::numeric_limits<float>::infinity();

void check_dist(const std::vector<float>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("token " << i);
    CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-4));
  }
}
}  // namespace

TEST_CASE("single stages on {0.1, 0.2, 0.3, 0.4}") {
  struct Row {
    const char* what;
    SamplerSettings s;
    std::vector<double> want;
  };
  std::vector<Row> rows;
  auto add = [&](const char* what, StageKind k, auto set, std::vector<double> want) {
    SamplerSettings s = only(k);
    set(s);
    rows.push_back({what, s, want});
  };
  add("top-k 3", StageKind::TopK, [](auto& s) { stage<TopK>(s).k = 3; },
      {0, 2 / 9.0, 3 / 9.0, 4 / 9.0});
  add("top-k 1", StageKind::TopK, [](auto& s) { stage<TopK>(s).k = 1; }, {0, 0, 0, 1});
  add(
      "top-k 0 (off)", StageKind::TopK, [](auto& s) { stage<TopK>(s).k = 0; }, kP);
  add(
      "top-k vocab+1", StageKind::TopK, [](auto& s) { stage<TopK>(s).k = 5; }, kP);
  add("top-p 0.7", StageKind::TopP, [](auto& s) { stage<TopP>(s).p = 0.7f; },
      {0, 0, 3 / 7.0, 4 / 7.0});
  add("top-p 0.71", StageKind::TopP, [](auto& s) { stage<TopP>(s).p = 0.71f; },
      {0, 2 / 9.0, 3 / 9.0, 4 / 9.0});
  add("top-p tiny keeps one", StageKind::TopP, [](auto& s) { stage<TopP>(s).p = 1e-9f; },
      {0, 0, 0, 1});
  add(
      "top-p 1 (off)", StageKind::TopP, [](auto& s) { stage<TopP>(s).p = 1; }, kP);
  add("min-p 0.5 (boundary kept)", StageKind::MinP, [](auto& s) { stage<MinP>(s).p = 0.5f; },
      {0, 2 / 9.0, 3 / 9.0, 4 / 9.0});
  add("min-p 0.6", StageKind::MinP, [](auto& s) { stage<MinP>(s).p = 0.6f; },
      {0, 0, 3 / 7.0, 4 / 7.0});
  add("min-p 1", StageKind::MinP, [](auto& s) { stage<MinP>(s).p = 1; }, {0, 0, 0, 1});
  add(
      "min-p 0 (off)", StageKind::MinP, [](auto& s) { stage<MinP>(s).p = 0; }, kP);
  // T = 0.5 squares the probabilities: {0.01, 0.04, 0.09, 0.16} / 0.30.
  add("temperature 0.5", StageKind::Temperature, [](auto& s) { stage<Temperature>(s).t = 0.5f; },
      {0.01 / 0.3, 0.04 / 0.3, 0.09 / 0.3, 0.16 / 0.3});
  // T = 2 takes square roots: {0.3162, 0.4472, 0.5477, 0.6325} / 1.9436.
  add("temperature 2", StageKind::Temperature, [](auto& s) { stage<Temperature>(s).t = 2; },
      {0.16270, 0.23010, 0.28181, 0.32540});
  add(
      "temperature 1", StageKind::Temperature, [](auto& s) { stage<Temperature>(s).t = 1; }, kP);
  add("temperature 0", StageKind::Temperature, [](auto& s) { stage<Temperature>(s).t = 0; },
      {0, 0, 0, 1});
  add("temperature 1e6 ~ uniform", StageKind::Temperature,
      [](auto& s) { stage<Temperature>(s).t = 1e6f; }, {0.25, 0.25, 0.25, 0.25});
  for (const Row& r : rows) {
    INFO(r.what);
    REQUIRE(validate(r.s).ok());
    check_dist(final_distribution(r.s, logits_of(kP), {}), r.want);
  }
}

TEST_CASE("the default chain combines stages and renormalises") {
  SamplerSettings s;
  stage<TopK>(s).k = 3;
  stage<TopP>(s).p = 0.8f;  // after top-k: {4/9, 3/9, 2/9} -> 7/9 = 0.78 < 0.8, so all three stay
  stage<MinP>(s).p = 0.6f;  // keeps p >= 0.6 * 4/9 = 0.267: drops 2/9
  check_dist(final_distribution(s, logits_of(kP), {}), {0, 0, 3 / 7.0, 4 / 7.0});
}

TEST_CASE("ties at a cut are broken by the lower id") {
  const std::vector<float> logits = {1, 2, 2, 2, 0};
  SamplerSettings s = only(StageKind::TopK);
  stage<TopK>(s).k = 2;
  check_dist(final_distribution(s, logits, {}), {0, 0.5, 0.5, 0, 0});
  s = only(StageKind::TopP);
  stage<TopP>(s).p =
      0.25f;  // each of the three 2-logit tokens has 0.285; the first (id 1) is enough
  const std::vector<float> d = final_distribution(s, logits, {});
  CHECK(d[1] == 1.0f);
  s = only(StageKind::Temperature);
  stage<Temperature>(s).t = 0;
  check_dist(final_distribution(s, logits, {}), {0, 1, 0, 0, 0});
}

TEST_CASE("penalties: repetition divides positive and multiplies negative logits, then subtract "
          "count * frequency + presence, only inside the last-n window") {
  const std::vector<float> logits = {2, -1, 0.5f, 1};
  const std::vector<int> history = {0, 1, 1, 7, -3};  // out-of-vocab ids are ignored
  SamplerSettings s;
  stage<Penalties>(s).repeat = 2;
  stage<Penalties>(s).frequency = 0.5f;
  stage<Penalties>(s).presence = 0.25f;
  stage<Penalties>(s).last_n = 64;
  ChainState st = make_chain_state(logits);
  const StageOutcome out = apply_penalties(stage<Penalties>(s), history, st);
  CHECK(st.logit[0] == doctest::Approx(2 / 2.0 - 1 * 0.5 - 0.25));   // 0.25
  CHECK(st.logit[1] == doctest::Approx(-1 * 2.0 - 2 * 0.5 - 0.25));  // -3.25
  CHECK(st.logit[2] == doctest::Approx(0.5));
  CHECK(st.logit[3] == doctest::Approx(1));
  CHECK(out.name == "penalties rep 2.00 freq 0.50 pres 0.25 last 64");

  stage<Penalties>(s).last_n = 4;  // window {1, 1, 7, -3}: token 0 is outside it
  st = make_chain_state(logits);
  apply_penalties(stage<Penalties>(s), history, st);
  CHECK(st.logit[0] == doctest::Approx(2));
  CHECK(st.logit[1] == doctest::Approx(-3.25));

  stage<Penalties>(s).last_n = 0;  // off
  st = make_chain_state(logits);
  CHECK(apply_penalties(stage<Penalties>(s), history, st).name == "penalties off");
  CHECK(st.logit[0] == 2);

  // Through the whole chain: the penalised token loses probability.
  SamplerSettings chain;
  stage<Penalties>(chain).repeat = 1.5f;
  const std::vector<float> flat = {1, 1, 1};
  const std::vector<int> hist = {2};
  const std::vector<float> d = final_distribution(chain, flat, hist);
  const double e = std::exp(1.0 / 1.5);
  CHECK(d[2] == doctest::Approx(e / (2 * std::exp(1.0) + e)));
  CHECK(d[0] == d[1]);
}

TEST_CASE("order matters: temperature before top-p keeps a different set than after") {
  const std::vector<float> logits = logits_of({0.5, 0.3, 0.2});
  SamplerSettings s;
  stage<Temperature>(s).t = 2;
  stage<TopP>(s).p = 0.75f;
  s.chain = {stage_or_off<TopP>(s), stage_or_off<Temperature>(s)};
  // top-p on {0.5, 0.3, 0.2}: 0.5 + 0.3 >= 0.75 keeps two.
  std::vector<float> d = final_distribution(s, logits, {});
  CHECK(d[2] == 0.0f);
  CHECK(d[0] > 0.0f);
  CHECK(d[1] > 0.0f);
  // Temperature 2 first flattens to {0.415, 0.322, 0.263}: 0.737 < 0.75, so all three stay.
  s.chain = {stage_or_off<Temperature>(s), stage_or_off<TopP>(s)};
  d = final_distribution(s, logits, {});
  CHECK(d[2] == doctest::Approx(std::sqrt(0.2) / (std::sqrt(0.5) + std::sqrt(0.3) +
                                                   std::sqrt(0.2))).epsilon(1e-4));
}

TEST_CASE("robust to -inf, NaN, +inf and huge logits") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float big = std::numeric_limits<float>::max();
  struct Row {
    const char* what;
    std::vector<float> logits;
    std::vector<double> want;  // final distribution at T = 1
  };
  const std::vector<Row> rows = {
      {"-inf is impossible", {0, -kInf, 0}, {0.5, 0, 0.5}},
      {"NaN is treated as -inf", {nan, 0, 0}, {0, 0.5, 0.5}},
      {"huge values use max-subtraction", {1e30f, 1e30f, -1e30f}, {0.5, 0.5, 0}},
      {"float max", {big, big, 0}, {0.5, 0.5, 0}},
      {"+inf takes all the mass", {kInf, 3, kInf, 0}, {0.5, 0, 0.5, 0}},
      {"all NaN: uniform, never empty", {nan, nan, nan, nan}, {0.25, 0.25, 0.25, 0.25}},
      {"all -inf: uniform", {-kInf, -kInf}, {0.5, 0.5}},
  };
  for (const Row& r : rows) {
    INFO(r.what);
    for (float t : {1.0f, 0.01f, 1e-30f, 1e6f}) {
      INFO("T=" << t);
      SamplerSettings s;
      stage<Temperature>(s).t = t;
      stage<TopK>(s).k = 3;
      stage<TopP>(s).p = 0.99f;
      stage<MinP>(s).p = 0.01f;
      stage<Penalties>(s).repeat = 1.3f;
      stage<Penalties>(s).frequency = 1e30f;
      const std::vector<int> history = {0, 1};
      const std::vector<float> d = final_distribution(s, r.logits, history);
      double sum = 0;
      for (float x : d) {
        REQUIRE(std::isfinite(x));
        sum += x;
      }
      CHECK(sum == doctest::Approx(1.0));
      SamplingRecord rec;
      const int id = sample(s, r.logits, history, 3, &rec);
      REQUIRE(id >= 0);
      CHECK(d[id] > 0);
      CHECK(std::isfinite(rec.draw.entropy));
      CHECK(std::isfinite(rec.draw.raw_entropy));
    }
    SamplerSettings plain;  // no penalties, T = 1: exact expectations
    check_dist(final_distribution(plain, r.logits, {}), r.want);
  }
  // A tiny temperature must not overflow into a tie: 2/1e-30 and 1/1e-30 are far apart in double.
  SamplerSettings s = only(StageKind::Temperature);
  stage<Temperature>(s).t = 1e-30f;
  check_dist(final_distribution(s, std::vector<float>{1, 2}, {}), {0, 1});
}

TEST_CASE("every stage keeps at least one token, even stacked at their most aggressive") {
  SamplerSettings s;
  stage<TopK>(s).k = 1;
  stage<TopP>(s).p = 1e-6f;
  stage<MinP>(s).p = 1;
  stage<Temperature>(s).t = 0;
  const std::vector<float> logits = {3, 3, 3};
  const std::vector<float> d = final_distribution(s, logits, {});
  CHECK(std::accumulate(d.begin(), d.end(), 0.0f) == doctest::Approx(1));
  CHECK(d[0] == 1.0f);
}
