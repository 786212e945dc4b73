// Cost model (see cost.h). Nominal FLOPs per element for the cheap ops: RMSNorm 4, LayerNorm 8,
// RoPE 3 per rotated value, softmax 5 per score, SwiGLU 5 and GELU 8 per hidden unit, residual
// add 1. Activation bytes: fp32 inputs read plus outputs written by the op (cache rows excluded:
// they are the kv_bytes). K/V rows read count each attended cache row once per layer.
#include "engine/cost.h"

#include <algorithm>

namespace ts {

namespace {

constexpr double kF = sizeof(float);

struct Builder {
  CostRecord rec;
  bool per_op = false;
  void add(const char* name, int layer, double flops, double weight_bytes, double kv_read,
           double kv_written, double act_bytes) {
    rec.flops += flops;
    rec.weight_bytes += weight_bytes;
    rec.kv_bytes_read += kv_read;
    rec.kv_bytes_written += kv_written;
    rec.activation_bytes += act_bytes;
    if (per_op) rec.ops.push_back(OpCost{name, layer, flops, weight_bytes, kv_read, kv_written});
  }
};

CostRecord build(const ModelConfig& c, const PassShape& s, bool per_op, const WeightBytes& wb) {
  const bool learned = c.learned_positions(), dense = c.dense_bias, biases = c.qkv_bias;
  const bool layer_norm = c.norm == NormKind::Layer;
  const double T = s.n_positions, R = s.logit_rows, d = c.d_model, ff = c.d_ff,
               V = c.vocab_size, qd = static_cast<double>(c.n_heads) * c.head_dim(),
               kvd = c.kv_dim(), nh = c.n_heads, hd = c.head_dim();
  const double L = static_cast<double>(s.first_pos) + s.n_positions;  // cache rows read
  const double keys = attended_keys(s.first_pos, s.n_positions);      // per head
  const double norm_flops = layer_norm ? 8 : 4;
  const double norm_params = layer_norm ? 2 * d : d;
  const double turned = static_cast<double>(c.rotary_dims()) / std::max(1, c.head_dim());

  Builder b;
  b.per_op = per_op;
  if (per_op) b.rec.ops.reserve(2 + 10 * c.n_layers + 2);
  b.add("embed", -1, learned ? T * d : 0, T * d * (wb.embed + (learned ? kF : 0)), 0, 0,
        T * d * kF);
  for (int l = 0; l < c.n_layers; ++l) {
    b.add("attn_norm", l, norm_flops * T * d, norm_params * kF, 0, 0, 2 * T * d * kF);
    const double qkv_out = qd + 2 * kvd;
    b.add("attn_qkv", l, 2 * T * d * qkv_out + (biases ? T * qkv_out : 0),
          d * qkv_out * wb.matrix + (biases ? qkv_out : 0) * kF, 0, 2 * T * kvd * kF,
          T * (d + qd) * kF);
    if (c.positions == PositionKind::Rope) {
      b.add("rope", l, 3 * T * (qd + kvd) * turned, 0, 0, 0, 2 * T * (qd + kvd) * kF);
    }
    b.add("attn_scores", l, 2 * hd * nh * keys, 0, L * kvd * kF, 0, (T * qd + nh * keys) * kF);
    b.add("attn_softmax", l, 5 * nh * keys, 0, 0, 0, 2 * nh * keys * kF);
    b.add("attn_values", l, 2 * hd * nh * keys, 0, L * kvd * kF, 0, (nh * keys + T * qd) * kF);
    b.add("attn_out", l, 2 * T * qd * d + T * d * (dense ? 2 : 1),
          qd * d * wb.matrix + (dense ? d : 0) * kF, 0, 0, T * (qd + 2 * d) * kF);
    b.add("ffn_norm", l, norm_flops * T * d, norm_params * kF, 0, 0, 2 * T * d * kF);
    if (c.mlp == MlpKind::Gelu) {
      b.add("ffn", l, 4 * T * d * ff + 8 * T * ff + T * ((dense ? ff + d : 0) + d),
            2 * d * ff * wb.matrix + (dense ? ff + d : 0) * kF, 0, 0,
            (3 * T * d + 3 * T * ff) * kF);
    } else {
      b.add("ffn", l, 6 * T * d * ff + 5 * T * ff + T * d, 3 * d * ff * wb.matrix, 0, 0,
            (3 * T * d + 5 * T * ff) * kF);
    }
  }
  b.add("out_norm", -1, norm_flops * R * d, norm_params * kF, 0, 0, 2 * R * d * kF);
  b.add("logits", -1, 2 * R * d * V, V * d * wb.unembed, 0, 0, R * (d + V) * kF);
  return b.rec;
}

}  // namespace

double attended_keys(int first_pos, int T) {
  return static_cast<double>(T) * first_pos + static_cast<double>(T) * (T + 1) / 2;
}

CostRecord estimate_cost(const ModelConfig& c, const PassShape& shape, bool per_op,
                         const WeightBytes& wb) {
  CostRecord rec = build(c, shape, per_op, wb);
  const PassShape whole{0, shape.first_pos + shape.n_positions, shape.logit_rows};
  rec.flops_no_cache = build(c, whole, false, wb).flops;
  return rec;
}

}  // namespace ts
