// Mirostat v2 against hand-computed tables on {0.1, 0.2, 0.3, 0.4}, and its mu carried in the
// step records.
#include <doctest/doctest.h>

#include <cmath>

#include "sampling/sampler.h"
#include "sampling_test_util.h"

using namespace ts;
using ts::test::logits_of;

namespace {
// Surprises -log2 p: 3.3219, 2.3219, 1.7370, 1.3219 bits.
const std::vector<double> kPMiro = {0.1, 0.2, 0.3, 0.4};

SamplingRecord stepMiro(uint64_t step, const SamplingRecord* previous) {
  SamplerSettings s;
  s.chain = {Mirostat{1.0f, 0.1f}};
  SamplingRecord rec;
  SampleOptions so;
  so.previous = previous;
  sample(s, logits_of(kPMiro), {}, step, &rec, so);
  return rec;
}
}  // namespace

TEST_CASE("mirostat v2 keeps the tokens whose surprise is at most mu") {
  // tau 1: mu starts at 2; 1.3219 and 1.7370 pass: {0, 0, 3/7, 4/7}.
  const SamplingRecord first = stepMiro(0, nullptr);
  REQUIRE(first.stages.size() == 1);
  const StageRecord& r = first.stages[0];
  CHECK(r.n_kept == 2);
  REQUIRE(r.values.size() == 2);
  CHECK(r.values[0].key == "mu");
  CHECK(r.values[0].value == 2.0);
  // mu' = 2 - 0.1 (-log2 p_drawn - 1): 2.019265 when 4/7 is drawn, 1.977761 when 3/7 is.
  const double p = first.draw.chosen_p;
  CHECK(r.values[1].key == "mu_next");
  CHECK(r.values[1].value == doctest::Approx(2 - 0.1 * (-std::log2(p) - 1)));
  CHECK((r.values[1].value == doctest::Approx(2.019265) ||
         r.values[1].value == doctest::Approx(1.977761)));
  CHECK(r.name.find(": mu 2.000") != std::string::npos);
}

TEST_CASE("mirostat's mu comes from the previous step's record") {
  // A parent step that left mu' = 3: 2.3219 passes too, {0, 2/9, 3/9, 4/9}.
  SamplingRecord parent;
  StageRecord pr;
  pr.kind = StageKind::Mirostat;
  pr.values = {{"mu", 2.9}, {"mu_next", 3.0}};
  parent.stages.push_back(pr);
  const SamplingRecord child = stepMiro(1, &parent);
  CHECK(child.stages[0].values[0].value == 3.0);
  CHECK(child.stages[0].n_kept == 3);
  // Replaying from the same parent (a rewind, a branch) gives the same mu and the same draw.
  const SamplingRecord again = stepMiro(1, &parent);
  CHECK(again.stages[0].values[1].value == child.stages[0].values[1].value);
  CHECK(again.draw.chosen_id == child.draw.chosen_id);
  // A chain of steps: each step's mu is its parent's mu_next.
  SamplingRecord prev = stepMiro(0, nullptr);
  for (uint64_t k = 1; k < 20; ++k) {
    SamplingRecord next = stepMiro(k, &prev);
    CHECK(next.stages[0].values[0].value == prev.stages[0].values[1].value);
    prev = next;
  }
  CHECK(is_off(Stage(Mirostat{})));
  CHECK_FALSE(validate(Stage(Mirostat{1.0f, 0.0f})).ok());
}

TEST_CASE("mirostat's mu follows a forced token, not the drawn one") {
  // tau 1 from mu 2: the draw took 3/7 or 4/7; a teacher forces the other kept token (p 3/7 or
  // 4/7) or a cut one (p 0). after_taking replaces mu_next (one value, not two).
  SamplerSettings s;
  s.chain = {Mirostat{1.0f, 0.1f}};
  SamplingRecord rec = stepMiro(0, nullptr);
  const double other = rec.draw.chosen_id == 3 ? 3.0 / 7 : 4.0 / 7;
  after_taking(s, rec, other);
  REQUIRE(rec.stages[0].values.size() == 2);
  CHECK(rec.stages[0].values[1].key == "mu_next");
  CHECK(rec.stages[0].values[1].value == doctest::Approx(2 - 0.1 * (-std::log2(other) - 1)));
  after_taking(s, rec, 0.0);  // a token mirostat had cut: no finite surprise, mu stays
  REQUIRE(rec.stages[0].values.size() == 2);
  CHECK(rec.stages[0].values[1].value == 2.0);
  // final_distribution with the parent's record sees the parent's mu, as sample() does.
  SamplingRecord parent;
  StageRecord pr;
  pr.kind = StageKind::Mirostat;
  pr.values = {{"mu", 2.9}, {"mu_next", 3.0}};
  parent.stages.push_back(pr);
  SampleOptions so;
  so.previous = &parent;
  const std::vector<float> with = final_distribution(s, logits_of(kPMiro), {}, 1, so);
  CHECK(with[1] == doctest::Approx(2.0 / 9));                         // mu 3 keeps p 0.2 too
  CHECK(final_distribution(s, logits_of(kPMiro), {}, 1)[1] == 0.0f);  // mu 2 (no parent) cuts it
}
