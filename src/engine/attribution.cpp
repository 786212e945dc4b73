// Direct logit attribution (attribution.h): the position recomputed part by part, then the
// projection of each part through the final norm onto the difference of two unembedding rows.
#include "engine/attribution.h"

#include <charconv>
#include <cmath>
#include <numeric>

#include "engine/attention.h"
#include "engine/dot_rows.h"
#include "engine/linear.h"
#include "engine/ops.h"
#include "engine/quant/quant_dot.h"

namespace ts {

namespace {

std::span<const float> span_of(const Vec& v) { return {v.data(), static_cast<size_t>(v.size())}; }
std::span<float> span_of(Vec& v) { return {v.data(), static_cast<size_t>(v.size())}; }

void norm(const ModelConfig& c, const Vec& x, const Vec& gain, const Vec& bias, Vec& out) {
  norm_by_kind(c.norm, span_of(x), span_of(gain), span_of(bias), c.norm_eps, span_of(out));
}

// The activation a quantized matrix multiplies: x rounded to 8-bit blocks, decoded back.
Vec rounded_activation(const Vec& x, QType t) {
  QActivation a;
  const int n = static_cast<int>(x.size());
  quantize_activation(x.data(), n, 1, n, qtype_act_block(t), a);
  Vec out(n);
  for (int j = 0; j < n; ++j) out[j] = a.d[j / a.block] * static_cast<float>(a.q[j]);
  return out;
}

Status check_inputs(const Model& m, const KvCache& kv, int token, int pos) {
  const ModelConfig& c = m.config;
  TS_TRY(validate_model(m));
  if (token < 0 || token >= c.vocab_size) {
    return make_error("token id " + std::to_string(token) + " is outside the vocabulary");
  }
  if (kv.n_layers() != c.n_layers || kv.kv_dim() != c.kv_dim()) {
    return make_error("the K/V rows do not match the model's shape");
  }
  if (pos < 0 || pos >= kv.length()) {
    return make_error("position " + std::to_string(pos) + " has no K/V row (" +
                      std::to_string(kv.length()) + " cached)");
  }
  if (c.learned_positions() && pos >= c.n_ctx) {
    return make_error("position " + std::to_string(pos) + " is beyond the learned positions");
  }
  return ok_status();
}

// The parts a pass of this model has, in the order they join the stream.
std::vector<PartId> part_ids(const Model& m) {
  const ModelConfig& c = m.config;
  std::vector<PartId> ids = {{PartKind::Embedding, -1, -1}};
  if (c.learned_positions()) ids.push_back({PartKind::Position, -1, -1});
  for (int l = 0; l < c.n_layers; ++l) {
    for (int h = 0; h < c.n_heads; ++h) ids.push_back({PartKind::Head, l, h});
    if (m.weights.layers[l].bo.size()) ids.push_back({PartKind::AttnBias, l, -1});
    ids.push_back({PartKind::Mlp, l, -1});
  }
  return ids;
}

// The working vectors of the recomputation.
struct Scratch {
  Vec x, xn, q, att, hb, hb2, cos, sin;
  std::vector<float> scores;
};

// Heads' outputs through their slices of Wo (times the block's factor s), rows from `row`.
void head_parts(const ModelConfig& c, const LayerWeights& w, const Vec& att, float s, Mat& parts,
                int row) {
  const int hd = c.head_dim();
  const bool quantized = !w.q.wo.empty();
  const Mat wo = quantized ? qmat_to_mat(w.q.wo) : Mat();  // (d_model, n_heads * head_dim)
  const Mat& wo_f = quantized ? wo : w.wo;
  const Vec a = quantized ? rounded_activation(att, w.q.wo.type) : att;
  for (int h = 0; h < c.n_heads; ++h) {
    const auto slice = wo_f.middleCols(static_cast<Eigen::Index>(h) * hd, hd);  // (d_model, hd)
    parts.row(row + h) =
        (s * (slice * a.segment(static_cast<Eigen::Index>(h) * hd, hd))).transpose();
  }
}

// One layer: the attention's parts (heads, bias) and the MLP's, each added to x in order.
void layer_pass(const Model& m, const KvCache& kv, int l, int pos, const InterventionSet* set,
                ThreadPool& pool, Scratch& s, Mat& parts, int& row) {
  const ModelConfig& c = m.config;
  const LayerWeights& w = m.weights.layers[l];
  const int d = c.d_model, hd = c.head_dim(), qd = c.n_heads * hd, ff = c.d_ff;
  norm(c, s.x, w.attn_norm, w.attn_norm_b, s.xn);
  project(pool, 1, {{&w.wq, &w.bq, s.xn.data(), d, s.q.data(), qd, false, &w.q.wq}});
  if (c.positions == PositionKind::Rope) {
    std::span<float> q{s.q.data(), static_cast<size_t>(qd)};
    if (c.rope == RopeStyle::NeoX) {
      rope_neox(q, hd, c.rotary_dims(), span_of(s.cos), span_of(s.sin));
    } else {
      rope_adjacent(q, hd, c.rotary_dims(), span_of(s.cos), span_of(s.sin));
    }
  }
  const AttentionInput in{s.q.data(), qd, &kv.keys(l), &kv.values(l), pos, 1, s.att.data(), qd};
  causal_attention(pool, c, in, s.scores, nullptr);
  for (int h = 0; set && h < c.n_heads; ++h) {
    s.att.segment(static_cast<Eigen::Index>(h) * hd, hd) *= set->head_scale(l, h);
  }
  const float s_attn = set ? set->attention_scale(l) : 1.0f;
  head_parts(c, w, s.att, s_attn, parts, row);
  for (int h = 0; h < c.n_heads; ++h) s.x += parts.row(row++).transpose();
  if (w.bo.size()) {
    parts.row(row) = s_attn * w.bo.transpose();
    s.x += parts.row(row++).transpose();
  }
  norm(c, s.x, w.ffn_norm, w.ffn_norm_b, s.xn);
  if (c.mlp == MlpKind::SwiGlu) {
    project(pool, 1,
            {{&w.w_gate, nullptr, s.xn.data(), d, s.hb.data(), ff, false, &w.q.w_gate},
             {&w.w_up, nullptr, s.xn.data(), d, s.hb2.data(), ff, false, &w.q.w_up}});
    silu_mul(span_of(s.hb), span_of(s.hb2));
  } else {
    project(pool, 1, {{&w.w_up, &w.b_up, s.xn.data(), d, s.hb.data(), ff, false, &w.q.w_up}});
    for (int i = 0; i < ff; ++i) s.hb[i] = gelu_tanh(s.hb[i]);
  }
  Vec mlp(d);
  project(pool, 1, {{&w.w_down, &w.b_down, s.hb.data(), ff, mlp.data(), d, false, &w.q.w_down}});
  parts.row(row) = ((set ? set->mlp_scale(l) : 1.0f) * mlp).transpose();
  s.x += parts.row(row++).transpose();
}

// Row `id` of the unembedding, decoded to double.
std::vector<double> unembedding_row(const Model& m, int id) {
  const int d = m.config.d_model;
  std::vector<float> f(d);
  if (!m.unembedding_q().empty()) {
    qmat_row_f32(m.unembedding_q(), id, f.data());
  } else {
    const float* r = m.unembedding().row(id).data();
    std::copy(r, r + d, f.begin());
  }
  return std::vector<double>(f.begin(), f.end());
}

// logit[id] of the final activation y, as the forward computes it (one fixed-order dot
// product, or the quantized kernel on y rounded to 8 bits).
double pass_logit(const Model& m, const Vec& y, int id) {
  const int d = m.config.d_model;
  const QMat& uq = m.unembedding_q();
  if (uq.empty()) return dot_fixed(m.unembedding().row(id).data(), y.data(), d);
  QActivation a;
  quantize_activation(y.data(), d, 1, d, qtype_act_block(uq.type), a);
  const QActRow row{a.d.data(), a.q.data(), a.sum16.data()};
  return qdot_row(uq.type, uq.row(id), uq.cols, row);
}

}  // namespace

std::string part_name(const PartId& p) {
  const std::string l = "L" + std::to_string(p.layer);
  switch (p.kind) {
    case PartKind::Embedding:
      return "embedding";
    case PartKind::Position:
      return "position";
    case PartKind::Head:
      return l + ".H" + std::to_string(p.head);
    case PartKind::AttnBias:
      return l + ".attn_bias";
    case PartKind::Mlp:
      return l + ".mlp";
    case PartKind::FinalNormBias:
      return "final_norm_bias";
    case PartKind::UnembedRounding:
      return "unembed_rounding";
  }
  return "?";
}

Result<PartId> parse_part_name(std::string_view name) {
  for (PartKind k : {PartKind::Embedding, PartKind::Position, PartKind::FinalNormBias,
                     PartKind::UnembedRounding}) {
    if (name == part_name({k, -1, -1})) return PartId{k, -1, -1};
  }
  const auto number = [](std::string_view s) {
    int v = -1;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() ? -1 : v;
  };
  const size_t dot = name.find('.');
  const int layer = name.size() > 1 && name[0] == 'L' && dot != std::string_view::npos
                        ? number(name.substr(1, dot - 1))
                        : -1;
  if (layer >= 0) {
    const std::string_view rest = name.substr(dot + 1);
    if (rest == "attn_bias") return PartId{PartKind::AttnBias, layer, -1};
    if (rest == "mlp") return PartId{PartKind::Mlp, layer, -1};
    if (rest.size() > 1 && rest[0] == 'H' && number(rest.substr(1)) >= 0) {
      return PartId{PartKind::Head, layer, number(rest.substr(1))};
    }
  }
  return make_error("'" + std::string(name) + "' is not a part name (embedding, position, " +
                    "L<l>.H<h>, L<l>.attn_bias, L<l>.mlp, final_norm_bias, unembed_rounding)");
}

Result<PositionPass> recompute_position(const Model& m, const KvCache& kv, int token, int pos,
                                        const InterventionSet* set, ThreadPool& pool) {
  TS_TRY(check_inputs(m, kv, token, pos));
  const ModelConfig& c = m.config;
  if (set) TS_TRY(validate(*set, c));
  if (set && set->empty()) set = nullptr;
  const int d = c.d_model, qd = c.n_heads * c.head_dim();
  PositionPass p;
  p.token = token;
  p.pos = pos;
  p.ids = part_ids(m);
  p.parts = Mat::Zero(static_cast<Eigen::Index>(p.ids.size()), d);
  p.layer_residual.resize(c.n_layers, d);
  Scratch s;
  s.x = Vec::Zero(d);
  s.xn.resize(d);
  s.q.resize(qd);
  s.att.resize(qd);
  s.hb.resize(c.d_ff);
  s.hb2.resize(c.d_ff);
  s.scores.resize(attention_scratch_floats(pool.size(), 1, pos + 1));
  if (c.positions == PositionKind::Rope) {
    s.cos.resize(c.rotary_dims() / 2);
    s.sin.resize(c.rotary_dims() / 2);
    rope_angles(pos, c.rotary_dims(), c.rope_theta, span_of(s.cos), span_of(s.sin));
  }
  int row = 0;
  Vec e(d);
  embedding_row(m, token, e.data());
  p.parts.row(row++) = e.transpose();
  s.x = e;
  if (c.learned_positions()) {
    p.parts.row(row++) = m.weights.pos_embd.row(pos);
    s.x += m.weights.pos_embd.row(pos).transpose();
  }
  for (int l = 0; l < c.n_layers; ++l) {
    layer_pass(m, kv, l, pos, set, pool, s, p.parts, row);
    p.layer_residual.row(l) = s.x.transpose();
  }
  p.residual = s.x;
  return p;
}

double LogitAttribution::sum() const { return std::accumulate(values.begin(), values.end(), 0.0); }

LogitAttribution attribute_logit_difference(const Model& m, const PositionPass& pass, int a,
                                            int b) {
  const ModelConfig& c = m.config;
  const Weights& w = m.weights;
  const int d = c.d_model;
  const bool layer_norm = c.norm == NormKind::Layer;
  LogitAttribution r;
  r.token_a = a;
  r.token_b = b;
  Vec y(d);  // the final activation, as the forward computes it
  norm(c, pass.residual, w.out_norm, w.out_norm_b, y);
  r.logit_a = pass_logit(m, y, a);
  r.logit_b = pass_logit(m, y, b);

  const std::vector<double> ua = unembedding_row(m, a), ub = unembedding_row(m, b);
  std::vector<double> du(d), dir(d);  // U[a] - U[b]; the direction each part is read along
  double mean = 0, sq = 0;
  for (int j = 0; j < d; ++j) {
    du[j] = ua[j] - ub[j];
    mean += pass.residual[j];
  }
  mean /= d;
  for (int j = 0; j < d; ++j) {
    const double v = layer_norm ? pass.residual[j] - mean : pass.residual[j];
    sq += v * v;
  }
  const double inv = 1.0 / std::sqrt(sq / d + static_cast<double>(c.norm_eps));
  double dir_mean = 0;
  for (int j = 0; j < d; ++j) {
    dir[j] = du[j] * static_cast<double>(w.out_norm[j]) * inv;
    dir_mean += dir[j];
  }
  dir_mean /= d;
  // LayerNorm subtracts each part's own mean: reading along dir - mean(dir) does the same.
  if (layer_norm) {
    for (double& v : dir) v -= dir_mean;
  }
  r.ids = pass.ids;
  r.values.resize(pass.ids.size());
  for (size_t k = 0; k < pass.ids.size(); ++k) {
    double v = 0;
    for (int j = 0; j < d; ++j) v += dir[j] * static_cast<double>(pass.parts(k, j));
    r.values[k] = v;
  }
  if (layer_norm && w.out_norm_b.size()) {
    double v = 0;
    for (int j = 0; j < d; ++j) v += du[j] * static_cast<double>(w.out_norm_b[j]);
    r.ids.push_back({PartKind::FinalNormBias, -1, -1});
    r.values.push_back(v);
  }
  if (!m.unembedding_q().empty()) {
    const Vec yq = rounded_activation(y, m.unembedding_q().type);
    double v = 0;
    for (int j = 0; j < d; ++j) v += du[j] * (static_cast<double>(yq[j]) - y[j]);
    r.ids.push_back({PartKind::UnembedRounding, -1, -1});
    r.values.push_back(v);
  }
  return r;
}

Mat lens_logits(const Model& m, const PositionPass& pass, ThreadPool& pool) {
  const ModelConfig& c = m.config;
  const Weights& w = m.weights;
  const int d = c.d_model, L = c.n_layers;
  Mat xn(L, d);  // (n_layers, d_model) through the final norm
  Vec row(d), out(d);
  for (int l = 0; l < L; ++l) {
    row = pass.layer_residual.row(l).transpose();
    norm(c, row, w.out_norm, w.out_norm_b, out);
    xn.row(l) = out.transpose();
  }
  Mat logits(L, c.vocab_size);  // (n_layers, vocab_size)
  const QMat& uq = m.unembedding_q();
  if (uq.empty()) {
    dot_rows(pool, m.unembedding(), xn.data(), d, L, logits.data(), c.vocab_size);
  } else {
    QActivation a;
    quantize_activation(xn.data(), d, L, d, qtype_act_block(uq.type), a);
    qmat_dot_rows(pool, uq, a, logits.data(), c.vocab_size);
  }
  return logits;
}

}  // namespace ts
