// Forward::run: the instrumented decoder pass, read top to bottom like the architecture diagram:
// embed -> per block [norm -> Q K V (K, V straight into the cache) -> RoPE -> causal attention
// -> output projection + residual -> norm -> MLP + residual] -> final norm -> unembedding.
// Scratch is allocated up front (one row, n_ctx keys) and grows only for a larger prefill, so a
// decode step allocates nothing. What gets recorded is decided by RecordLevel (record.h).
#include "engine/forward.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "engine/attention.h"
#include "engine/cost.h"
#include "engine/dot_rows.h"
#include "engine/linear.h"
#include "engine/ops.h"
#include "engine/top_k.h"

namespace ts {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kLogitChunk = 32;  // prefill rows unembedded at once when every position is shown

std::span<float> row_span(Mat& m, int r) { return {m.row(r).data(), static_cast<size_t>(m.cols())}; }
std::span<const float> vec_span(const Vec& v) { return {v.data(), static_cast<size_t>(v.size())}; }

// Resets `rec` for a pass and sizes what `level` fills (Off keeps only the scalars, input ids and
// logits; vectors are cleared, not freed and reallocated, when a record is reused).
void begin_record(ForwardRecord& rec, const ModelConfig& c, std::span<const int> tokens, int p0,
                  RecordLevel level, bool lens_in_pass) {
  const int T = static_cast<int>(tokens.size());
  rec.phase = T > 1 ? Phase::Prefill : Phase::Decode;
  rec.first_pos = p0;
  rec.n_positions = T;
  rec.input_ids.assign(tokens.begin(), tokens.end());
  rec.residual_norms.clear();
  rec.cost = CostRecord{};
  rec.logit_lens.clear();
  if (level != RecordLevel::Full) rec.lens_residuals.clear();
  if (level == RecordLevel::Off) {
    rec.position_top.clear();
    rec.attention.clear();
    return;
  }
  rec.residual_norms.reserve(1 + 2 * static_cast<size_t>(c.n_layers));
  rec.position_top.resize(T);
  for (auto& top : rec.position_top) top.clear();
  if (level != RecordLevel::Full) {
    rec.attention.clear();
    return;
  }
  rec.lens_residuals.resize(static_cast<size_t>(c.n_layers) * c.d_model);
  if (lens_in_pass) rec.logit_lens.resize(c.n_layers);
  rec.attention.resize(c.n_layers);
  // Per head: rows of length p0 + 1 .. p0 + T, a packed lower triangle.
  const size_t per_head = static_cast<size_t>(T) * (p0 + 1) + static_cast<size_t>(T) * (T - 1) / 2;
  for (AttentionMap& a : rec.attention) {
    a.n_heads = c.n_heads;
    a.first_pos = p0;
    a.n_rows = T;
    a.probs_f16.resize(per_head * c.n_heads);
  }
}

}  // namespace

struct Forward::Impl {
  const Model& model;
  const ModelConfig& c;
  Status valid;
  ThreadPool pool;

  int rows_cap = 0;            // rows of the activation scratch below
  Mat x;                       // (rows_cap, d_model) residual stream
  Mat xn;                      // (rows_cap, d_model) normalised input of the current sub-block
  Mat q;                       // (rows_cap, n_heads * head_dim)
  Mat att;                     // (rows_cap, n_heads * head_dim) attention output, heads side by side
  Mat hb;                      // (rows_cap, d_ff) SwiGLU gate / GPT-2 hidden
  Mat hb2;                     // (rows_cap, d_ff) SwiGLU up
  std::vector<float> scores;   // attention scratch, see attention_scratch_floats
  Mat rope_cos, rope_sin;      // (n_pos, head_dim / 2) rotation table
  Vec out_x;                   // (d_model) last position after the final norm
  Vec logits;                  // (vocab_size) last position
  Mat chunk_x;                 // (kLogitChunk, d_model) prefill rows after the final norm
  Mat chunk_logits;            // (kLogitChunk, vocab_size)
  Mat lens_x;                  // (n_layers, d_model) last position after each block (Full only)
  Mat lens_xn;                 // (n_layers, d_model) the same through the final norm
  QActivation unembed_act;     // the rows being unembedded, quantized (quantized unembedding)
  WeightBytes weight_bytes;    // bytes per stored weight value, for the cost record
  Mat lens_logits;             // (n_layers, vocab_size) logit lens, one row per block
  const InterventionSet* iv = nullptr;  // this pass's interventions (null: none)
  Mat every_xn;                // (T, d_model) every row after the final norm (opt.all_logits)
  Mat every_logits;            // (T, vocab_size) every row's logits (opt.all_logits)

  Impl(const Model& m, int n_threads)
      : model(m), c(m.config), valid(validate_model(m)), pool(n_threads),
        weight_bytes(weight_bytes_per_value(m)) {
    if (!valid.ok()) return;
    out_x = Vec::Zero(c.d_model);
    logits = Vec::Zero(c.vocab_size);
    ensure(1, c.n_ctx);
  }

  // Grow the scratch for T rows attending n_keys cache rows (no-op once big enough).
  void ensure(int T, int n_keys) {
    if (T > rows_cap) {
      const int qd = c.n_heads * c.head_dim();
      x.resize(T, c.d_model);
      xn.resize(T, c.d_model);
      q.resize(T, qd);
      att.resize(T, qd);
      hb.resize(T, c.d_ff);
      hb2.resize(T, c.mlp == MlpKind::SwiGlu ? c.d_ff : 0);
      rows_cap = T;
    }
    const size_t need = attention_scratch_floats(pool.size(), T, n_keys);
    if (scores.size() < need) scores.resize(need);
    if (c.positions == PositionKind::Rope && rope_cos.rows() < n_keys) {
      const int half = c.rotary_dims() / 2;
      rope_cos.resize(n_keys, half);
      rope_sin.resize(n_keys, half);
      for (int p = 0; p < n_keys; ++p) {
        rope_angles(p, c.rotary_dims(), c.rope_theta, row_span(rope_cos, p), row_span(rope_sin, p));
      }
    }
  }

  Status check(const KvCache& kv, std::span<const int> tokens) const {
    if (!valid.ok()) return valid.error();
    if (tokens.empty()) return make_error("forward: no tokens to process");
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i] < 0 || tokens[i] >= c.vocab_size) {
        return make_error("forward: token id " + std::to_string(tokens[i]) + " at index " +
                          std::to_string(i) + " is outside the vocabulary (0.." +
                          std::to_string(c.vocab_size - 1) + ")");
      }
    }
    if (kv.n_layers() != c.n_layers || kv.kv_dim() != c.kv_dim()) {
      return make_error("forward: KV cache shape (" + std::to_string(kv.n_layers()) + " layers x " +
                        std::to_string(kv.kv_dim()) + ") does not match the model (" +
                        std::to_string(c.n_layers) + " x " + std::to_string(c.kv_dim()) + ")");
    }
    const long end = static_cast<long>(kv.length()) + static_cast<long>(tokens.size());
    if (end > kv.capacity()) {
      return make_error("forward: KV cache full: " + std::to_string(kv.length()) + " cached + " +
                        std::to_string(tokens.size()) + " new positions > capacity " +
                        std::to_string(kv.capacity()));
    }
    if (c.learned_positions() && end > c.n_ctx) {
      return make_error("forward: position " + std::to_string(end - 1) +
                        " is beyond the learned position table (n_ctx " +
                        std::to_string(c.n_ctx) + ")");
    }
    return ok_status();
  }

  // ---- the operations of the pass, in order --------------------------------------------------

  void embed(std::span<const int> tokens, int first_pos) {
    const Weights& w = model.weights;
    for (size_t r = 0; r < tokens.size(); ++r) {
      embedding_row(model, tokens[r], x.row(r).data());
      if (c.learned_positions()) x.row(r) += w.pos_embd.row(first_pos + r);
    }
  }

  // f(begin, end) over the rows [0, T), split across the pool for a prefill (a decode's single
  // row stays on this thread). Each row's result depends only on the row, not on the split.
  template <class F>
  void for_rows(int T, F f) {
    constexpr int kMinParallelRows = 16;
    const int nc = T >= kMinParallelRows ? pool.size() : 1;
    pool.run(nc, [&](int chunk, int n_chunks) {
      const Range r = split_range(T, chunk, n_chunks);
      if (r.size() > 0) f(r.begin, r.end);
    });
  }

  // out = norm(in) row by row: the family's RMSNorm or LayerNorm. in rows [r0, r0 + n) into
  // out rows [out_r0, out_r0 + n).
  void norm_rows(const Mat& in, Mat& out, int r0, int n, const Vec& gain, const Vec& bias,
                 int out_r0 = 0) {
    for (int r = 0; r < n; ++r) {
      std::span<const float> src{in.row(r0 + r).data(), static_cast<size_t>(c.d_model)};
      std::span<float> dst{out.row(out_r0 + r).data(), static_cast<size_t>(c.d_model)};
      norm_by_kind(c.norm, src, vec_span(gain), vec_span(bias), c.norm_eps, dst);
    }
  }

  void rope_rows(KvCache& kv, int layer, int first_pos, int r_begin, int r_end) {
    const int half = c.rotary_dims() / 2, qd = c.n_heads * c.head_dim(), kvd = c.kv_dim();
    const int hd = c.head_dim(), n_rot = c.rotary_dims();
    for (int r = r_begin; r < r_end; ++r) {
      std::span<const float> cs{rope_cos.row(first_pos + r).data(), static_cast<size_t>(half)};
      std::span<const float> sn{rope_sin.row(first_pos + r).data(), static_cast<size_t>(half)};
      std::span<float> qr{q.row(r).data(), static_cast<size_t>(qd)};
      std::span<float> kr{kv.keys(layer).row(first_pos + r).data(), static_cast<size_t>(kvd)};
      if (c.rope == RopeStyle::NeoX) {
        rope_neox(qr, hd, n_rot, cs, sn);
        rope_neox(kr, hd, n_rot, cs, sn);
      } else {
        rope_adjacent(qr, hd, n_rot, cs, sn);
        rope_adjacent(kr, hd, n_rot, cs, sn);
      }
    }
  }

  // x += Wo · attention(norm(x)): Q K V, K V into cache rows first_pos.., RoPE, causal attention.
  void attention_block(int layer, KvCache& kv, int first_pos, int T, AttentionMap* map) {
    const LayerWeights& w = model.weights.layers[layer];
    const int d = c.d_model, qd = c.n_heads * c.head_dim(), kvd = c.kv_dim();
    for_rows(T, [&](int b, int e) {
      norm_rows(x, xn, b, e - b, w.attn_norm, w.attn_norm_b, b);
    });
    float* k_rows = kv.keys(layer).row(first_pos).data();    // (T, kv_dim) in the cache
    float* v_rows = kv.values(layer).row(first_pos).data();  // (T, kv_dim) in the cache
    project(pool, T, {{&w.wq, &w.bq, xn.data(), d, q.data(), qd, false, &w.q.wq},
                      {&w.wk, &w.bk, xn.data(), d, k_rows, kvd, false, &w.q.wk},
                      {&w.wv, &w.bv, xn.data(), d, v_rows, kvd, false, &w.q.wv}});
    if (c.positions == PositionKind::Rope) {
      for_rows(T, [&](int b, int e) { rope_rows(kv, layer, first_pos, b, e); });
    }
    const AttentionInput in{q.data(), qd, &kv.keys(layer), &kv.values(layer), first_pos, T,
                            att.data(), qd};
    causal_attention(pool, c, in, scores, map);
    if (iv) scale_heads(layer, T);
    add_output(w.wo, w.bo, w.q.wo, att.data(), qd, iv ? iv->attention_scale(layer) : 1.0f, T);
  }

  // Interventions on heads: head h's slice of the attention output times its factor, so its
  // share of the output projection is scaled (a factor 0 switches the head off).
  void scale_heads(int layer, int T) {
    if (!iv->touches_heads(layer)) return;
    const int hd = c.head_dim();
    for (int h = 0; h < c.n_heads; ++h) {
      const float s = iv->head_scale(layer, h);
      if (s != 1.0f) att.block(0, static_cast<Eigen::Index>(h) * hd, T, hd) *= s;
    }
  }

  // x += s * (W in + b), rows [0, T): straight into x when s == 1 (every pass without an
  // intervention), else through xn, which the sub-block no longer needs by then.
  void add_output(const Mat& w, const Vec& b, const QMat& wq, const float* in, int ld_in, float s,
                  int T) {
    const int d = c.d_model;
    if (s == 1.0f) {
      project(pool, T, {{&w, &b, in, ld_in, x.data(), d, true, &wq}});
      return;
    }
    project(pool, T, {{&w, &b, in, ld_in, xn.data(), d, false, &wq}});
    x.topRows(T).noalias() += s * xn.topRows(T);
  }

  // x += MLP(norm(x)): SwiGLU w_down(silu(w_gate h) * (w_up h)), or GPT-2 w_down(gelu(w_up h)).
  void mlp_block(int layer, int T) {
    const LayerWeights& w = model.weights.layers[layer];
    const int d = c.d_model, ff = c.d_ff;
    for_rows(T, [&](int b, int e) {
      norm_rows(x, xn, b, e - b, w.ffn_norm, w.ffn_norm_b, b);
    });
    if (c.mlp == MlpKind::SwiGlu) {
      project(pool, T, {{&w.w_gate, nullptr, xn.data(), d, hb.data(), ff, false, &w.q.w_gate},
                        {&w.w_up, nullptr, xn.data(), d, hb2.data(), ff, false, &w.q.w_up}});
      for_rows(T, [&](int b, int e) {
        const size_t off = static_cast<size_t>(b) * ff, len = static_cast<size_t>(e - b) * ff;
        silu_mul({hb.data() + off, len}, {hb2.data() + off, len});
      });
    } else {
      project(pool, T, {{&w.w_up, &w.b_up, xn.data(), d, hb.data(), ff, false, &w.q.w_up}});
      for_rows(T, [&](int b, int e) {
        float* h = hb.data();
        for (size_t i = static_cast<size_t>(b) * ff; i < static_cast<size_t>(e) * ff; ++i) {
          h[i] = gelu_tanh(h[i]);
        }
      });
    }
    add_output(w.w_down, w.b_down, w.q.w_down, hb.data(), ff, iv ? iv->mlp_scale(layer) : 1.0f, T);
  }

  // y row t (vocab_size) = unembedding · xs row t (d_model), t < T: few rows, each output one
  // fixed-order dot product (fp32 or quantized), so a row's logits do not depend on T.
  void unembed_rows(const float* xs, int T, float* y) {
    const QMat& uq = model.unembedding_q();
    if (uq.empty()) {
      dot_rows(pool, model.unembedding(), xs, c.d_model, T, y, c.vocab_size);
      return;
    }
    quantize_activation(xs, c.d_model, T, c.d_model, qtype_act_block(uq.type), unembed_act);
    qmat_dot_rows(pool, uq, unembed_act, y, c.vocab_size);
  }

  // logits (vocab_size) = unembedding · final_norm(x row `row`), into `out`.
  void unembed_row(int row, Vec& out) {
    const Weights& w = model.weights;
    std::span<const float> src{x.row(row).data(), static_cast<size_t>(c.d_model)};
    std::span<float> dst{out_x.data(), static_cast<size_t>(c.d_model)};
    norm_by_kind(c.norm, src, vec_span(w.out_norm), vec_span(w.out_norm_b), c.norm_eps, dst);
    unembed_rows(out_x.data(), 1, out.data());
  }

  // Every row's logits (a prefill that shows each position's prediction), kLogitChunk at a time;
  // top-k of row r into tops[r]; the last row's full vector into `logits`.
  void unembed_all(int T, int k, std::vector<std::vector<TokenScore>>& tops) {
    const Weights& w = model.weights;
    if (chunk_x.rows() == 0) {
      chunk_x.resize(kLogitChunk, c.d_model);
      chunk_logits.resize(kLogitChunk, c.vocab_size);
    }
    for (int r0 = 0; r0 < T; r0 += kLogitChunk) {
      const int n = std::min(kLogitChunk, T - r0);
      norm_rows(x, chunk_x, r0, n, w.out_norm, w.out_norm_b);
      project(pool, n, {{&model.unembedding(), nullptr, chunk_x.data(), c.d_model,
                         chunk_logits.data(), c.vocab_size, false, &model.unembedding_q()}});
      for (int i = 0; i < n; ++i) {
        top_k_scores({chunk_logits.row(i).data(), static_cast<size_t>(c.vocab_size)}, k,
                     tops[r0 + i]);
      }
      if (r0 + n == T) logits = chunk_logits.row(n - 1).transpose();
    }
  }

  // Every row's full logits into every_logits (opt.all_logits), the last one also into logits.
  void unembed_every_row(int T) {
    const Weights& w = model.weights;
    every_xn.resize(T, c.d_model);
    every_logits.resize(T, c.vocab_size);
    norm_rows(x, every_xn, 0, T, w.out_norm, w.out_norm_b);
    unembed_rows(every_xn.data(), T, every_logits.data());
    logits = every_logits.row(T - 1).transpose();
  }

  float last_norm(int T) const { return x.row(T - 1).norm(); }
};

Forward::Forward(const Model& model, int n_threads)
    : impl_(std::make_unique<Impl>(model, n_threads)) {}
Forward::~Forward() = default;
const Vec& Forward::logits() const { return impl_->logits; }
const Mat& Forward::all_logits() const { return impl_->every_logits; }
const Model& Forward::model() const { return impl_->model; }
int Forward::n_threads() const { return impl_->pool.size(); }
ThreadPool& Forward::pool() { return impl_->pool; }

Status Forward::run(KvCache& kv, std::span<const int> tokens, const ForwardOptions& opt,
                    ForwardRecord* rec) {
  const auto t_start = Clock::now();
  Impl& m = *impl_;
  TS_TRY(m.check(kv, tokens));
  const ModelConfig& c = m.c;
  const int T = static_cast<int>(tokens.size());
  const int p0 = kv.length();
  const RecordLevel level = rec ? opt.level : RecordLevel::Off;
  const bool summary = level != RecordLevel::Off, full = level == RecordLevel::Full;
  m.ensure(T, p0 + T);
  m.iv = opt.interventions && !opt.interventions->empty() ? opt.interventions : nullptr;
  const bool eager_lens = full && opt.lens_in_pass;
  if (rec) begin_record(*rec, c, tokens, p0, level, eager_lens);
  Clock::duration lens_time{};

  m.embed(tokens, p0);
  if (summary) rec->residual_norms.push_back(m.last_norm(T));
  for (int l = 0; l < c.n_layers; ++l) {
    m.attention_block(l, kv, p0, T, full ? &rec->attention[l] : nullptr);
    if (summary) rec->residual_norms.push_back(m.last_norm(T));
    m.mlp_block(l, T);
    if (summary) rec->residual_norms.push_back(m.last_norm(T));
    if (full) {  // logit lens: keep this block's last row (unembedded on demand: logit_lens.h)
      const float* last = m.x.row(T - 1).data();
      std::copy(last, last + c.d_model,
                rec->lens_residuals.begin() + static_cast<ptrdiff_t>(l) * c.d_model);
    }
    if (eager_lens) {  // ... or all unembedded after the loop, in this pass
      if (m.lens_x.rows() != c.n_layers) {
        m.lens_x.resize(c.n_layers, c.d_model);
        m.lens_xn.resize(c.n_layers, c.d_model);
        m.lens_logits.resize(c.n_layers, c.vocab_size);
      }
      m.lens_x.row(l) = m.x.row(T - 1);
    }
  }
  // A prefill that shows every position's prediction unembeds all T rows (position_top_k > 0).
  const bool all_rows = summary && T > 1 && opt.position_top_k > 0;
  if (eager_lens) {  // every block's row through the final norm and the unembedding in one product,
               // so the unembedding matrix is read once per pass, not once per block; the last
               // block's row is the final position's, so its row is also the pass's logits
    const auto t_lens = Clock::now();
    const Weights& w = m.model.weights;
    m.norm_rows(m.lens_x, m.lens_xn, 0, c.n_layers, w.out_norm, w.out_norm_b);
    m.unembed_rows(m.lens_xn.data(), c.n_layers, m.lens_logits.data());
    m.pool.run(c.n_layers, [&](int l, int) {  // each block's top-k on its own, in parallel
      std::span<const float> row{m.lens_logits.row(l).data(), static_cast<size_t>(c.vocab_size)};
      top_k_scores(row, opt.lens_top_k, rec->logit_lens[l]);
    });
    // The lens's share of the product (all rows but the final one) is not the pass's cost.
    lens_time += (Clock::now() - t_lens) * (c.n_layers - 1) / c.n_layers;
  }
  if (opt.all_logits) {
    m.unembed_every_row(T);
    for (int r = 0; summary && r < T; ++r) {
      top_k_scores({m.every_logits.row(r).data(), static_cast<size_t>(c.vocab_size)},
                   opt.position_top_k, rec->position_top[r]);
    }
  } else if (all_rows) {
    m.unembed_all(T, opt.position_top_k, rec->position_top);
  } else {
    if (eager_lens) {
      m.logits = m.lens_logits.row(c.n_layers - 1).transpose();  // same bits as unembed_row
    } else {
      m.unembed_row(T - 1, m.logits);
    }
    if (summary) top_k_scores(vec_span(m.logits), opt.position_top_k, rec->position_top[T - 1]);
  }
  kv.advance(T);

  if (!rec) return ok_status();
  rec->logits.assign(m.logits.data(), m.logits.data() + m.logits.size());
  rec->kv = KvRecord{p0, kv.length(), kv.capacity(), kv.bytes_used(), kv.bytes_capacity()};
  if (summary) {
    rec->cost = estimate_cost(c, PassShape{p0, T, all_rows || opt.all_logits ? T : 1}, full,
                              m.weight_bytes);
    rec->cost.seconds =
        std::chrono::duration<double>(Clock::now() - t_start - lens_time).count();
  }
  return ok_status();
}

}  // namespace ts
