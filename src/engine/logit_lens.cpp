// The logit lens from a record's kept residual rows (logit_lens.h).
#include "engine/logit_lens.h"

#include <span>
#include <utility>

#include "engine/dot_rows.h"
#include "engine/ops.h"
#include "engine/quant/qmat.h"
#include "engine/top_k.h"

namespace ts {

Mat lens_logits_of_rows(const Model& m, const float* rows, int n_rows, ThreadPool& pool) {
  const ModelConfig& c = m.config;
  const Weights& w = m.weights;
  const size_t d = static_cast<size_t>(c.d_model);
  Mat xn(n_rows, c.d_model);  // (n_rows, d_model) through the final norm
  std::span<const float> gain{w.out_norm.data(), static_cast<size_t>(w.out_norm.size())};
  std::span<const float> bias{w.out_norm_b.data(), static_cast<size_t>(w.out_norm_b.size())};
  for (int r = 0; r < n_rows; ++r) {
    std::span<const float> src{rows + r * d, d};
    std::span<float> dst{xn.row(r).data(), d};
    norm_by_kind(c.norm, src, gain, bias, c.norm_eps, dst);
  }
  Mat logits(n_rows, c.vocab_size);  // (n_rows, vocab_size)
  const QMat& uq = m.unembedding_q();
  if (uq.empty()) {
    dot_rows(pool, m.unembedding(), xn.data(), c.d_model, n_rows, logits.data(), c.vocab_size);
  } else {
    QActivation a;
    quantize_activation(xn.data(), c.d_model, n_rows, c.d_model, qtype_act_block(uq.type), a);
    qmat_dot_rows(pool, uq, a, logits.data(), c.vocab_size);
  }
  return logits;
}

bool has_logit_lens(const ForwardRecord& rec) {
  return !rec.logit_lens.empty() || !rec.lens_residuals.empty();
}

const std::vector<std::vector<TokenScore>>& ensure_logit_lens(const Model& m,
                                                               const ForwardRecord& rec,
                                                               int top_k, ThreadPool& pool) {
  const ModelConfig& c = m.config;
  const size_t d = static_cast<size_t>(c.d_model);
  if (!rec.logit_lens.empty() || rec.lens_residuals.empty()) return rec.logit_lens;
  if (c.n_layers <= 0 || rec.lens_residuals.size() != d * static_cast<size_t>(c.n_layers)) {
    return rec.logit_lens;  // another model's record: nothing this model can unembed
  }
  const Mat logits = lens_logits_of_rows(m, rec.lens_residuals.data(), c.n_layers, pool);
  std::vector<std::vector<TokenScore>> lens(c.n_layers);
  pool.run(c.n_layers, [&](int l, int) {  // each block's top-k on its own, in parallel
    top_k_scores({logits.row(l).data(), static_cast<size_t>(c.vocab_size)}, top_k, lens[l]);
  });
  rec.logit_lens = std::move(lens);
  return rec.logit_lens;
}

}  // namespace ts
