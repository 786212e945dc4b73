// Two implementations must agree: Forward (batched prefill, cached decode, threads) against
// reference_forward (plain loops, no cache) on random models of every block type; prefill vs
// step-by-step; rewind and branch reproducibility; errors.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/forward.h"
#include "engine/linear.h"
#include "engine_test_util.h"

using namespace ts;
using namespace ts::test;

namespace {

struct Case {
  const char* name;
  ModelConfig cfg;
  int n_threads;
};

std::vector<Case> cases() {
  return {{"llama MHA", llama_config(4, 4), 1},
          {"llama GQA", llama_config(4, 2), 1},
          {"llama GQA 1 kv head", llama_config(4, 1), 1},
          {"qwen2 qkv bias + NeoX", qwen2_config(), 1},
          {"gpt2", gpt2_config(), 1},
          {"stablelm partial RoPE + LayerNorm", stablelm_config(), 1},
          {"stablelm 2 threads", stablelm_config(), 2},
          {"gpt2 2 threads", gpt2_config(), 2},
          {"threaded GQA", threaded_config(), 2}};
}

// Every position's full logit vector from a prefill: position_top with k = vocab_size.
Mat prefill_all_logits(Forward& fwd, KvCache& kv, const std::vector<int>& tokens) {
  const int V = fwd.model().config.vocab_size;
  ForwardOptions opt;
  opt.position_top_k = V;
  ForwardRecord rec;
  REQUIRE(fwd.run(kv, tokens, opt, &rec).ok());
  Mat out(tokens.size(), V);
  for (size_t r = 0; r < tokens.size(); ++r) {
    REQUIRE(rec.position_top[r].size() == static_cast<size_t>(V));
    for (const TokenScore& s : rec.position_top[r]) out(r, s.id) = s.logit;
  }
  return out;
}

const ForwardOptions kOff{RecordLevel::Off, 0, 0};

}  // namespace

TEST_CASE("Forward agrees with reference_forward: prefill rows and cached decode steps") {
  for (const Case& tc : cases()) {
    CAPTURE(tc.name);
    const Model model = random_model(tc.cfg, 11);
    REQUIRE(validate_model(model).ok());
    const std::vector<int> tokens = random_tokens(23, tc.cfg.vocab_size, 5);
    const Mat ref = reference_forward(model, tokens);  // (23, vocab_size)
    REQUIRE(ref.rows() == 23);
    CHECK(ref.cwiseAbs().maxCoeff() > 0.5);  // the comparison is not between near-zeros

    Forward fwd(model, tc.n_threads);
    // (a) one prefill pass over the first 15 tokens: every position's logits.
    KvCache kv(tc.cfg, tc.cfg.n_ctx);
    const std::vector<int> prompt(tokens.begin(), tokens.begin() + 15);
    const Mat pre = prefill_all_logits(fwd, kv, prompt);
    CHECK(max_abs_diff(pre.reshaped(), ref.topRows(15).reshaped()) < 1e-4);
    CHECK(max_abs_diff(fwd.logits(), ref.row(14)) < 1e-4);
    // (b) then decode the remaining 8 one at a time from the cache.
    for (int p = 15; p < 23; ++p) {
      REQUIRE(fwd.run(kv, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
      CHECK(max_abs_diff(fwd.logits(), ref.row(p)) < 1e-4);
    }
    CHECK(kv.length() == 23);
  }
}

TEST_CASE("prefill of T tokens == T single decode steps (logits and every KV row)") {
  for (const Case& tc : cases()) {
    CAPTURE(tc.name);
    const Model model = random_model(tc.cfg, 21);
    const std::vector<int> tokens = random_tokens(17, tc.cfg.vocab_size, 8);
    Forward fwd(model, tc.n_threads);
    KvCache a(tc.cfg, 32), b(tc.cfg, 32);
    // Start both from a 3-token prefix so the prefill is not at position 0.
    const std::vector<int> head(tokens.begin(), tokens.begin() + 3);
    REQUIRE(fwd.run(a, head, kOff, nullptr).ok());
    REQUIRE(fwd.run(b, head, kOff, nullptr).ok());
    REQUIRE(fwd.run(a, std::span<const int>(tokens).subspan(3), kOff, nullptr).ok());
    const Vec prefill_logits = fwd.logits();
    for (size_t p = 3; p < tokens.size(); ++p) {
      REQUIRE(fwd.run(b, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
    }
    CHECK(max_abs_diff(prefill_logits, fwd.logits()) < 1e-4);
    REQUIRE(a.length() == b.length());
    for (int l = 0; l < tc.cfg.n_layers; ++l) {
      CHECK(max_abs_diff(a.keys(l).topRows(17).reshaped(), b.keys(l).topRows(17).reshaped()) < 1e-5);
      CHECK(max_abs_diff(a.values(l).topRows(17).reshaped(), b.values(l).topRows(17).reshaped()) <
            1e-5);
    }
  }
}

// Speculative decoding verifies k drafted tokens in one pass and needs every position's logits,
// equal to what k single decode steps give (its greedy output must be the target's, token for
// token). A short pass (linear.h's kShortPassRows) computes each row as a decode step does.
TEST_CASE("a short pass: all_logits rows and KV rows bit-identical to single decode steps") {
  for (const Case& tc : cases()) {
    CAPTURE(tc.name);
    const Model model = random_model(tc.cfg, 23);
    const std::vector<int> tokens = random_tokens(5 + kShortPassRows, tc.cfg.vocab_size, 12);
    Forward fwd(model, tc.n_threads);
    for (int T : {2, 5, kShortPassRows}) {
      CAPTURE(T);
      KvCache a(tc.cfg, 32), b(tc.cfg, 32);
      const std::vector<int> head(tokens.begin(), tokens.begin() + 5);
      REQUIRE(fwd.run(a, head, kOff, nullptr).ok());
      REQUIRE(fwd.run(b, head, kOff, nullptr).ok());
      ForwardOptions all = kOff;
      all.all_logits = true;
      REQUIRE(fwd.run(a, std::span<const int>(tokens).subspan(5, T), all, nullptr).ok());
      const Mat rows = fwd.all_logits();  // (T, vocab_size)
      REQUIRE(rows.rows() == T);
      CHECK(Vec(rows.row(T - 1).transpose()) == fwd.logits());
      for (int t = 0; t < T; ++t) {
        REQUIRE(fwd.run(b, std::span<const int>(&tokens[5 + t], 1), kOff, nullptr).ok());
        CHECK(Vec(rows.row(t).transpose()) == fwd.logits());
      }
      for (int l = 0; l < tc.cfg.n_layers; ++l) {
        CHECK(a.keys(l).topRows(5 + T) == b.keys(l).topRows(5 + T));
        CHECK(a.values(l).topRows(5 + T) == b.values(l).topRows(5 + T));
      }
    }
    // A longer pass (GEMMs) agrees to float precision, and all_logits still has every row.
    const int T = kShortPassRows + 3;
    const std::vector<int> more = random_tokens(T, tc.cfg.vocab_size, 13);
    KvCache a(tc.cfg, 32), b(tc.cfg, 32);
    ForwardOptions all = kOff;
    all.all_logits = true;
    REQUIRE(fwd.run(a, more, all, nullptr).ok());
    const Mat rows = fwd.all_logits();
    for (int t = 0; t < T; ++t) {
      REQUIRE(fwd.run(b, std::span<const int>(&more[t], 1), kOff, nullptr).ok());
      CHECK(max_abs_diff(Vec(rows.row(t).transpose()), fwd.logits()) < 1e-4);
    }
  }
}

TEST_CASE("cached decode == uncached recomputation of the whole sequence") {
  const ModelConfig cfg = qwen2_config();
  const Model model = random_model(cfg, 31);
  const std::vector<int> tokens = random_tokens(30, cfg.vocab_size, 9);
  Forward fwd(model);
  KvCache cached(cfg, cfg.n_ctx);
  REQUIRE(fwd.run(cached, std::span<const int>(tokens).first(1), kOff, nullptr).ok());
  for (int n = 2; n <= 30; ++n) {
    REQUIRE(fwd.run(cached, std::span<const int>(&tokens[n - 1], 1), kOff, nullptr).ok());
    const Vec with_cache = fwd.logits();
    KvCache fresh(cfg, cfg.n_ctx);  // no reuse: positions 0..n-1 in one pass
    REQUIRE(fwd.run(fresh, std::span<const int>(tokens).first(n), kOff, nullptr).ok());
    CHECK(max_abs_diff(with_cache, fwd.logits()) < 1e-4);
  }
}

TEST_CASE("2 threads agree with 1 thread") {
  const ModelConfig cfg = threaded_config();
  const Model model = random_model(cfg, 41);
  const std::vector<int> tokens = random_tokens(40, cfg.vocab_size, 10);
  Forward one(model, 1), two(model, 2);
  CHECK(two.n_threads() == 2);
  // Prefill: the GEMMs are split by output column, which may change Eigen's blocking and so the
  // rounding: agreement to float precision relative to the logits' scale.
  KvCache k1(cfg, 64), k2(cfg, 64);
  REQUIRE(one.run(k1, std::span<const int>(tokens).first(30), kOff, nullptr).ok());
  REQUIRE(two.run(k2, std::span<const int>(tokens).first(30), kOff, nullptr).ok());
  const double scale = one.logits().cwiseAbs().maxCoeff();
  CHECK(scale > 1.0);
  CHECK(max_abs_diff(one.logits(), two.logits()) < 4e-6 * scale);
  for (int p = 30; p < 40; ++p) {
    REQUIRE(one.run(k1, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
    REQUIRE(two.run(k2, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
    CHECK(max_abs_diff(one.logits(), two.logits()) < 4e-6 * scale);
  }
  // Decode only: each output row is the same dot product whichever thread computes it.
  KvCache d1(cfg, 64), d2(cfg, 64);
  for (int p = 0; p < 40; ++p) {
    REQUIRE(one.run(d1, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
    REQUIRE(two.run(d2, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
    CHECK(one.logits() == two.logits());
  }
}

TEST_CASE("rewind (truncate) then re-run reproduces bit-identical logits") {
  for (const Case& tc : cases()) {
    CAPTURE(tc.name);
    const Model model = random_model(tc.cfg, 51);
    const std::vector<int> tokens = random_tokens(20, tc.cfg.vocab_size, 12);
    Forward fwd(model, tc.n_threads);
    KvCache kv(tc.cfg, tc.cfg.n_ctx);
    REQUIRE(fwd.run(kv, std::span<const int>(tokens).first(8), kOff, nullptr).ok());
    std::vector<Vec> first;
    for (int p = 8; p < 20; ++p) {
      REQUIRE(fwd.run(kv, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
      first.push_back(fwd.logits());
    }
    // Rewind to 12 cached positions, take a detour with other tokens, rewind again, replay.
    kv.truncate(12);
    CHECK(kv.length() == 12);
    const std::vector<int> detour = random_tokens(5, tc.cfg.vocab_size, 99);
    REQUIRE(fwd.run(kv, detour, kOff, nullptr).ok());
    kv.truncate(12);
    for (int p = 12; p < 20; ++p) {
      REQUIRE(fwd.run(kv, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
      const Vec& again = fwd.logits();
      CHECK(std::memcmp(again.data(), first[p - 8].data(), sizeof(float) * again.size()) == 0);
    }
  }
}

TEST_CASE("KvCache: copy_prefix_from makes a branch that continues like the original") {
  const ModelConfig cfg = llama_config(4, 2);
  const Model model = random_model(cfg, 61);
  const std::vector<int> tokens = random_tokens(12, cfg.vocab_size, 13);
  Forward fwd(model);
  KvCache trunk(cfg, 32);
  REQUIRE(fwd.run(trunk, tokens, kOff, nullptr).ok());
  KvCache branch(cfg, 16);
  branch.copy_prefix_from(trunk, 7);
  CHECK(branch.length() == 7);
  for (int l = 0; l < cfg.n_layers; ++l) {
    CHECK(branch.keys(l).topRows(7) == trunk.keys(l).topRows(7));
    CHECK(branch.values(l).topRows(7) == trunk.values(l).topRows(7));
  }
  CHECK(branch.bytes_used() == 7 * branch.bytes_per_position());
  CHECK(branch.bytes_per_position() == size_t(cfg.n_layers) * 2 * cfg.kv_dim() * sizeof(float));
  // The branch forks at position 7 with another token; the trunk rewound to 7 does the same.
  const int fork_token = (tokens[7] + 1) % cfg.vocab_size;
  REQUIRE(fwd.run(branch, std::span<const int>(&fork_token, 1), kOff, nullptr).ok());
  const Vec from_branch = fwd.logits();
  trunk.truncate(7);
  REQUIRE(fwd.run(trunk, std::span<const int>(&fork_token, 1), kOff, nullptr).ok());
  CHECK(std::memcmp(from_branch.data(), fwd.logits().data(), sizeof(float) * from_branch.size()) ==
        0);
  // Copying more than the source holds stops at the source's length.
  KvCache big(cfg, 32);
  big.copy_prefix_from(trunk, 30);
  CHECK(big.length() == trunk.length());
  big.truncate(100);  // never grows
  CHECK(big.length() == trunk.length());
}

TEST_CASE("errors: empty input, unknown ids, full cache, wrong cache, GPT-2 beyond n_ctx") {
  const ModelConfig cfg = gpt2_config();
  const Model model = random_model(cfg, 71);
  Forward fwd(model);
  KvCache kv(cfg, 10);
  const std::vector<int> none;
  Status s = fwd.run(kv, none, kOff, nullptr);
  CHECK_FALSE(s.ok());
  const std::vector<int> bad{1, 2, cfg.vocab_size};
  s = fwd.run(kv, bad, kOff, nullptr);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.find("vocabulary") != std::string::npos);
  const std::vector<int> negative{-1};
  CHECK_FALSE(fwd.run(kv, negative, kOff, nullptr).ok());
  CHECK(kv.length() == 0);  // nothing written on error
  const std::vector<int> eleven = random_tokens(11, cfg.vocab_size, 1);
  s = fwd.run(kv, eleven, kOff, nullptr);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.find("capacity") != std::string::npos);
  REQUIRE(fwd.run(kv, std::span<const int>(eleven).first(10), kOff, nullptr).ok());
  CHECK_FALSE(fwd.run(kv, std::span<const int>(eleven).first(1), kOff, nullptr).ok());
  CHECK(kv.length() == 10);

  KvCache other(llama_config(4, 2), 10);
  CHECK_FALSE(fwd.run(other, std::span<const int>(eleven).first(1), kOff, nullptr).ok());
  KvCache too_long(cfg, cfg.n_ctx + 5);
  const std::vector<int> many = random_tokens(cfg.n_ctx + 1, cfg.vocab_size, 2);
  s = fwd.run(too_long, many, kOff, nullptr);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.find("position") != std::string::npos);
  CHECK(reference_forward(model, many).size() == 0);

  Model broken = model;
  broken.weights.layers[1].wq.resize(3, 3);
  Forward bad_model(broken);
  KvCache kv2(cfg, 10);
  s = bad_model.run(kv2, std::span<const int>(eleven).first(2), kOff, nullptr);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.find("blk.1.attn_q") != std::string::npos);
}

TEST_CASE("Llama positions may exceed n_ctx when the cache allows (RoPE table grows)") {
  ModelConfig cfg = llama_config(4, 2);
  cfg.n_ctx = 8;
  const Model model = random_model(cfg, 81);
  const std::vector<int> tokens = random_tokens(20, cfg.vocab_size, 3);
  Forward fwd(model);
  KvCache kv(cfg, 20);
  REQUIRE(fwd.run(kv, std::span<const int>(tokens).first(5), kOff, nullptr).ok());
  for (int p = 5; p < 20; ++p) {
    REQUIRE(fwd.run(kv, std::span<const int>(&tokens[p], 1), kOff, nullptr).ok());
  }
  const Mat ref = reference_forward(model, tokens);
  CHECK(max_abs_diff(fwd.logits(), ref.row(19)) < 1e-4);
}
