// Beam search against exhaustive search on tiny random models: with a beam wide enough to keep
// every extension it must find exactly the best-scoring sequence (and every hypothesis with its
// score), for several length penalties; width 1 must be greedy decoding; narrower beams prune,
// record the tree consistently and copy fewer K/V rows than whole paths.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "decode/beam_search.h"
#include "decode/log_prob.h"
#include "decode/plain_decode.h"
#include "engine/engine_test_util.h"

using namespace ts;
using namespace ts::test;

namespace {

ModelConfig tiny_config(int vocab) {
  ModelConfig c = llama_config(4, 2);
  c.vocab_size = vocab;
  return c;
}

struct Hypothesis {
  std::vector<int> tokens;
  double sum = 0;
};

// Every sequence of at most `depth` new tokens that ends at eos or at the budget, with its
// summed log p, from reference_forward (plain loops, no cache) on the whole sequence each time.
void enumerate(const Model& m, std::vector<int> seq, int n_prompt, int depth, int eos, double sum,
               std::vector<Hypothesis>& out) {
  const Mat logits = reference_forward(m, seq);
  const std::span<const float> last(logits.row(logits.rows() - 1).data(),
                                    static_cast<size_t>(logits.cols()));
  for (int t = 0; t < m.config.vocab_size; ++t) {
    const double s = sum + log_prob(last, t);
    std::vector<int> next = seq;
    next.push_back(t);
    const int len = static_cast<int>(next.size()) - n_prompt;
    if (t == eos || len == depth) {
      out.push_back({std::vector<int>(next.begin() + n_prompt, next.end()), s});
    } else {
      enumerate(m, next, n_prompt, depth, eos, s, out);
    }
  }
}

double score(const Hypothesis& h, double alpha) {
  return h.sum / std::pow(static_cast<double>(h.tokens.size()), alpha);
}

BeamSettings settings(int width, double alpha, int depth, int eos, int n_ctx) {
  BeamSettings s;
  s.width = width;
  s.length_penalty = alpha;
  s.limits.max_tokens = depth;
  s.limits.eos_id = eos;
  s.limits.n_ctx = n_ctx;
  return s;
}

// The tree's hypotheses (finished or ended by the budget) with their sums, against `want`: the
// same texts, each with the same summed log p.
void check_hypotheses(const BeamResult& r, const std::vector<Hypothesis>& want) {
  std::map<std::vector<int>, double> found;
  for (int i = 0; i < static_cast<int>(r.nodes.size()); ++i) {
    const BeamNode& n = r.nodes[i];
    if (n.fate == BeamFate::Finished || n.fate == BeamFate::Budget)
      found[beam_path(r, i)] = n.sum_log_p;
  }
  REQUIRE(found.size() == want.size());
  for (const Hypothesis& h : want) {
    REQUIRE(found.count(h.tokens));
    CHECK(found[h.tokens] == doctest::Approx(h.sum).epsilon(1e-5));
  }
}

}  // namespace

TEST_CASE("beam search wide enough == exhaustive search: the best sequence and every hypothesis") {
  const ModelConfig cfg = tiny_config(4);
  const int depth = 3, eos = 0;
  const std::vector<int> prompt = {2, 1, 3};
  for (uint64_t seed : {5u, 6u, 7u}) {
    CAPTURE(seed);
    const Model m = random_model(cfg, seed);
    std::vector<Hypothesis> all;
    enumerate(m, prompt, 3, depth, eos, 0.0, all);
    REQUIRE(all.size() == 1 + 3 * (1 + 3 * 4));  // eos now, or 1-2 non-eos then eos/anything
    for (double alpha : {0.0, 1.0, 2.0}) {
      CAPTURE(alpha);
      // Width 40 keeps all 36 extensions at the last step besides the 4 finished earlier.
      Forward fwd(m);
      auto r = beam_search(fwd, prompt, settings(40, alpha, depth, eos, cfg.n_ctx));
      REQUIRE(r.ok());
      size_t best = 0;
      for (size_t i = 1; i < all.size(); ++i) {
        if (score(all[i], alpha) > score(all[best], alpha)) best = i;
      }
      double second = -1e300;
      for (size_t i = 0; i < all.size(); ++i) {
        if (i != best) second = std::max(second, score(all[i], alpha));
      }
      REQUIRE(score(all[best], alpha) - second > 1e-4);  // a unique answer at float precision
      CHECK(r->best_tokens == all[best].tokens);
      CHECK(r->nodes[r->best].score == doctest::Approx(score(all[best], alpha)).epsilon(1e-5));
      // Every hypothesis is in the tree with its sum; nothing was pruned.
      for (const BeamNode& n : r->nodes) CHECK(n.fate != BeamFate::Pruned);
      check_hypotheses(r.value(), all);
    }
  }
}

TEST_CASE("a constrained beam == exhaustive search over the texts the constraint lets through") {
  const ModelConfig cfg = tiny_config(4);
  const int depth = 3, eos = 0;
  const std::vector<int> prompt = {2, 1, 3};
  // Token bytes: 0 is the end of text; "a", "b", "ab". The text must become "ab" or "b".
  const std::vector<std::string> pieces = {"", "a", "b", "ab"};
  const TextRegex re = TextRegex::one_of(std::vector<std::string>{"ab", "b"});
  // A sequence passes when each token fits the text before it (eos only on a match).
  auto passes = [&](const std::vector<int>& toks) {
    RegexDfa dfa(re);
    int at = dfa.start();
    for (int t : toks) {
      if (t == eos) return dfa.accepts(at);
      at = dfa.run(at, pieces[static_cast<size_t>(t)]);
      if (at == RegexDfa::kDead) return false;
    }
    return true;
  };
  for (uint64_t seed : {5u, 6u}) {
    CAPTURE(seed);
    const Model m = random_model(cfg, seed);
    std::vector<Hypothesis> all, kept;
    enumerate(m, prompt, 3, depth, eos, 0.0, all);
    for (const Hypothesis& h : all)
      if (passes(h.tokens)) kept.push_back(h);
    REQUIRE(!kept.empty());
    REQUIRE(kept.size() < all.size());
    BeamSettings bs = settings(40, 1.0, depth, eos, cfg.n_ctx);
    bs.constraints = {re};
    bs.text.pieces = pieces;
    bs.text.eos_id = eos;
    Forward fwd(m);
    auto r = beam_search(fwd, prompt, bs);
    REQUIRE(r.ok());
    size_t best = 0;
    for (size_t i = 1; i < kept.size(); ++i)
      if (score(kept[i], 1.0) > score(kept[best], 1.0)) best = i;
    CHECK(r->best_tokens == kept[best].tokens);
    // Every hypothesis in the tree passes, with its raw sum; every passing text is there.
    check_hypotheses(r.value(), kept);
    // Without the vocabulary's bytes the constraint cuts nothing.
    bs.text = {};
    auto free = beam_search(fwd, prompt, bs);
    REQUIRE(free.ok());
    auto plain = beam_search(fwd, prompt, settings(40, 1.0, depth, eos, cfg.n_ctx));
    REQUIRE(plain.ok());
    CHECK(free->best_tokens == plain->best_tokens);
  }
}

TEST_CASE("beam width 1 is greedy decoding (with and without an end token)") {
  const ModelConfig cfg = llama_config(4, 2);
  const Model m = random_model(cfg, 11);
  const std::vector<int> prompt = {7, 3, 12, 40};
  SamplerSettings greedy;
  stage<Temperature>(greedy).t = 0;
  for (int eos : {-1, 5}) {
    CAPTURE(eos);
    DecodeLimits lim;
    lim.max_tokens = 30;
    lim.eos_id = eos;
    lim.n_ctx = cfg.n_ctx;
    Forward fwd(m);
    auto plain = plain_decode(fwd, prompt, greedy, lim);
    REQUIRE(plain.ok());
    BeamSettings s = settings(1, 1.0, 30, eos, cfg.n_ctx);
    auto beam = beam_search(fwd, prompt, s);
    REQUIRE(beam.ok());
    CHECK(beam->best_tokens == plain->tokens);
    CHECK(beam->stop == plain->stop);
    double sum = 0;
    for (double lp : plain->raw_log_p) sum += lp;
    CHECK(beam->nodes[beam->best].sum_log_p == doctest::Approx(sum).epsilon(1e-12));
    CHECK(beam->rows_copied == 0);  // one beam never forks
  }
}

TEST_CASE("a narrow beam prunes; the tree, the records and the K/V copies are consistent") {
  const ModelConfig cfg = llama_config(4, 2);
  const Model m = random_model(cfg, 12);
  const std::vector<int> prompt = {1, 2, 3, 4, 5};
  Forward fwd(m);
  auto r = beam_search(fwd, prompt, settings(4, 1.0, 12, -1, cfg.n_ctx));
  REQUIRE(r.ok());
  CHECK(r->steps.size() == 12);
  int pruned = 0;
  long copied = 0;
  for (const BeamStepRecord& st : r->steps) {
    CHECK(st.kept.size() + st.finished.size() <= 4);
    for (int id : st.pruned) CHECK(r->nodes[id].fate == BeamFate::Pruned);
    for (int id : st.pruned) CHECK(r->nodes[id].fate_step == st.step);
    for (int id : st.pruned) CHECK(r->nodes[id].children.empty());
    pruned += static_cast<int>(st.pruned.size());
    copied += st.rows_copied;
    // The cut candidates rank below every chosen one.
    for (const BeamCandidate& c : st.cut) {
      for (int id : st.kept) CHECK(r->nodes[id].sum_log_p >= c.sum_log_p);
    }
  }
  CHECK(pruned > 0);
  CHECK(copied == r->rows_copied);
  // Forks copy only what the paths do not share: less than copying whole paths every time.
  long whole = 0;
  for (const BeamNode& n : r->nodes) {
    if (n.rows_copied > 0) whole += 5 + n.step;
  }
  CHECK(r->rows_copied > 0);
  CHECK(r->rows_copied <= whole);
  // Each node's sum is its parent's plus its own log p; the best path's sum is recomputable.
  for (const BeamNode& n : r->nodes) {
    const double parent = n.parent < 0 ? 0.0 : r->nodes[n.parent].sum_log_p;
    CHECK(n.sum_log_p == doctest::Approx(parent + n.log_p).epsilon(1e-12));
  }
  std::vector<int> seq = prompt;
  double sum = 0;
  for (int t : r->best_tokens) {
    const Mat lg = reference_forward(m, seq);
    sum += log_prob({lg.row(lg.rows() - 1).data(), static_cast<size_t>(lg.cols())}, t);
    seq.push_back(t);
  }
  CHECK(r->nodes[r->best].sum_log_p == doctest::Approx(sum).epsilon(1e-5));
}

TEST_CASE("beam search: invalid settings and prompts are one clear error") {
  const ModelConfig cfg = llama_config(4, 2);
  const Model m = random_model(cfg, 13);
  Forward fwd(m);
  const std::vector<int> prompt = {1, 2};
  CHECK_FALSE(beam_search(fwd, prompt, settings(0, 1.0, 5, -1, cfg.n_ctx)).ok());
  CHECK_FALSE(beam_search(fwd, prompt, settings(kMaxBeamWidth + 1, 1.0, 5, -1, cfg.n_ctx)).ok());
  CHECK_FALSE(beam_search(fwd, prompt, settings(2, -1.0, 5, -1, cfg.n_ctx)).ok());
  CHECK_FALSE(beam_search(fwd, prompt, settings(2, NAN, 5, -1, cfg.n_ctx)).ok());
  CHECK_FALSE(beam_search(fwd, std::vector<int>{}, settings(2, 1.0, 5, -1, cfg.n_ctx)).ok());
  CHECK_FALSE(beam_search(fwd, std::vector<int>{1, 999}, settings(2, 1.0, 5, -1, cfg.n_ctx)).ok());
  auto full = beam_search(fwd, std::vector<int>(cfg.n_ctx, 1), settings(2, 1.0, 5, -1, cfg.n_ctx));
  REQUIRE_FALSE(full.ok());
  CHECK(full.error().message.find("context") != std::string::npos);
  // The context ends a search that the budget would not.
  auto r =
      beam_search(fwd, std::vector<int>(cfg.n_ctx - 3, 1), settings(3, 1.0, 50, -1, cfg.n_ctx));
  REQUIRE(r.ok());
  CHECK(r->stop == StopReason::ContextFull);
  CHECK(r->best_tokens.size() == 3);
}
