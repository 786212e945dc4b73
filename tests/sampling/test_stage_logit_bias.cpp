// Logit bias against hand-computed tables on {0.1, 0.2, 0.3, 0.4}, and its text form.
#include <doctest/doctest.h>

#include "sampling/sampler.h"
#include "sampling_test_util.h"

using namespace ts;
using ts::test::logits_of;

namespace {
const std::vector<double> kPBias = {0.1, 0.2, 0.3, 0.4};

LogitBias parsedBias(const char* text) {
  LogitBias b;
  REQUIRE(parse_logit_bias(b, text).ok());
  return b;
}
}  // namespace

TEST_CASE("logit bias adds to the listed tokens' logits") {
  // -ln 2 on token 3 halves its weight: {0.1, 0.2, 0.3, 0.2} / 0.8.
  SamplerSettings s;
  s.chain = {parsedBias("3:-0.6931472")};
  std::vector<float> d = final_distribution(s, logits_of(kPBias), {});
  CHECK(d[0] == doctest::Approx(0.125));
  CHECK(d[2] == doctest::Approx(0.375));
  CHECK(d[3] == doctest::Approx(0.25));
  // -inf bans token 0: {0.2, 0.3, 0.4} / 0.9. An id past the vocabulary is skipped.
  s.chain = {parsedBias("0:-inf,99:5")};
  d = final_distribution(s, logits_of(kPBias), {});
  CHECK(d[0] == 0);
  CHECK(d[3] == doctest::Approx(4 / 9.0));
  SamplingRecord rec;
  sample(s, logits_of(kPBias), {}, 0, &rec);
  CHECK(rec.stages[0].n_kept == 3);
  CHECK(rec.stages[0].name == "logit-bias 0:-inf,99:5.00");
}

TEST_CASE("logit bias text: round trip and one clear error") {
  const LogitBias b = parsedBias("15:-5,16:2.5");
  CHECK(b.n == 2);
  CHECK(logit_bias_text(b) == "15:-5.00,16:2.50");
  CHECK(parsedBias(logit_bias_text(b).c_str()) == b);
  LogitBias bad;
  const Status st = parse_logit_bias(bad, "15-5");
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("'15-5'") != std::string::npos);
  CHECK_FALSE(parse_logit_bias(bad, "x:1").ok());
  CHECK_FALSE(parse_logit_bias(bad, "1:nan").ok());
  CHECK(is_off(Stage(LogitBias{})));
}
