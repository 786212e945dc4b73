// XTC against hand-computed tables on {0.1, 0.2, 0.3, 0.4}, and its coin.
#include <doctest/doctest.h>

#include "base/rng.h"
#include "sampling/sampler.h"
#include "sampling_test_util.h"

using namespace ts;
using ts::test::logits_of;

namespace {
const std::vector<double> kPXtc = {0.1, 0.2, 0.3, 0.4};

SamplingRecord runXtc(Xtc x, uint64_t step = 0, uint64_t seed = 42) {
  SamplerSettings s;
  s.seed = seed;
  s.chain = {x};
  SamplingRecord rec;
  sample(s, logits_of(kPXtc), {}, step, &rec);
  return rec;
}
double valueXtc(const StageRecord& r, const std::string& key) {
  for (const StageValue& v : r.values)
    if (v.key == key) return v.value;
  FAIL("no valueXtc " << key);
  return 0;
}
}  // namespace

TEST_CASE("xtc cuts the top choices but the least probable of them") {
  // Probability 1 always fires (the coin is < 1). Threshold 0.15: 0.4, 0.3 and 0.2 are at or
  // above it; all but the last (0.2) are cut, leaving {0.1, 0.2} -> {1/3, 2/3}.
  SamplerSettings s;
  s.chain = {Xtc{1.0f, 0.15f}};
  const std::vector<float> d = final_distribution(s, logits_of(kPXtc), {});
  CHECK(d[0] == doctest::Approx(1 / 3.0));
  CHECK(d[1] == doctest::Approx(2 / 3.0));
  CHECK(d[2] + d[3] == 0);
  const SamplingRecord rec = runXtc(Xtc{1.0f, 0.15f});
  CHECK(valueXtc(rec.stages[0], "fired") == 1);
  CHECK(valueXtc(rec.stages[0], "removed") == 2);
  CHECK(rec.stages[0].n_kept == 2);
  // Threshold 0.35: only 0.4 passes; one top choice is never cut.
  const SamplingRecord one = runXtc(Xtc{1.0f, 0.35f});
  CHECK(one.stages[0].n_kept == 4);
  CHECK(valueXtc(one.stages[0], "removed") == 0);
  // Probability 0 (off) and threshold above 0.5 never act.
  CHECK(is_off(Stage(Xtc{0.0f, 0.1f})));
  CHECK(is_off(Stage(Xtc{1.0f, 0.6f})));
  CHECK(runXtc(Xtc{0.0f, 0.1f}).stages[0].name == "xtc off");
}

TEST_CASE("xtc's coin is the (seed, step) stream's, recorded, and fires at its rate") {
  int fired = 0;
  for (uint64_t step = 0; step < 400; ++step) {
    const SamplingRecord rec = runXtc(Xtc{0.5f, 0.15f}, step);
    const double coin = valueXtc(rec.stages[0], "coin");
    CHECK(coin == runXtc(Xtc{0.5f, 0.15f}, step).stages[0].values[0].value);  // replay: same coin
    const bool f = valueXtc(rec.stages[0], "fired") == 1;
    CHECK(f == (coin < 0.5));
    CHECK(rec.stages[0].n_kept == (f ? 2 : 4));
    CHECK(rec.stages[0].name.find(f ? "(fired)" : "(no)") != std::string::npos);
    fired += f;
  }
  CHECK(fired > 160);  // 200 expected; 4 sd = 40
  CHECK(fired < 240);
  CHECK_FALSE(validate(Stage(Xtc{1.5f, 0.1f})).ok());
}
