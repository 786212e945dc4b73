// typical-p against hand-computed tables on {0.1, 0.2, 0.3, 0.4}.
#include <doctest/doctest.h>

#include <cmath>

#include "sampling/sampler.h"
#include "sampling_test_util.h"

using namespace ts;
using ts::test::logits_of;

namespace {
// H = -(0.1 ln 0.1 + 0.2 ln 0.2 + 0.3 ln 0.3 + 0.4 ln 0.4) = 1.279854 nats; the surprises -ln p
// are 2.302585, 1.609438, 1.203973, 0.916291, so |-ln p - H| = 1.022731, 0.329584, 0.075881,
// 0.363563: the order is id 2 (0.3), id 1 (0.2), id 3 (0.4), id 0 (0.1), cumulative 0.3, 0.5,
// 0.9, 1.0. Kept: up to the first whose cumulative mass exceeds p.
const std::vector<double> kPTyp = {0.1, 0.2, 0.3, 0.4};

std::vector<float> typicalTyp(float p, SamplingRecord* rec = nullptr) {
  SamplerSettings s;
  s.chain = {TypicalP{p}};
  if (rec) sample(s, logits_of(kPTyp), {}, 0, rec);
  return final_distribution(s, logits_of(kPTyp), {});
}
}  // namespace

TEST_CASE("typical-p keeps the tokens nearest the entropy, not the most probable") {
  const std::vector<float> a = typicalTyp(0.25f);  // 0.3 > 0.25: id 2 alone
  CHECK(a[2] == doctest::Approx(1.0));
  CHECK(a[0] + a[1] + a[3] == 0);
  const std::vector<float> b = typicalTyp(0.4f);  // 0.5 > 0.4: ids 2 and 1; the 0.4 token is cut
  CHECK(b[1] == doctest::Approx(0.4));
  CHECK(b[2] == doctest::Approx(0.6));
  CHECK(b[3] == 0);
  const std::vector<float> c = typicalTyp(0.6f);  // 0.9 > 0.6: ids 2, 1, 3; only 0.1 cut
  CHECK(c[0] == 0);
  CHECK(c[1] == doctest::Approx(2 / 9.0));
  CHECK(c[3] == doctest::Approx(4 / 9.0));
  const std::vector<float> off = typicalTyp(1.0f);
  CHECK(off[0] == doctest::Approx(0.1));
}

TEST_CASE("typical-p records the entropy and the kept mass") {
  SamplingRecord rec;
  typicalTyp(0.4f, &rec);
  REQUIRE(rec.stages.size() == 1);
  CHECK(rec.stages[0].name == "typical-p 0.40");
  CHECK(rec.stages[0].n_kept == 2);
  CHECK(rec.stages[0].cut_at == doctest::Approx(0.5));
  REQUIRE(rec.stages[0].values.size() == 1);
  CHECK(rec.stages[0].values[0].key == "entropy");
  CHECK(rec.stages[0].values[0].value == doctest::Approx(1.279854));
  CHECK_FALSE(validate(Stage(TypicalP{0.0f})).ok());
  CHECK(clamp(Stage(TypicalP{NAN})) == Stage(TypicalP{1.0f}));
}
