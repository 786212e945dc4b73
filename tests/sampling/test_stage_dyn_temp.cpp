// Dynamic temperature against hand-computed tables on {0.1, 0.2, 0.3, 0.4}.
#include <doctest/doctest.h>

#include "sampling/sampler.h"
#include "sampling_test_util.h"

using namespace ts;
using ts::test::logits_of;

namespace {
const std::vector<double> kPDyn = {0.1, 0.2, 0.3, 0.4};
}

TEST_CASE("dynamic temperature follows the normalised entropy") {
  // H = 1.279854 nats, ln 4 = 1.386294, Hn = 0.923220. t 1 +- 0.5, exponent 1:
  // T = 0.5 + 1.0 * 0.923220 = 1.423220; p^(1/T) normalised = {0.134408, 0.218745, 0.290847,
  // 0.356001}.
  SamplerSettings s;
  s.chain = {DynTemp{1.0f, 0.5f, 1.0f}};
  const std::vector<float> d = final_distribution(s, logits_of(kPDyn), {});
  CHECK(d[0] == doctest::Approx(0.134408).epsilon(1e-4));
  CHECK(d[1] == doctest::Approx(0.218745).epsilon(1e-4));
  CHECK(d[3] == doctest::Approx(0.356001).epsilon(1e-4));
  SamplingRecord rec;
  sample(s, logits_of(kPDyn), {}, 0, &rec);
  REQUIRE(rec.stages[0].values.size() == 3);
  CHECK(rec.stages[0].values[1].value == doctest::Approx(0.923220));
  CHECK(rec.stages[0].values[2].key == "T");
  CHECK(rec.stages[0].values[2].value == doctest::Approx(1.423220));
  // A uniform distribution has Hn = 1: the hot end, t + range = 1.5 (still uniform).
  // Exponent 2: T = 0.5 + 0.923220^2 = 1.352335.
  s.chain = {DynTemp{1.0f, 0.5f, 2.0f}};
  sample(s, logits_of(kPDyn), {}, 0, &rec);
  CHECK(rec.stages[0].values[2].value == doctest::Approx(1.352335));
  // Range 0 is off: the distribution is untouched.
  s.chain = {DynTemp{1.0f, 0.0f, 1.0f}};
  CHECK(final_distribution(s, logits_of(kPDyn), {})[0] == doctest::Approx(0.1));
  // t 0.25 +- 0.5: lo = max(0, -0.25) = 0, hi = 0.75; a one-hot distribution (Hn = 0) would
  // get T = 0 and keep only its best token.
  CHECK_FALSE(validate(Stage(DynTemp{0.0f, 0.5f, 1.0f})).ok());
}
