// The constraint stages against hand-computed tables: a toy vocabulary of eight pieces, uniform
// logits, the text generated so far in the history; the mass each step removes.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sampling/sampler.h"
#include "sampling/sampler_spec.h"

using namespace ts;

namespace {
// 0 is the end of text (a special token: no bytes).
const std::vector<std::string> kPiecesC = {"", "yes", " yes", "y", "es", "no", " maybe", "x"};
const std::vector<float> kFlatC(8, 0.0f);

SamplingRecord runConstraint(const Stage& st, const std::vector<int>& history, size_t start = 0,
                             bool with_text = true) {
  SamplerSettings s;
  s.chain = {st};
  SampleOptions so;
  if (with_text) so.text = {kPiecesC, 0, start};
  SamplingRecord rec;
  sample(s, kFlatC, history, 0, &rec, so);
  return rec;
}
OneOf one_of_c(const char* phrases) {
  OneOf o;
  REQUIRE(parse_one_of(o, phrases).ok());
  return o;
}
std::vector<int> kept_ids(const SamplingRecord& rec) {
  std::vector<int> ids;
  for (const Candidate& c : rec.final_dist) ids.push_back(c.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}
double value_c(const StageRecord& r, const char* key) {
  for (const StageValue& v : r.values)
    if (v.key == key) return v.value;
  FAIL("no value " << key);
  return 0;
}
}  // namespace

TEST_CASE("one-of keeps the tokens that start one of the phrases, then only the end") {
  // Nothing generated yet: "yes", " yes" (one leading space is allowed), "y" and "no" fit; half
  // of the uniform mass (4 of 8 tokens) is removed and each kept token has p 1/4.
  SamplingRecord rec = runConstraint(one_of_c("yes|no"), {});
  CHECK(kept_ids(rec) == std::vector<int>{1, 2, 3, 5});
  CHECK(rec.final_dist[0].p == doctest::Approx(0.25));
  CHECK(value_c(rec.stages[0], "mass removed") == doctest::Approx(0.5));
  CHECK(rec.stages[0].values.size() == 1);  // not complete: no "complete" value
  CHECK(rec.stages[0].name == "one-of yes|no");
  // After "y": only "es"; 7 of 8 removed.
  rec = runConstraint(one_of_c("yes|no"), {3});
  CHECK(kept_ids(rec) == std::vector<int>{4});
  CHECK(value_c(rec.stages[0], "mass removed") == doctest::Approx(0.875));
  // After "yes": a match, so the end of text is the one token left.
  rec = runConstraint(one_of_c("yes|no"), {1});
  CHECK(kept_ids(rec) == std::vector<int>{0});
  CHECK(value_c(rec.stages[0], "complete") == 1);
  // The prompt (history before `start`) is not part of the constrained text.
  rec = runConstraint(one_of_c("yes|no"), {7, 7, 3}, 2);
  CHECK(kept_ids(rec) == std::vector<int>{4});
}

TEST_CASE("a constraint that cannot act says why and cuts nothing") {
  // The text so far ("x") already breaks it (the stage was added mid-run, or a token forced).
  SamplingRecord rec = runConstraint(one_of_c("yes|no"), {7});
  CHECK(rec.stages[0].n_kept == 8);
  CHECK(rec.stages[0].name.find("already breaks it") != std::string::npos);
  // No vocabulary text given (a caller without a tokenizer).
  rec = runConstraint(one_of_c("yes|no"), {}, 0, false);
  CHECK(rec.stages[0].n_kept == 8);
  CHECK(rec.stages[0].name.find("no vocabulary text") != std::string::npos);
  // After a top-k 1 that kept "x", no alive token fits: the chain still has a token to draw.
  SamplerSettings s;
  std::vector<float> logits = kFlatC;
  logits[7] = 5;
  s.chain = {TopK{1}, one_of_c("yes|no")};
  SampleOptions so;
  so.text = {kPiecesC, 0, 0};
  SamplingRecord r2;
  CHECK(sample(s, logits, {}, 0, &r2, so) == 7);
  CHECK(r2.stages[1].name.find("no alive token fits") != std::string::npos);
}

TEST_CASE("regex masks by a pattern; the end of text waits for a match") {
  const std::vector<std::string> digits = {"", "1", "23", "a", " 4", "5b"};
  const std::vector<float> flat(6, 0.0f);
  Regex re;
  REQUIRE(parse_regex(re, "[0-9]+").ok());
  SamplerSettings s;
  s.chain = {re};
  SampleOptions so;
  so.text = {digits, 0, 0};
  // Nothing yet: "1" and "23" fit; 4 of 6 removed.
  CHECK(final_distribution(s, flat, {}, 0, so) == std::vector<float>{0, 0.5f, 0.5f, 0, 0, 0});
  // After "1": a match, so the end of text fits too.
  const std::vector<float> after = final_distribution(s, flat, std::vector<int>{1}, 0, so);
  CHECK(after[0] == doctest::Approx(1.0 / 3));
  CHECK(after[1] == doctest::Approx(1.0 / 3));
  CHECK(after[3] == 0.0f);
  // Refused patterns and lengths name the problem.
  Regex bad;
  const Status st = parse_regex(bad, "(ab");
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message == "sampler: regex: unclosed '(' at byte 1");
  CHECK_FALSE(parse_regex(bad, std::string(96, 'a')).ok());
  OneOf twice;
  CHECK_FALSE(parse_one_of(twice, "yes||no").ok());
}

TEST_CASE("constraints in a spec: quoted phrases with spaces, first in the chain") {
  auto s = parse_sampler_spec("temp=0.8 one-of=\"once upon a time|the end\" top-k=40");
  REQUIRE(s.ok());
  REQUIRE(!s.value().chain.empty());
  const auto* o = std::get_if<OneOf>(&s.value().chain[0]);
  REQUIRE(o);
  CHECK(one_of_text(*o) == "once upon a time|the end");
  CHECK(record_name(s.value().chain[0]) == "one-of once upon a time|the end");
  auto lanes = parse_lane_specs("greedy regex=\"[a-z]+; [0-9]\"; temp=1");
  REQUIRE(lanes.ok());
  CHECK(lanes.value().size() == 2);
  auto bad = parse_sampler_spec("regex=\"[a-z");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("closing") != std::string::npos);
  auto bad_re = parse_sampler_spec("regex=[a-z");
  REQUIRE_FALSE(bad_re.ok());
  CHECK(bad_re.error().message == "sampler: regex: unclosed '[' at byte 1");
}
