// DRY against hand-computed tables: uniform logits over 5 tokens, repeats in the history.
#include <doctest/doctest.h>

#include <cmath>

#include "sampling/sampler.h"

using namespace ts;

namespace {
const std::vector<float> kFlatDry = {0, 0, 0, 0, 0};

Dry dry_of(float mult, float base, int allowed) {
  Dry d;
  d.multiplier = mult;
  d.base = base;
  d.allowed = allowed;
  return d;
}
SamplingRecord runDry(const Dry& d, const std::vector<int>& history) {
  SamplerSettings s;
  s.chain = {d};
  SamplingRecord rec;
  sample(s, kFlatDry, history, 0, &rec);
  return rec;
}
}  // namespace

TEST_CASE("dry pushes down the token that would extend a repeat") {
  // History 1 2 3 1 2: it ends with "1 2", which was followed by 3 before (a repeat of 2).
  // Allowed 2, base 2, multiplier 1: token 3 loses 1 * 2^(2-2) = 1; p3 = e^-1 / (4 + e^-1) =
  // 0.084224, the others 1 / 4.367879 = 0.228944.
  SamplerSettings s;
  s.chain = {dry_of(1, 2, 2)};
  const std::vector<float> p = final_distribution(s, kFlatDry, std::vector<int>{1, 2, 3, 1, 2});
  CHECK(p[3] == doctest::Approx(0.084224));
  CHECK(p[0] == doctest::Approx(0.228944));
  // Allowed 3: a repeat of 2 is free.
  s.chain = {dry_of(1, 2, 3)};
  CHECK(final_distribution(s, kFlatDry, std::vector<int>{1, 2, 3, 1, 2})[3] == doctest::Approx(0.2));
  // Token 1 as a breaker stops the match after "2": a repeat of 1 only.
  Dry b = dry_of(1, 2, 2);
  REQUIRE(parse_dry_breakers(b, "1").ok());
  s.chain = {b};
  CHECK(final_distribution(s, kFlatDry, std::vector<int>{1, 2, 3, 1, 2})[3] == doctest::Approx(0.2));
}

TEST_CASE("dry records the longest repeat and where it is") {
  // History 1 2 3 1 2 3 1 2 (positions 0-7): the end "1 2 3 1 2" (positions 3-7) occurred at
  // 0-4, followed by 3 at position 5: a repeat of 5, penalty 1 * 2^(5-2) = 8.
  const SamplingRecord rec = runDry(dry_of(1, 2, 2), {1, 2, 3, 1, 2, 3, 1, 2});
  REQUIRE(rec.stages.size() == 1);
  const StageRecord& r = rec.stages[0];
  REQUIRE(r.values.size() == 3);
  CHECK(r.values[0].value == 5);  // length
  CHECK(r.values[1].value == 3);  // token
  CHECK(r.values[2].value == doctest::Approx(8));
  CHECK(r.marks == std::vector<int>{0, 1, 2, 3, 4, 3, 4, 5, 6, 7});
  CHECK(r.name == "dry x1.00 base 2.00 allowed 2: repeat of 5, token 3 -8");
  // last_n 4: the window is positions 4-7 (2 3 1 2); the end "2" was followed by 3 at 5, a
  // repeat of 1 < allowed 2: nothing.
  Dry w = dry_of(1, 2, 2);
  w.last_n = 4;
  CHECK(runDry(w, {1, 2, 3, 1, 2, 3, 1, 2}).stages[0].values.empty());
  CHECK(is_off(Stage(Dry{})));
  CHECK_FALSE(validate(Stage(dry_of(1, 0.5f, 2))).ok());
}
