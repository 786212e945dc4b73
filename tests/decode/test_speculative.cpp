// Speculative decoding on random model pairs: the verification rule on hand-computed tables;
// greedy output == the target's own greedy output; the sampled output distributed as the
// target's (a chi-square test over many seeds on the first two positions, whose joint
// distribution is computed exactly, and which the tempting wrong residual fails); records
// consistent with the output; errors.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/rng.h"
#include "decode/plain_decode.h"
#include "decode/speculative.h"
#include "engine/engine_test_util.h"
#include "sampling/stage_constraint.h"

using namespace ts;
using namespace ts::test;

namespace {

ModelConfig pair_config(int vocab, int d_model) {
  ModelConfig c = llama_config(4, 2);
  c.vocab_size = vocab;
  c.d_model = d_model;
  return c;
}

SpecSettings spec_settings(int k, float temperature, int max_tokens, int n_ctx, uint64_t seed) {
  SpecSettings s;
  s.k = k;
  stage<Temperature>(s.sampler).t = temperature;
  s.sampler.seed = seed;
  s.limits.max_tokens = max_tokens;
  s.limits.n_ctx = n_ctx;
  return s;
}

// Upper critical value of chi-square with df degrees of freedom at z standard deviations
// (Wilson-Hilferty).
double chi2_critical(int df, double z) {
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1 - a + z * std::sqrt(a), 3);
}

// softmax(last row of reference_forward(seq) / temperature)
std::vector<double> next_dist(const Model& m, const std::vector<int>& seq, double temperature) {
  const Mat lg = reference_forward(m, seq);
  const int V = m.config.vocab_size;
  std::vector<double> p(V);
  double mx = -1e300, z = 0;
  for (int i = 0; i < V; ++i) mx = std::max(mx, double(lg(lg.rows() - 1, i)) / temperature);
  for (int i = 0; i < V; ++i) z += p[i] = std::exp(double(lg(lg.rows() - 1, i)) / temperature - mx);
  for (double& x : p) x /= z;
  return p;
}

}  // namespace

TEST_CASE("the accept test and the residual, by hand") {
  // p = (0.5, 0.3, 0.2), q = (0.2, 0.6, 0.2): max(0, p - q) = (0.3, 0, 0), mass 0.3.
  const std::vector<float> p = {0.5f, 0.3f, 0.2f}, q = {0.2f, 0.6f, 0.2f};
  std::vector<float> r;
  CHECK(spec_residual(p, q, SpecResidual::PMinusQ, r) == doctest::Approx(0.3));
  CHECK(r == std::vector<float>{1.0f, 0.0f, 0.0f});
  CHECK(spec_residual(p, q, SpecResidual::Target, r) == doctest::Approx(0.3));
  CHECK(r == p);
  CHECK(spec_residual(p, p, SpecResidual::PMinusQ, r) == 0.0);  // nothing to reject: p itself
  CHECK(r == p);
  // Token 1: p/q = 0.5, so u < 0.5 accepts; token 0: p/q = 2.5, always accepted.
  CHECK(spec_accept(0.3f, 0.6f, 0.49));
  CHECK_FALSE(spec_accept(0.3f, 0.6f, 0.51));
  CHECK(spec_accept(0.5f, 0.2f, 0.999999));
  CHECK_FALSE(spec_accept(0.0f, 0.2f, 0.0));  // p = 0: never
  CHECK_FALSE(spec_accept(0.3f, 0.0f, 0.0));
  // Draws on the cumulative sum in id order.
  CHECK(spec_draw(p, 0.0) == 0);
  CHECK(spec_draw(p, 0.49) == 0);
  CHECK(spec_draw(p, 0.5) == 1);
  CHECK(spec_draw(p, 0.81) == 2);
  CHECK(spec_draw(std::vector<float>{0.0f, 2.0f, 0.0f, 2.0f}, 0.75) == 3);
  CHECK(spec_draw(std::vector<float>{0.0f, 0.0f}, 0.5) == -1);
}

TEST_CASE("greedy speculative output == the target's greedy output, token for token") {
  const ModelConfig tc = pair_config(61, 32), dc = pair_config(61, 16);
  const Model target = random_model(tc, 31), draft = random_model(dc, 32);
  Forward ft(target), fd(draft);
  int rejected = 0, bonus = 0;
  for (int k : {1, 3, 5, kMaxSpeculative}) {
    for (uint64_t p = 0; p < 4; ++p) {
      CAPTURE(k);
      CAPTURE(p);
      const std::vector<int> prompt = random_tokens(1 + static_cast<int>(p) * 3, 61, 40 + p);
      SpecSettings s = spec_settings(k, 0.0f, 25, tc.n_ctx, 1);
      s.limits.eos_id = 7;
      auto spec = speculative_decode(ft, fd, prompt, s);
      REQUIRE(spec.ok());
      auto plain = plain_decode(ft, prompt, s.sampler, s.limits);
      REQUIRE(plain.ok());
      CHECK(spec->tokens == plain->tokens);
      CHECK(spec->raw_log_p == plain->raw_log_p);  // the same logits, bit for bit
      CHECK(spec->stop == plain->stop);
      for (const SpecRound& r : spec->rounds) {
        rejected += r.n_accepted < static_cast<int>(r.drafts.size());
        bonus += r.bonus;
      }
    }
  }
  CHECK(rejected > 0);  // the pair disagrees often enough to exercise both paths
  CHECK(bonus > 0);
  // The draft as its own target accepts everything: k + 1 tokens per target pass.
  SpecSettings s = spec_settings(4, 0.0f, 26, dc.n_ctx, 1);
  auto same = speculative_decode(fd, fd, std::vector<int>{3, 4}, s);
  REQUIRE(same.ok());
  CHECK(same->acceptance_rate() == 1.0);
  CHECK(same->tokens_per_target_pass() == doctest::Approx(26.0 / 6));
}

TEST_CASE(
    "sampled speculative output is distributed as the target's (chi-square); a wrong "
    "residual is not") {
  // The random models are sure of themselves; temperature 3 (applied to both, as the chain
  // does) spreads their distributions over most of the 36 pairs.
  const int V = 6, N = 10000;
  const double T = 3.0;
  const ModelConfig tc = pair_config(V, 32), dc = pair_config(V, 16);
  const Model target = random_model(tc, 51), draft = random_model(dc, 52);
  const std::vector<int> prompt = {1, 4, 2};
  // The exact joint distribution of the first two tokens under the target at temperature T.
  std::vector<double> joint(V * V);
  const std::vector<double> p1 = next_dist(target, prompt, T);
  const std::vector<double> q1 = next_dist(draft, prompt, T);
  double overlap = 0;
  for (int a = 0; a < V; ++a) {
    overlap += std::min(p1[a], q1[a]);
    std::vector<int> seq = prompt;
    seq.push_back(a);
    const std::vector<double> p2 = next_dist(target, seq, T);
    for (int b = 0; b < V; ++b) joint[a * V + b] = p1[a] * p2[b];
  }
  REQUIRE(overlap < 0.9);  // the two models disagree: a wrong residual has something to bias
  Forward ft(target), fd(draft);
  auto chi2 = [&](SpecResidual rule, double& accept_rate) {
    std::vector<int> count(V * V, 0);
    int accepted_first = 0;
    for (int i = 0; i < N; ++i) {
      SpecSettings s = spec_settings(2, static_cast<float>(T), 2, tc.n_ctx, 1000 + i);
      s.residual = rule;
      s.record_top = 0;
      auto r = speculative_decode(ft, fd, prompt, s);
      REQUIRE(r.ok());
      REQUIRE(r->tokens.size() == 2);
      ++count[r->tokens[0] * V + r->tokens[1]];
      accepted_first += r->rounds[0].drafts[0].accepted;
    }
    accept_rate = double(accepted_first) / N;
    // Cells expected below 5 draws are pooled into one.
    double x2 = 0, pooled_e = 0;
    int pooled_n = 0, cells = 0;
    for (int c = 0; c < V * V; ++c) {
      const double e = joint[c] * N;
      if (e < 5) {
        pooled_e += e;
        pooled_n += count[c];
        continue;
      }
      x2 += (count[c] - e) * (count[c] - e) / e;
      ++cells;
    }
    if (pooled_e > 0) x2 += (pooled_n - pooled_e) * (pooled_n - pooled_e) / pooled_e, ++cells;
    const double crit = chi2_critical(cells - 1, 3.719);  // p = 1e-4
    MESSAGE("chi-square " << x2 << " over " << cells << " cells, critical " << crit);
    return x2 / crit;
  };
  double rate = 0;
  CHECK(chi2(SpecResidual::PMinusQ, rate) < 1.0);
  // The first draft is accepted with probability Σ min(p, q) (4 standard errors).
  CHECK(std::abs(rate - overlap) < 4 * std::sqrt(overlap * (1 - overlap) / N));
  CHECK(chi2(SpecResidual::Target, rate) > 1.0);
}

TEST_CASE("a constraint stage holds speculative output as it holds plain decoding") {
  // 61 tokens: id i reads as one letter of "abcde..." (id 7, the end of text, reads nothing);
  // the text must become one of two words, so most tokens are cut at most steps.
  const ModelConfig tc = pair_config(61, 32), dc = pair_config(61, 16);
  const Model target = random_model(tc, 41), draft = random_model(dc, 42);
  Forward ft(target), fd(draft);
  std::vector<std::string> pieces(61);
  for (int i = 0; i < 61; ++i) pieces[static_cast<size_t>(i)] = std::string(1, 'a' + i % 26);
  pieces[7] = "";
  const std::vector<int> prompt = {3, 9, 12};
  int lands = 0;
  for (float temp : {0.0f, 1.0f}) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      CAPTURE(temp);
      CAPTURE(seed);
      SpecSettings s = spec_settings(3, temp, 12, tc.n_ctx, seed);
      s.limits.eos_id = 7;
      OneOf one;
      REQUIRE(parse_one_of(one, "cab|bead").ok());
      s.sampler.chain.insert(s.sampler.chain.begin(), one);
      s.text.pieces = pieces;
      s.text.eos_id = 7;
      auto spec = speculative_decode(ft, fd, prompt, s);
      REQUIRE(spec.ok());
      auto plain = plain_decode(ft, prompt, s.sampler, s.limits, s.text);
      REQUIRE(plain.ok());
      std::string text;  // the generated text, up to the end of text
      for (int t : spec->tokens)
        if (t != 7) text += pieces[static_cast<size_t>(t)];
      CHECK((text == "cab" || text == "bead" || text == " cab" || text == " bead"));
      lands += spec->stop == StopReason::Eos;
      if (temp == 0.0f) CHECK(spec->tokens == plain->tokens);  // greedy: the same text
    }
  }
  CHECK(lands == 12);  // every run ended on a match
}

TEST_CASE("speculative records: rounds add up to the output; u's decide; same seed, same text") {
  const ModelConfig tc = pair_config(61, 32), dc = pair_config(61, 16);
  const Model target = random_model(tc, 61), draft = random_model(dc, 62);
  Forward ft(target), fd(draft);
  const std::vector<int> prompt = {5, 9, 2, 33};
  const SpecSettings s = spec_settings(4, 1.0f, 40, tc.n_ctx, 77);
  auto r = speculative_decode(ft, fd, prompt, s);
  REQUIRE(r.ok());
  std::vector<int> rebuilt;
  int drafted = 0, accepted = 0;
  for (const SpecRound& rd : r->rounds) {
    CHECK(rd.first == static_cast<int>(rebuilt.size()));
    int lead = 0;
    for (const SpecDraft& d : rd.drafts) {
      if (!d.tested) break;
      CHECK(d.accepted == (d.u < std::min(1.0, double(d.p) / d.q)));
      if (!d.accepted) break;
      ++lead;
    }
    CHECK(lead == rd.n_accepted);
    CHECK(rd.bonus == (rd.n_accepted == static_cast<int>(rd.drafts.size())));
    CHECK((rd.residual_mass > 0) == !rd.bonus);
    for (int i = 0; i < rd.n_accepted; ++i) rebuilt.push_back(rd.drafts[i].token);
    rebuilt.push_back(rd.token);
    CHECK(rd.u_token == uniform01(77, rd.first + rd.n_accepted, kSpecResidualStream));
    drafted += static_cast<int>(rd.drafts.size());
    accepted += rd.n_accepted;
  }
  rebuilt.resize(r->tokens.size());
  CHECK(rebuilt == r->tokens);
  CHECK(r->tokens.size() == 40);
  CHECK(r->drafted == drafted);
  CHECK(r->accepted == accepted);
  CHECK(r->target_passes == static_cast<int>(r->rounds.size()));
  auto again = speculative_decode(ft, fd, prompt, s);
  REQUIRE(again.ok());
  CHECK(again->tokens == r->tokens);
  SpecSettings other = s;
  other.sampler.seed = 78;
  auto different = speculative_decode(ft, fd, prompt, other);
  REQUIRE(different.ok());
  CHECK(different->tokens != r->tokens);
}

TEST_CASE("speculative decoding: mismatched models and bad settings are one clear error") {
  const ModelConfig tc = pair_config(61, 32), dc = pair_config(60, 16);
  const Model target = random_model(tc, 71), draft = random_model(dc, 72);
  Forward ft(target), fd(draft);
  const std::vector<int> prompt = {1, 2};
  auto r = speculative_decode(ft, fd, prompt, spec_settings(2, 0, 5, tc.n_ctx, 1));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("vocabulary") != std::string::npos);
  CHECK_FALSE(speculative_decode(ft, ft, prompt, spec_settings(0, 0, 5, tc.n_ctx, 1)).ok());
  CHECK_FALSE(
      speculative_decode(ft, ft, prompt, spec_settings(kMaxSpeculative + 1, 0, 5, tc.n_ctx, 1))
          .ok());
  CHECK_FALSE(
      speculative_decode(ft, ft, std::vector<int>{}, spec_settings(2, 0, 5, tc.n_ctx, 1)).ok());
  CHECK_FALSE(speculative_decode(ft, ft, prompt, spec_settings(2, -1, 5, tc.n_ctx, 1)).ok());
  // The context ends the text, with drafts shortened to fit.
  auto full = speculative_decode(ft, ft, std::vector<int>(tc.n_ctx - 4, 1),
                                 spec_settings(8, 0, 50, tc.n_ctx, 1));
  REQUIRE(full.ok());
  CHECK(full->stop == StopReason::ContextFull);
  CHECK(full->tokens.size() == 4);
}
