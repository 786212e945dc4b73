// top-nσ against hand-computed tables on the logits {1, 2, 3, 4}.
#include <doctest/doctest.h>

#include <cmath>

#include "sampling/sampler.h"

using namespace ts;

namespace {
// mean 2.5, population variance (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25, sd = 1.118034.
// n = 1: threshold 4 - 1.118 = 2.882 keeps logits 3 and 4: softmax {1, e} / (1 + e) =
// {0.268941, 0.731059}. n = 2: threshold 1.764 keeps 2, 3, 4: {1, e, e^2} / 11.107 =
// {0.090031, 0.244728, 0.665241}. n = 3: threshold 0.646 keeps all.
const std::vector<float> kLogitsSig = {1, 2, 3, 4};

std::vector<float> sigmaSig(float n) {
  SamplerSettings s;
  s.chain = {TopNSigma{n}};
  return final_distribution(s, kLogitsSig, {});
}
}  // namespace

TEST_CASE("top-n-sigma keeps the logits within n deviations of the best") {
  const std::vector<float> one = sigmaSig(1);
  CHECK(one[0] + one[1] == 0);
  CHECK(one[2] == doctest::Approx(0.268941));
  CHECK(one[3] == doctest::Approx(0.731059));
  const std::vector<float> two = sigmaSig(2);
  CHECK(two[0] == 0);
  CHECK(two[1] == doctest::Approx(0.090031));
  CHECK(two[3] == doctest::Approx(0.665241));
  const std::vector<float> three = sigmaSig(3);
  CHECK(three[0] > 0);
  CHECK(sigmaSig(0)[0] == three[0]);  // 0 = off
}

TEST_CASE("top-n-sigma records the threshold and the statistics") {
  SamplerSettings s;
  s.chain = {TopNSigma{1}};
  SamplingRecord rec;
  sample(s, kLogitsSig, {}, 0, &rec);
  REQUIRE(rec.stages.size() == 1);
  CHECK(rec.stages[0].name == "top-n-sigma 1.00");
  CHECK(rec.stages[0].n_kept == 2);
  CHECK(rec.stages[0].cut_at == doctest::Approx(2.881966));
  REQUIRE(rec.stages[0].values.size() == 3);
  CHECK(rec.stages[0].values[2].key == "sd");
  CHECK(rec.stages[0].values[2].value == doctest::Approx(1.118034));
  CHECK_FALSE(validate(Stage(TopNSigma{-1})).ok());
}
