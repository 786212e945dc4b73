// What each RecordLevel fills, attention maps (rows sum to 1, causal, prefill rows == decode
// rows), logit lens, residual norms, KV bookkeeping, and the memory budgets of Full records.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/forward.h"
#include "engine/logit_lens.h"
#include "engine/top_k.h"
#include "engine_test_util.h"

using namespace ts;
using namespace ts::test;
using doctest::Approx;

namespace {

size_t triangle(int first_pos, int T) {
  return static_cast<size_t>(T) * (first_pos + 1) + static_cast<size_t>(T) * (T - 1) / 2;
}

}  // namespace

TEST_CASE("record levels: Off, Summary, Full fill what they promise") {
  const ModelConfig cfg = qwen2_config();
  const Model model = random_model(cfg, 7);
  const std::vector<int> tokens = random_tokens(9, cfg.vocab_size, 4);
  Forward fwd(model);

  SUBCASE("Off: logits and bookkeeping only") {
    KvCache kv(cfg, 16);
    ForwardRecord rec;
    REQUIRE(fwd.run(kv, tokens, {RecordLevel::Off, 10, 5}, &rec).ok());
    CHECK(rec.phase == Phase::Prefill);
    CHECK(rec.n_positions == 9);
    CHECK(rec.input_ids == tokens);
    CHECK(rec.logits.size() == size_t(cfg.vocab_size));
    CHECK(rec.attention.empty());
    CHECK(rec.position_top.empty());
    CHECK(rec.logit_lens.empty());
    CHECK(rec.lens_residuals.empty());
    CHECK(rec.residual_norms.empty());
    CHECK(rec.cost.flops == 0);
    CHECK(rec.kv.length_after == 9);
  }
  SUBCASE("Summary: every position's top-k, residual norms, cost totals") {
    KvCache kv(cfg, 16);
    ForwardRecord rec;
    REQUIRE(fwd.run(kv, tokens, {RecordLevel::Summary, 6, 5}, &rec).ok());
    REQUIRE(rec.position_top.size() == 9);
    for (const auto& top : rec.position_top) {
      REQUIRE(top.size() == 6);
      for (size_t i = 1; i < top.size(); ++i) CHECK(top[i - 1].logit >= top[i].logit);
    }
    // The last position's top-k is the top of the returned logits, p = softmax over all of them.
    std::vector<TokenScore> direct;
    top_k_scores(rec.logits, 6, direct);
    for (int i = 0; i < 6; ++i) {
      CHECK(rec.position_top[8][i].id == direct[i].id);
      CHECK(rec.position_top[8][i].p == Approx(direct[i].p));
    }
    CHECK(rec.residual_norms.size() == size_t(1 + 2 * cfg.n_layers));
    for (float n : rec.residual_norms) CHECK(n > 0);
    CHECK(rec.attention.empty());
    CHECK(rec.logit_lens.empty());
    CHECK(rec.cost.ops.empty());
    CHECK(rec.cost.flops > 0);
    CHECK(rec.cost.seconds > 0);
    CHECK(rec.kv.length_before == 0);
    CHECK(rec.kv.length_after == 9);
    CHECK(rec.kv.bytes_used == kv.bytes_used());
    CHECK(rec.kv.bytes_capacity == kv.bytes_capacity());
  }
  SUBCASE("Full: n_layers attention maps of the right sizes, logit lens, per-op costs") {
    KvCache kv(cfg, 16);
    ForwardRecord pre, dec;
    REQUIRE(fwd.run(kv, tokens, {RecordLevel::Full, 5, 4}, &pre).ok());
    REQUIRE(fwd.run(kv, std::span<const int>(&tokens[0], 1), {RecordLevel::Full, 5, 4}, &dec).ok());
    CHECK(dec.phase == Phase::Decode);
    CHECK(dec.first_pos == 9);
    REQUIRE(pre.attention.size() == size_t(cfg.n_layers));
    REQUIRE(dec.attention.size() == size_t(cfg.n_layers));
    for (int l = 0; l < cfg.n_layers; ++l) {
      CHECK(pre.attention[l].n_heads == cfg.n_heads);
      CHECK(pre.attention[l].n_rows == 9);
      CHECK(pre.attention[l].probs_f16.size() == cfg.n_heads * triangle(0, 9));
      CHECK(dec.attention[l].n_rows == 1);
      CHECK(dec.attention[l].first_pos == 9);
      CHECK(dec.attention[l].probs_f16.size() == cfg.n_heads * size_t(10));
    }
    // The lens is kept as each block's last row and computed when read (logit_lens.h).
    CHECK(pre.logit_lens.empty());
    CHECK(pre.lens_residuals.size() == size_t(cfg.n_layers) * cfg.d_model);
    ensure_logit_lens(model, pre, 4, fwd.pool());
    REQUIRE(pre.logit_lens.size() == size_t(cfg.n_layers));
    for (const auto& lens : pre.logit_lens) CHECK(lens.size() == 4);
    // The last block's lens is the model's own prediction.
    CHECK(pre.logit_lens.back()[0].id == pre.position_top.back()[0].id);
    CHECK(pre.logit_lens.back()[0].logit == Approx(pre.position_top.back()[0].logit).epsilon(1e-4));
    CHECK(pre.cost.ops.size() > size_t(5 * cfg.n_layers));
    double sum = 0;
    for (const OpCost& op : pre.cost.ops) sum += op.flops;
    CHECK(sum == Approx(pre.cost.flops));
  }
}

TEST_CASE("attention maps: rows sum to 1, causal, prefill rows equal decode rows") {
  for (const ModelConfig& cfg : {llama_config(4, 2), gpt2_config()}) {
    const Model model = random_model(cfg, 17);
    const std::vector<int> tokens = random_tokens(12, cfg.vocab_size, 6);
    Forward fwd(model);
    const ForwardOptions full{RecordLevel::Full, 3, 3};

    KvCache kv(cfg, 16);
    ForwardRecord pre;
    REQUIRE(fwd.run(kv, tokens, full, &pre).ok());
    for (const AttentionMap& a : pre.attention) {
      for (int h = 0; h < a.n_heads; ++h) {
        for (int r = 0; r < a.n_rows; ++r) {
          double s = 0;
          for (int k = 0; k < a.row_length(r); ++k) s += a.at(h, r, k);
          CHECK(s == Approx(1.0).epsilon(2e-3));
          CHECK(a.at(h, r, a.row_length(r)) == 0.0f);
        }
      }
    }
    // The same positions computed one at a time give the same rows (up to fp16 rounding).
    KvCache step(cfg, 16);
    for (int p = 0; p < 12; ++p) {
      ForwardRecord dec;
      REQUIRE(fwd.run(step, std::span<const int>(&tokens[p], 1), full, &dec).ok());
      for (int l = 0; l < cfg.n_layers; ++l) {
        for (int h = 0; h < cfg.n_heads; ++h) {
          for (int k = 0; k <= p; ++k) {
            CHECK(dec.attention[l].at(h, 0, k) == Approx(pre.attention[l].at(h, p, k)).epsilon(2e-3));
          }
        }
      }
    }
    // Causality: changing the last token leaves every earlier row and prediction unchanged.
    std::vector<int> changed = tokens;
    changed.back() = (changed.back() + 5) % cfg.vocab_size;
    KvCache kv2(cfg, 16);
    ForwardRecord pre2;
    REQUIRE(fwd.run(kv2, changed, full, &pre2).ok());
    bool last_row_differs = false;
    for (int l = 0; l < cfg.n_layers; ++l) {
      const AttentionMap &a = pre.attention[l], &b = pre2.attention[l];
      for (int h = 0; h < a.n_heads; ++h) {
        for (int r = 0; r < a.n_rows; ++r) {
          for (int k = 0; k < a.row_length(r); ++k) {
            if (r < a.n_rows - 1) {
              CHECK(a.at(h, r, k) == b.at(h, r, k));
            } else if (a.at(h, r, k) != b.at(h, r, k)) {
              last_row_differs = true;
            }
          }
        }
      }
    }
    CHECK(last_row_differs);
    for (int r = 0; r < 11; ++r) CHECK(pre.position_top[r][0].logit == pre2.position_top[r][0].logit);
  }
}

TEST_CASE("residual norms follow the stream: embedding norm first") {
  const ModelConfig cfg = llama_config(4, 4);
  const Model model = random_model(cfg, 19);
  Forward fwd(model);
  KvCache kv(cfg, 4);
  const int token = 7;
  ForwardRecord rec;
  REQUIRE(fwd.run(kv, std::span<const int>(&token, 1), {}, &rec).ok());
  CHECK(rec.residual_norms[0] == Approx(model.weights.tok_embd.row(token).norm()));
}

TEST_CASE("record memory: the default-size model's whole context at Full stays under 32 MB") {
  // Larger than the shipped default (models/tales-4m.gguf: 4 layers, 4 heads, vocab 2048, 256
  // positions) on every axis the record grows with but d_model (which the record does not store
  // per position): 6 layers, 8 heads, vocab 4096.
  ModelConfig cfg = llama_config(8, 8);
  cfg.n_layers = 6;
  cfg.d_model = 128;
  cfg.d_ff = 352;
  cfg.vocab_size = 4096;
  cfg.n_ctx = 256;
  const Model model = random_model(cfg, 23);
  Forward fwd(model, 2);
  KvCache kv(cfg, cfg.n_ctx);
  const ForwardOptions full{RecordLevel::Full, 10, 5};
  const std::vector<int> tokens = random_tokens(cfg.n_ctx, cfg.vocab_size, 24);
  size_t total = 0;
  ForwardRecord pre;
  REQUIRE(fwd.run(kv, std::span<const int>(tokens).first(16), full, &pre).ok());
  total += pre.memory_bytes();
  for (int p = 16; p < cfg.n_ctx; ++p) {
    ForwardRecord rec;
    REQUIRE(fwd.run(kv, std::span<const int>(&tokens[p], 1), full, &rec).ok());
    total += rec.memory_bytes();
  }
  MESSAGE("Full records, 1M-class model, 256 positions: " << total / 1e6 << " MB");
  CHECK(total > size_t(cfg.n_layers) * cfg.n_heads * 256 * 256);  // the maps are really there
  CHECK(total < size_t(32) << 20);
}

TEST_CASE("record memory: GPT-2-124M shape, 768-token prefill + 256 decodes, Full < 512 MB") {
  // Record size depends on layers, heads, vocabulary and positions, not on d_model / d_ff:
  // GPT-2 small's 12 x 12 heads, 50257 tokens and 1024 positions, with narrow matrices.
  ModelConfig cfg = gpt2_config();
  cfg.n_layers = 12;
  cfg.n_heads = 12;
  cfg.n_kv_heads = 12;
  cfg.d_model = 24;
  cfg.d_ff = 32;
  cfg.vocab_size = 50257;
  cfg.n_ctx = 1024;
  const Model model = random_model(cfg, 29);
  Forward fwd(model, 2);
  KvCache kv(cfg, cfg.n_ctx);
  const ForwardOptions full{RecordLevel::Full, 10, 5};
  const std::vector<int> tokens = random_tokens(cfg.n_ctx, cfg.vocab_size, 30);
  ForwardRecord pre;
  REQUIRE(fwd.run(kv, std::span<const int>(tokens).first(768), full, &pre).ok());
  size_t total = pre.memory_bytes();
  for (int p = 768; p < cfg.n_ctx; ++p) {
    ForwardRecord rec;
    REQUIRE(fwd.run(kv, std::span<const int>(&tokens[p], 1), full, &rec).ok());
    total += rec.memory_bytes();
  }
  MESSAGE("Full records, GPT-2 shape, 768 + 256: " << total / 1e6 << " MB");
  CHECK(total > size_t(144) * triangle(0, 768) * 2);
  CHECK(total < size_t(512) << 20);
}
