// The analytic cost model: hand-counted multiply-adds for a small config, bytes against the
// model's own byte count and the KV cache's, scaling with position, the no-cache figure, and the
// decode-is-memory-bound / prefill-is-compute-bound contrast.
#include <doctest/doctest.h>

#include <string>

#include "engine/cost.h"
#include "engine/forward.h"
#include "engine_test_util.h"

using namespace ts;
using namespace ts::test;
using doctest::Approx;

namespace {

double op_flops(const CostRecord& c, const std::string& name) {
  double f = 0;
  for (const OpCost& op : c.ops) {
    if (op.name == name) f += op.flops;
  }
  return f;
}

ModelConfig stories15m_shape() {
  ModelConfig c = llama_config(6, 6);
  c.n_layers = 6;
  c.d_model = 288;
  c.d_ff = 768;
  c.vocab_size = 32000;
  c.n_ctx = 256;
  return c;
}

}  // namespace

TEST_CASE("cost: matrix products of one decode step, counted by hand") {
  const ModelConfig c = llama_config(4, 2);  // d 32, d_ff 72, vocab 61, 2 layers, kv_dim 16
  const CostRecord r = estimate_cost(c, PassShape{0, 1, 1}, true);
  // Per layer: q 32x32, k 32x16, v 32x16 = 2048 MACs; o 32x32 = 1024; 3 x 32x72 = 6912.
  CHECK(op_flops(r, "attn_qkv") == 2 * 2 * 2048.0);
  CHECK(op_flops(r, "attn_out") == 2 * (2 * 1024.0 + 32));  // + the residual add
  CHECK(op_flops(r, "logits") == 2 * 61 * 32.0);
  // One query, one key per head at position 0: q.k and p*v are head_dim MACs each.
  CHECK(op_flops(r, "attn_scores") == 2 * 2 * 8 * 4.0);
  CHECK(op_flops(r, "attn_values") == 2 * 2 * 8 * 4.0);
  double sum = 0;
  for (const OpCost& op : r.ops) sum += op.flops;
  CHECK(sum == Approx(r.flops));
  CHECK(r.ops.front().name == "embed");
  CHECK(r.ops.back().name == "logits");
  const CostRecord totals_only = estimate_cost(c, PassShape{0, 1, 1}, false);
  CHECK(totals_only.ops.empty());
  CHECK(totals_only.flops == r.flops);
}

TEST_CASE("cost: a decode step reads every weight once, and one K/V row per layer is written") {
  for (const ModelConfig& c : {llama_config(4, 2), qwen2_config(), gpt2_config()}) {
    CAPTURE(c.architecture);
    const Model m = allocate_model(c);
    const bool gpt2 = c.learned_positions();
    const CostRecord r = estimate_cost(c, PassShape{9, 1, 1}, false);
    // Model::weight_bytes leaves out the embedding rows a step reads (one token row, + position).
    CHECK(r.weight_bytes == Approx(m.weight_bytes() + (gpt2 ? 2 : 1) * c.d_model * 4.0));
    const KvCache kv(c, 16);
    CHECK(r.kv_bytes_written == Approx(kv.bytes_per_position()));
    CHECK(r.kv_bytes_read == Approx(kv.bytes_per_position() * 10.0));  // rows 0..9
  }
}

TEST_CASE("cost: quantized matrices are counted at their stored bytes per value") {
  const ModelConfig c = llama_config(4, 2);
  const CostRecord f = estimate_cost(c, PassShape{9, 1, 1}, false);
  const double q8 = 34.0 / 32.0;  // Q8_0: 32 int8 values and an fp16 scale per block
  const CostRecord q = estimate_cost(c, PassShape{9, 1, 1}, false, WeightBytes{q8, q8, q8});
  // Norms stay fp32: one gain per layer and norm, plus the final norm.
  const double norms = 4.0 * c.d_model * (2 * c.n_layers + 1);
  CHECK(q.weight_bytes - norms == Approx((f.weight_bytes - norms) * q8 / 4.0));
  CHECK(q.flops == Approx(f.flops));  // the same arithmetic
}

TEST_CASE("cost: decode attention grows linearly with position, the rest does not") {
  const ModelConfig c = llama_config(4, 2);
  const double at10 = estimate_cost(c, PassShape{10, 1, 1}, false).flops;
  const double at20 = estimate_cost(c, PassShape{20, 1, 1}, false).flops;
  // Per extra key per head: 2 * head_dim (scores) + 5 (softmax) + 2 * head_dim (values).
  CHECK(at20 - at10 == Approx(10.0 * c.n_layers * c.n_heads * (4 * c.head_dim() + 5)));
  CHECK(attended_keys(0, 4) == 1 + 2 + 3 + 4);
  CHECK(attended_keys(10, 2) == 11 + 12);
}

TEST_CASE("cost: flops_no_cache is the whole sequence recomputed; the cache saves ~position x") {
  const ModelConfig c = stories15m_shape();
  const CostRecord prefill = estimate_cost(c, PassShape{0, 64, 1}, false);
  CHECK(prefill.flops_no_cache == prefill.flops);  // from an empty cache, nothing is saved
  const CostRecord decode = estimate_cost(c, PassShape{200, 1, 1}, false);
  CHECK(decode.flops_no_cache == estimate_cost(c, PassShape{0, 201, 1}, false).flops);
  // Blocks are ~6M MACs a position, the unembedding 9.2M once: 201 positions vs 1 -> ~80x.
  CHECK(decode.flops_no_cache / decode.flops > 50.0);
  // Decode is memory-bound (well under 1 FLOP per byte at fp32); a 64-token prefill reuses each
  // weight 64 times.
  CHECK(decode.arithmetic_intensity() < 1.0);
  CHECK(prefill.arithmetic_intensity() > 10.0);
}

TEST_CASE("cost: the record of a pass carries the model for its shape and level") {
  const ModelConfig c = llama_config(4, 2);
  const Model m = random_model(c, 5);
  Forward fwd(m);
  KvCache kv(c, 16);
  const std::vector<int> tokens = random_tokens(6, c.vocab_size, 1);
  ForwardRecord rec;
  REQUIRE(fwd.run(kv, tokens, {RecordLevel::Summary, 3, 3}, &rec).ok());
  // A Summary prefill shows every position's prediction, so all 6 rows are unembedded.
  CHECK(rec.cost.flops == estimate_cost(c, PassShape{0, 6, 6}, false).flops);
  CHECK(rec.cost.ops.empty());
  // Without per-position predictions only the last row is unembedded.
  KvCache kv0(c, 16);
  REQUIRE(fwd.run(kv0, tokens, {RecordLevel::Summary, 0, 3}, &rec).ok());
  CHECK(rec.cost.flops == estimate_cost(c, PassShape{0, 6, 1}, false).flops);
  CHECK(rec.position_top.size() == 6);
  CHECK(rec.position_top[5].empty());
  CHECK(max_abs_diff(fwd.logits(), reference_forward(m, tokens).row(5)) < 1e-4);
  const int next = 3;
  REQUIRE(fwd.run(kv, std::span<const int>(&next, 1), {RecordLevel::Full, 3, 3}, &rec).ok());
  const CostRecord expect = estimate_cost(c, PassShape{6, 1, 1}, true);
  CHECK(rec.cost.flops == expect.flops);
  CHECK(rec.cost.flops_no_cache == expect.flops_no_cache);
  CHECK(rec.cost.ops.size() == expect.ops.size());
  CHECK(rec.cost.seconds > 0);
}
