// Model bookkeeping: allocation by config, shape validation, parameter and byte counts, and
// the few places that read a matrix whichever way it is stored (embedding rows, dequantizing).
#include "engine/model.h"

#include <algorithm>
#include <sstream>

namespace ts {

namespace {

size_t count(const Mat& m) { return static_cast<size_t>(m.size()); }
size_t count(const Vec& v) { return static_cast<size_t>(v.size()); }
size_t count(const QMat& m) { return static_cast<size_t>(m.rows) * m.cols; }
size_t stored_bytes(const Mat& m) { return count(m) * sizeof(float); }
size_t stored_bytes(const QMat& m) { return m.bytes(); }

// A matrix stored either way: the quantized one when it is not empty (the fp32 one must be).
Status check_mat(const std::string& name, const Mat& m, const QMat& q, long rows, long cols) {
  if (!q.empty()) {
    if (m.size() || q.rows != rows || q.cols != cols ||
        q.blocks.size() != q.row_bytes * static_cast<size_t>(q.rows)) {
      std::ostringstream os;
      os << name << ": expected " << rows << "x" << cols << ", got " << q.rows << "x" << q.cols
         << " " << qtype_name(q.type);
      return make_error(os.str());
    }
    return ok_status();
  }
  if (m.rows() != rows || m.cols() != cols) {
    std::ostringstream os;
    os << name << ": expected " << rows << "x" << cols << ", got " << m.rows() << "x" << m.cols();
    return make_error(os.str());
  }
  return ok_status();
}

Status check_vec(const std::string& name, const Vec& v, long n, bool required) {
  if (!required && v.size() == 0) return ok_status();
  if (v.size() != n) {
    std::ostringstream os;
    os << name << ": expected " << n << " values, got " << v.size();
    return make_error(os.str());
  }
  return ok_status();
}

}  // namespace

size_t Model::parameter_count() const {
  const Weights& w = weights;
  size_t n = count(w.tok_embd) + count(w.tok_embd_q) + count(w.pos_embd) + count(w.out_norm) +
             count(w.out_norm_b) + count(w.output) + count(w.output_q);
  for (const LayerWeights& l : w.layers) {
    n += count(l.attn_norm) + count(l.attn_norm_b) + count(l.bq) + count(l.bk) + count(l.bv) +
         count(l.bo) + count(l.ffn_norm) + count(l.ffn_norm_b) + count(l.b_up) + count(l.b_down);
    for_each_block_matrix(l, [&](const Mat& m, const QMat& q) { n += count(m) + count(q); });
  }
  return n;
}

size_t Model::weight_bytes() const {
  // A decode step reads every block weight, the unembedding, and one embedding row (ignored).
  const Weights& w = weights;
  size_t n = (count(w.out_norm) + count(w.out_norm_b)) * sizeof(float) +
             stored_bytes(unembedding()) + stored_bytes(unembedding_q());
  for (const LayerWeights& l : w.layers) {
    n += (count(l.attn_norm) + count(l.attn_norm_b) + count(l.bq) + count(l.bk) + count(l.bv) +
          count(l.bo) + count(l.ffn_norm) + count(l.ffn_norm_b) + count(l.b_up) +
          count(l.b_down)) * sizeof(float);
    for_each_block_matrix(l, [&](const Mat& m, const QMat& q) {
      n += stored_bytes(m) + stored_bytes(q);
    });
  }
  return n;
}

bool Model::is_quantized() const {
  bool any = !weights.tok_embd_q.empty() || !weights.output_q.empty();
  for (const LayerWeights& l : weights.layers) {
    for_each_block_matrix(l, [&](const Mat&, const QMat& q) { any = any || !q.empty(); });
  }
  return any;
}

void dequantize_weights(Model& m) {
  auto decode = [](Mat& f, QMat& q) {
    if (q.empty()) return;
    f = qmat_to_mat(q);
    q = QMat{};
  };
  Weights& w = m.weights;
  decode(w.tok_embd, w.tok_embd_q);
  decode(w.output, w.output_q);
  for (LayerWeights& l : w.layers) for_each_block_matrix(l, decode);
}

WeightBytes weight_bytes_per_value(const Model& m) {
  auto per_value = [](const Mat& f, const QMat& q) {
    return q.empty() ? 4.0 : static_cast<double>(q.bytes()) / (static_cast<double>(q.rows) * q.cols);
  };
  WeightBytes wb;
  double bytes = 0.0, values = 0.0;
  for (const LayerWeights& l : m.weights.layers) {
    for_each_block_matrix(l, [&](const Mat& f, const QMat& q) {
      bytes += static_cast<double>(stored_bytes(f) + stored_bytes(q));
      values += static_cast<double>(count(f) + count(q));
    });
  }
  if (values > 0) wb.matrix = bytes / values;
  wb.unembed = per_value(m.unembedding(), m.unembedding_q());
  wb.embed = per_value(m.weights.tok_embd, m.weights.tok_embd_q);
  return wb;
}

double logit_tolerance(const Model& m) {
  double tol = 1e-4;
  auto widen = [&](const QMat& q) {
    if (q.empty()) return;
    tol = std::max(tol, q.type == QType::Q4_K || q.type == QType::Q5_K ? 4e-2 : 3e-2);
  };
  widen(m.unembedding_q());
  for (const LayerWeights& l : m.weights.layers) {
    for_each_block_matrix(l, [&](const Mat&, const QMat& q) { widen(q); });
  }
  return tol;
}

void embedding_row(const Model& m, int token, float* out) {
  const Weights& w = m.weights;
  if (!w.tok_embd_q.empty()) {
    qmat_row_f32(w.tok_embd_q, token, out);
  } else {
    std::copy(w.tok_embd.row(token).data(), w.tok_embd.row(token).data() + w.tok_embd.cols(),
              out);
  }
}

Model allocate_model(const ModelConfig& c) {
  Model m;
  m.config = c;
  const bool layer_norm = c.norm == NormKind::Layer, dense = c.dense_bias;
  const int qd = c.n_heads * c.head_dim();
  Weights& w = m.weights;
  w.tok_embd = Mat::Zero(c.vocab_size, c.d_model);
  if (c.learned_positions()) w.pos_embd = Mat::Zero(c.n_ctx, c.d_model);
  w.out_norm = Vec::Ones(c.d_model);
  if (layer_norm) w.out_norm_b = Vec::Zero(c.d_model);
  if (!c.tied_embeddings) w.output = Mat::Zero(c.vocab_size, c.d_model);
  w.layers.resize(c.n_layers);
  for (LayerWeights& l : w.layers) {
    l.attn_norm = Vec::Ones(c.d_model);
    l.ffn_norm = Vec::Ones(c.d_model);
    l.wq = Mat::Zero(qd, c.d_model);
    l.wk = Mat::Zero(c.kv_dim(), c.d_model);
    l.wv = Mat::Zero(c.kv_dim(), c.d_model);
    l.wo = Mat::Zero(c.d_model, qd);
    l.w_up = Mat::Zero(c.d_ff, c.d_model);
    l.w_down = Mat::Zero(c.d_model, c.d_ff);
    if (c.mlp == MlpKind::SwiGlu) l.w_gate = Mat::Zero(c.d_ff, c.d_model);
    if (c.qkv_bias) {
      l.bq = Vec::Zero(qd);
      l.bk = Vec::Zero(c.kv_dim());
      l.bv = Vec::Zero(c.kv_dim());
    }
    if (layer_norm) {
      l.attn_norm_b = Vec::Zero(c.d_model);
      l.ffn_norm_b = Vec::Zero(c.d_model);
    }
    if (dense) {
      l.bo = Vec::Zero(c.d_model);
      l.b_up = Vec::Zero(c.d_ff);
      l.b_down = Vec::Zero(c.d_model);
    }
  }
  return m;
}

Status validate_model(const Model& m) {
  const ModelConfig& c = m.config;
  if (c.n_layers <= 0 || c.n_heads <= 0 || c.n_kv_heads <= 0 || c.d_model <= 0 || c.d_ff <= 0 ||
      c.vocab_size <= 0 || c.n_ctx <= 0) {
    return make_error("model config: every size must be positive");
  }
  if (c.d_model % c.n_heads != 0) return make_error("model config: d_model % n_heads != 0");
  if (c.n_heads % c.n_kv_heads != 0) return make_error("model config: n_heads % n_kv_heads != 0");
  if (c.positions == PositionKind::Rope &&
      (c.rotary_dims() % 2 != 0 || c.rotary_dims() > c.head_dim())) {
    return make_error("model config: RoPE turns " + std::to_string(c.rotary_dims()) +
                      " dimensions of a head of " + std::to_string(c.head_dim()) +
                      " (an even count, at most the head size)");
  }
  if (c.dense_bias && c.mlp != MlpKind::Gelu) {
    return make_error("model config: dense biases come with the GELU MLP only");
  }
  const bool learned = c.learned_positions(), layer_norm = c.norm == NormKind::Layer;
  const bool dense = c.dense_bias, gated = c.mlp == MlpKind::SwiGlu;
  const int qd = c.n_heads * c.head_dim();
  const Weights& w = m.weights;
  TS_TRY(check_mat("token_embd", w.tok_embd, w.tok_embd_q, c.vocab_size, c.d_model));
  if (learned) TS_TRY(check_mat("position_embd", w.pos_embd, QMat{}, c.n_ctx, c.d_model));
  TS_TRY(check_vec("output_norm", w.out_norm, c.d_model, true));
  TS_TRY(check_vec("output_norm.bias", w.out_norm_b, c.d_model, layer_norm));
  if (m.has_output()) TS_TRY(check_mat("output", w.output, w.output_q, c.vocab_size, c.d_model));
  if (static_cast<int>(w.layers.size()) != c.n_layers) {
    return make_error("model: expected " + std::to_string(c.n_layers) + " blocks, got " +
                      std::to_string(w.layers.size()));
  }
  for (int i = 0; i < c.n_layers; ++i) {
    const LayerWeights& l = w.layers[i];
    const std::string b = "blk." + std::to_string(i) + ".";
    TS_TRY(check_vec(b + "attn_norm", l.attn_norm, c.d_model, true));
    TS_TRY(check_vec(b + "attn_norm.bias", l.attn_norm_b, c.d_model, layer_norm));
    TS_TRY(check_mat(b + "attn_q", l.wq, l.q.wq, qd, c.d_model));
    TS_TRY(check_mat(b + "attn_k", l.wk, l.q.wk, c.kv_dim(), c.d_model));
    TS_TRY(check_mat(b + "attn_v", l.wv, l.q.wv, c.kv_dim(), c.d_model));
    TS_TRY(check_mat(b + "attn_output", l.wo, l.q.wo, c.d_model, qd));
    TS_TRY(check_vec(b + "attn_q.bias", l.bq, qd, c.qkv_bias));
    TS_TRY(check_vec(b + "attn_k.bias", l.bk, c.kv_dim(), c.qkv_bias));
    TS_TRY(check_vec(b + "attn_v.bias", l.bv, c.kv_dim(), c.qkv_bias));
    TS_TRY(check_vec(b + "attn_output.bias", l.bo, c.d_model, dense));
    TS_TRY(check_vec(b + "ffn_norm", l.ffn_norm, c.d_model, true));
    TS_TRY(check_vec(b + "ffn_norm.bias", l.ffn_norm_b, c.d_model, layer_norm));
    if (gated) TS_TRY(check_mat(b + "ffn_gate", l.w_gate, l.q.w_gate, c.d_ff, c.d_model));
    TS_TRY(check_mat(b + "ffn_up", l.w_up, l.q.w_up, c.d_ff, c.d_model));
    TS_TRY(check_mat(b + "ffn_down", l.w_down, l.q.w_down, c.d_model, c.d_ff));
    TS_TRY(check_vec(b + "ffn_up.bias", l.b_up, c.d_ff, dense));
    TS_TRY(check_vec(b + "ffn_down.bias", l.b_down, c.d_model, dense));
  }
  return ok_status();
}

}  // namespace ts
