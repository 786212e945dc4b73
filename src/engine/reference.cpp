// reference_forward: the decoder written as plainly as possible, to check Forward against.
// Layer-major over the whole sequence (as in training: every position of layer l before layer
// l + 1), no KV cache, no Eigen products, dot products accumulated in double, RoPE angles
// computed on the spot. Shares only the hand-tested element-wise ops (ops.h). Slow on purpose.
// Interventions: a head's output times its factor before the output projection, a block's or
// an MLP's output (bias included) times its factor before it joins the residual stream.
#include <cmath>
#include <vector>

#include "engine/forward.h"
#include "engine/ops.h"

namespace ts {

namespace {

using Rows = std::vector<std::vector<float>>;  // (n_pos, width)

// y (out) = W (out, in) · x (in) + b.
std::vector<float> matvec(const Mat& w, const Vec& b, const std::vector<float>& x) {
  std::vector<float> y(w.rows());
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    double acc = b.size() ? b[i] : 0.0;
    for (Eigen::Index j = 0; j < w.cols(); ++j) acc += static_cast<double>(w(i, j)) * x[j];
    y[i] = static_cast<float>(acc);
  }
  return y;
}

std::span<const float> span_of(const Vec& v) { return {v.data(), static_cast<size_t>(v.size())}; }

std::vector<float> norm(const ModelConfig& c, const std::vector<float>& x, const Vec& gain,
                        const Vec& bias) {
  std::vector<float> out(x.size());
  norm_by_kind(c.norm, x, span_of(gain), span_of(bias), c.norm_eps, out);
  return out;
}

void rotate(const ModelConfig& c, std::vector<float>& v, int pos) {
  const int n_rot = c.rotary_dims();
  std::vector<float> cs(n_rot / 2), sn(n_rot / 2);
  rope_angles(pos, n_rot, c.rope_theta, cs, sn);
  if (c.rope == RopeStyle::NeoX) {
    rope_neox(v, c.head_dim(), n_rot, cs, sn);
  } else {
    rope_adjacent(v, c.head_dim(), n_rot, cs, sn);
  }
}

// Causal attention of every position over positions 0..pos, head by head; head_scale(pos, h)
// multiplies head h's output at pos.
template <class HeadScale>
Rows attention(const ModelConfig& c, const Rows& q, const Rows& k, const Rows& v,
               HeadScale head_scale) {
  const int n = static_cast<int>(q.size()), hd = c.head_dim();
  Rows out(n, std::vector<float>(static_cast<size_t>(c.n_heads) * hd, 0.0f));
  for (int pos = 0; pos < n; ++pos) {
    for (int h = 0; h < c.n_heads; ++h) {
      const int g = h / c.group_size();
      std::vector<float> p(pos + 1);
      for (int t = 0; t <= pos; ++t) {
        double dot = 0.0;
        for (int i = 0; i < hd; ++i) dot += static_cast<double>(q[pos][h * hd + i]) * k[t][g * hd + i];
        p[t] = static_cast<float>(dot / std::sqrt(static_cast<double>(hd)));
      }
      softmax(p);
      for (int i = 0; i < hd; ++i) {
        double acc = 0.0;
        for (int t = 0; t <= pos; ++t) acc += static_cast<double>(p[t]) * v[t][g * hd + i];
        out[pos][h * hd + i] = static_cast<float>(acc) * head_scale(pos, h);
      }
    }
  }
  return out;
}

}  // namespace

Mat reference_forward(const Model& model, std::span<const int> tokens) {
  return reference_forward(model, tokens, InterventionSet{});
}

Mat reference_forward(const Model& model, std::span<const int> tokens, const InterventionSet& set,
                      int first_pos, int end_pos) {
  if (model.is_quantized()) {  // the reference computes with the dequantized values
    Model plain = model;
    dequantize_weights(plain);
    return reference_forward(plain, tokens, set, first_pos, end_pos);
  }
  const ModelConfig& c = model.config;
  const Weights& w = model.weights;
  const int n = static_cast<int>(tokens.size());
  const bool learned = c.learned_positions();
  if (!validate_model(model).ok() || n == 0 || (learned && n > c.n_ctx)) return Mat();
  for (int t : tokens) {
    if (t < 0 || t >= c.vocab_size) return Mat();
  }

  Rows x(n, std::vector<float>(c.d_model));  // (n, d_model) residual stream
  for (int pos = 0; pos < n; ++pos) {
    for (int i = 0; i < c.d_model; ++i) {
      x[pos][i] = w.tok_embd(tokens[pos], i) + (learned ? w.pos_embd(pos, i) : 0.0f);
    }
  }
  const auto active = [&](int pos) { return pos >= first_pos && pos < end_pos; };
  for (int l = 0; l < c.n_layers; ++l) {
    const LayerWeights& lw = w.layers[l];
    Rows q(n), k(n), v(n);  // (n, n_heads*head_dim), (n, kv_dim), (n, kv_dim)
    for (int pos = 0; pos < n; ++pos) {
      const std::vector<float> h = norm(c, x[pos], lw.attn_norm, lw.attn_norm_b);
      q[pos] = matvec(lw.wq, lw.bq, h);
      k[pos] = matvec(lw.wk, lw.bk, h);
      v[pos] = matvec(lw.wv, lw.bv, h);
      if (c.positions == PositionKind::Rope) {
        rotate(c, q[pos], pos);
        rotate(c, k[pos], pos);
      }
    }
    const Rows att = attention(
        c, q, k, v, [&](int pos, int h) { return active(pos) ? set.head_scale(l, h) : 1.0f; });
    for (int pos = 0; pos < n; ++pos) {
      const float s_attn = active(pos) ? set.attention_scale(l) : 1.0f;
      const float s_mlp = active(pos) ? set.mlp_scale(l) : 1.0f;
      const std::vector<float> o = matvec(lw.wo, lw.bo, att[pos]);
      for (int i = 0; i < c.d_model; ++i) x[pos][i] += s_attn * o[i];
      const std::vector<float> h = norm(c, x[pos], lw.ffn_norm, lw.ffn_norm_b);
      std::vector<float> hidden = matvec(lw.w_up, lw.b_up, h);  // (d_ff)
      if (c.mlp == MlpKind::Gelu) {
        for (float& e : hidden) e = gelu_tanh(e);
      } else {
        const std::vector<float> gate = matvec(lw.w_gate, Vec(), h);
        for (int i = 0; i < c.d_ff; ++i) hidden[i] *= silu(gate[i]);
      }
      const std::vector<float> down = matvec(lw.w_down, lw.b_down, hidden);
      for (int i = 0; i < c.d_model; ++i) x[pos][i] += s_mlp * down[i];
    }
  }
  Mat logits(n, c.vocab_size);  // (n, vocab_size)
  for (int pos = 0; pos < n; ++pos) {
    const std::vector<float> h = norm(c, x[pos], w.out_norm, w.out_norm_b);
    const std::vector<float> row = matvec(model.unembedding(), Vec(), h);
    for (int i = 0; i < c.vocab_size; ++i) logits(pos, i) = row[i];
  }
  return logits;
}

}  // namespace ts
