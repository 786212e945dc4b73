// Tests of the draw: the cumulative strip walked with chosen u values, the record of sample(),
// greedy, determinism per (seed, step), and draw_many's histogram against the distribution.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <set>

#include "base/rng.h"
#include "sampling/flat_settings.h"
#include "sampling/sampler.h"
#include "sampling/strip.h"
#include "sampling_test_util.h"

using namespace ts;
using ts::test::logits_of;

namespace {
// Pearson chi-square of observed counts against probabilities (cells with p = 0 must be empty).
double chi_square(const std::vector<int>& ids, const std::vector<float>& p) {
  std::vector<double> count(p.size(), 0);
  for (int id : ids) count[static_cast<size_t>(id)] += 1;
  double chi = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0) {
      CHECK(count[i] == 0);
      continue;
    }
    const double e = p[i] * static_cast<double>(ids.size());
    chi += (count[i] - e) * (count[i] - e) / e;
  }
  return chi;
}
}  // namespace

TEST_CASE("the strip: descending probability, ties by id, u picks the interval containing it") {
  // Exact binary fractions so the interval ends are exact.
  const std::vector<float> p = {0.125f, 0.125f, 0.25f, 0.5f, 0.0f};
  const CumulativeStrip strip{std::span<const float>(p)};
  CHECK(strip.size() == 4);  // the zero is not on the strip
  struct Row {
    double u;
    int id, rank;
    double lo, hi;
  };
  const Row rows[] = {
      {0.0, 3, 0, 0.0, 0.5},      {0.4999, 3, 0, 0.0, 0.5},   {0.5, 2, 1, 0.5, 0.75},
      {0.7499, 2, 1, 0.5, 0.75},  {0.75, 0, 2, 0.75, 0.875},  {0.875, 1, 3, 0.875, 1.0},
      {0.999999, 1, 3, 0.875, 1.0},
  };
  for (const Row& r : rows) {
    INFO("u=" << r.u);
    const StripPick k = strip.pick(r.u);
    CHECK(k.id == r.id);
    CHECK(k.rank == r.rank);
    CHECK(k.cum_lo == r.lo);
    CHECK(k.cum_hi == r.hi);
  }
  CHECK(strip.top().id == 3);
}

TEST_CASE("the strip never lands on a zero-probability token, even with rounding") {
  std::vector<float> p(1000, 0.0f);
  for (int i = 0; i < 1000; i += 3) p[i] = 0.1f;  // sums to 33.4, normalised by the strip
  const CumulativeStrip strip{std::span<const float>(p)};
  for (double u : {0.0, 0.5, 1.0 - 0x1.0p-53}) {
    const StripPick k = strip.pick(u);
    CHECK(k.id % 3 == 0);
    CHECK(k.cum_lo <= u);
    CHECK(u < k.cum_hi);
  }
  CHECK(strip.pick(1.0 - 0x1.0p-53).cum_hi == 1.0);
  CHECK(strip.pick(0.0).id == 0);  // equal probabilities: lowest id first
  CHECK(CumulativeStrip{std::span<const float>()}.pick(0.3).id == -1);
}

TEST_CASE("sample(): u = uniform01(seed, step, 0) lands in the chosen token's interval") {
  const std::vector<double> probs = {0.1, 0.2, 0.3, 0.4};
  SamplerSettings s;
  s.seed = 1234;
  for (uint64_t step = 0; step < 50; ++step) {
    SamplingRecord rec;
    const int id = sample(s, logits_of(probs), {}, step, &rec);
    const DrawRecord& d = rec.draw;
    CHECK(d.u == uniform01(1234, step, 0));
    CHECK_FALSE(d.greedy);
    CHECK(d.chosen_id == id);
    CHECK(d.cum_lo <= d.u);
    CHECK(d.u < d.cum_hi);
    CHECK(d.chosen_p == doctest::Approx(probs[static_cast<size_t>(id)]).epsilon(1e-5));
    CHECK(d.chosen_rank == 3 - id);  // probabilities ascend with id
    // Hand walk of the strip 0.4 | 0.3 | 0.2 | 0.1.
    const int want = d.u < 0.4 ? 3 : d.u < 0.7 ? 2 : d.u < 0.9 ? 1 : 0;
    CHECK(id == want);
  }
}

TEST_CASE("the record: raw, each stage with its cuts, the final distribution, entropies") {
  const std::vector<float> logits = logits_of({0.1, 0.2, 0.3, 0.4});
  SamplerSettings s;
  stage<TopK>(s).k = 3;
  stage<TopP>(s).p = 0.7f;
  SamplingRecord rec;
  sample(s, logits, {}, 0, &rec, SampleOptions{3});
  REQUIRE(rec.raw.size() == 3);
  CHECK(rec.raw[0].id == 3);
  CHECK(rec.raw[0].p == doctest::Approx(0.4));
  CHECK(rec.draw.raw_entropy ==
        doctest::Approx(-(0.1 * std::log2(0.1) + 0.2 * std::log2(0.2) + 0.3 * std::log2(0.3) +
                          0.4 * std::log2(0.4))));
  REQUIRE(rec.stages.size() == 5);
  const StageRecord& pen = rec.stages[0];
  CHECK(pen.kind == StageKind::Penalties);
  CHECK(pen.name == "penalties off");
  CHECK(pen.n_kept == 4);
  const StageRecord& topk = rec.stages[1];
  CHECK(topk.name == "top-k 3");
  CHECK(topk.n_kept == 3);
  CHECK(topk.cut_at == doctest::Approx(std::log(0.2)));
  // top-p over {4/9, 3/9, 2/9}: 7/9 >= 0.7 keeps two and cuts id 1.
  const StageRecord& topp = rec.stages[2];
  CHECK(topp.name == "top-p 0.70");
  CHECK(topp.n_kept == 2);
  CHECK(topp.cut_at == doctest::Approx(7 / 9.0));
  REQUIRE(topp.top.size() == 3);  // id 0 was already cut by top-k: not listed
  CHECK(topp.top[0].id == 3);
  CHECK(topp.top[0].p == doctest::Approx(4 / 7.0));
  CHECK(topp.top[1].id == 2);
  CHECK(topp.top[2].id == 1);
  CHECK_FALSE(topp.top[2].kept);
  CHECK(topp.top[2].p == 0);
  CHECK(topp.top[2].logit == doctest::Approx(std::log(0.2)));
  CHECK(rec.stages[3].name == "min-p off");
  CHECK(rec.stages[4].name == "temperature 1.00");
  REQUIRE(rec.final_dist.size() == 2);
  CHECK(rec.final_dist[0].id == 3);
  CHECK(rec.final_dist[1].p == doctest::Approx(3 / 7.0));
  CHECK(rec.draw.entropy == doctest::Approx(-(4 / 7.0 * std::log2(4 / 7.0) +
                                              3 / 7.0 * std::log2(3 / 7.0))));
  // min-p records its probability threshold.
  SamplerSettings m;
  stage<MinP>(m).p = 0.5f;
  sample(m, logits, {}, 0, &rec);
  CHECK(rec.stages[3].cut_at == doctest::Approx(0.2));
  CHECK(rec.stages[3].n_kept == 3);
  // record_top = 0 records no candidates but still the draw.
  sample(m, logits, {}, 0, &rec, SampleOptions{0});
  CHECK(rec.raw.empty());
  CHECK(rec.stages[3].top.empty());
  CHECK(rec.draw.chosen_id >= 0);
}

TEST_CASE("greedy: T = 0 picks the argmax, records greedy and still records every stage") {
  const std::vector<float> logits = {0.5f, 2.0f, -1.0f, 2.0f};
  SamplerSettings s;
  stage<Temperature>(s).t = 0;
  for (uint64_t seed : {uint64_t{0}, uint64_t{42}, UINT64_MAX}) {
    s.seed = seed;
    for (uint64_t step = 0; step < 5; ++step) {
      SamplingRecord rec;
      CHECK(sample(s, logits, {}, step, &rec) == 1);  // tie with id 3: lowest id
      CHECK(rec.draw.greedy);
      CHECK(rec.draw.chosen_p == 1.0f);
      CHECK(rec.draw.chosen_rank == 0);
      CHECK(rec.draw.cum_lo == 0.0);
      CHECK(rec.draw.cum_hi == 1.0);
      CHECK(rec.draw.entropy == 0.0f);
      REQUIRE(rec.stages.size() == 5);
      CHECK(rec.stages[4].name == "temperature 0 (greedy)");
      CHECK(rec.stages[4].n_kept == 1);
      CHECK(rec.stages[1].n_kept == 4);  // top-k is off; stages before temperature still shown
    }
  }
  // Greedy holds wherever the Temperature 0 stage stands in the chain (here before top-k).
  s.chain = {Temperature{0.0f}, TopK{3}};
  SamplingRecord rec;
  CHECK(sample(s, logits, {}, 0, &rec) == 1);
  CHECK(rec.draw.greedy);
  CHECK(rec.stages.size() == 2);
  // The flat form's temperature 0 with no "temperature" in its order (settings files, traces
  // and specs from before the chain) was greedy: its chain ends with a Temperature 0 stage.
  FlatSettings f;
  f.temperature = 0;
  f.order = {StageKind::TopK};
  s.chain = chain_of(f);
  CHECK(sample(s, logits, {}, 0, &rec) == 1);
  CHECK(rec.draw.greedy);
}

TEST_CASE("determinism: the token is a pure function of (settings, logits, history, step)") {
  const std::vector<float> logits = logits_of({0.25, 0.25, 0.25, 0.25});
  for (uint64_t seed : {uint64_t{0}, uint64_t{42}, UINT64_MAX}) {
    SamplerSettings s;
    s.seed = seed;
    std::vector<int> first, again;
    for (uint64_t step = 0; step < 4000; ++step) first.push_back(sample(s, logits, {}, step, nullptr));
    for (uint64_t step = 0; step < 4000; ++step) again.push_back(sample(s, logits, {}, step, nullptr));
    CHECK(first == again);
    // Different steps draw independent u: over 4,000 steps the tokens are ~uniform.
    std::vector<float> uniform(4, 0.25f);
    CHECK(chi_square(first, uniform) < 30.0);  // df = 3; 30 is far past p = 1e-5
    // Consecutive steps are not stuck on one token.
    CHECK(std::set<int>(first.begin(), first.begin() + 20).size() > 1);
  }
  SamplerSettings a, b;
  a.seed = 1;
  b.seed = 2;
  int differ = 0;
  for (uint64_t step = 0; step < 100; ++step)
    differ += sample(a, logits, {}, step, nullptr) != sample(b, logits, {}, step, nullptr);
  CHECK(differ > 50);  // expected 75
}

TEST_CASE("draw_many: histogram close to the final distribution, never touches stream 0") {
  SamplerSettings s;
  stage<Temperature>(s).t = 0.7f;
  stage<TopK>(s).k = 4;
  const std::vector<float> logits = {1.0f, 0.2f, -0.5f, 0.8f, -3.0f, 0.0f};
  const std::vector<float> p = final_distribution(s, logits, {});
  CHECK(p[4] == 0.0f);  // cut by top-k (rank 5)
  const std::vector<int> ids = draw_many(p, s.seed, 7, 10000);
  REQUIRE(ids.size() == 10000);
  CHECK(chi_square(ids, p) < 30.0);  // df = 3
  CHECK(ids == draw_many(p, s.seed, 7, 10000));
  CHECK(ids == draw_many(p, s.seed, 7, 10000, 0));  // stream 0 is replaced by 1
  CHECK(ids != draw_many(p, s.seed, 7, 10000, 2));
  CHECK(ids != draw_many(p, s.seed, 8, 10000));
  // The first draws do not depend on how many are drawn.
  const std::vector<int> few = draw_many(p, s.seed, 7, 10);
  CHECK(std::equal(few.begin(), few.end(), ids.begin()));
  // The main draw (stream 0) is unaffected: same token before and after.
  const int before = sample(s, logits, {}, 7, nullptr);
  (void)draw_many(p, s.seed, 7, 100);
  CHECK(sample(s, logits, {}, 7, nullptr) == before);
  CHECK(draw_many(p, s.seed, 7, 0).empty());
}

TEST_CASE("empty logits return -1 and an empty record") {
  SamplingRecord rec;
  rec.raw.push_back({});
  CHECK(sample(SamplerSettings{}, std::vector<float>{}, {}, 0, &rec) == -1);
  CHECK(rec.raw.empty());
  CHECK(final_distribution(SamplerSettings{}, std::vector<float>{}, {}).empty());
}
