// Parameter layout, initialisation and conversion to the engine's Model.
#include "train/params.h"

#include <algorithm>
#include <cmath>

#include "base/rng.h"

namespace ts {

ParamLayout make_param_layout(const ModelConfig& cfg) {
  ParamLayout p;
  p.config = cfg;
  const long d = cfg.d_model, ff = cfg.d_ff, qd = static_cast<long>(cfg.n_heads) * cfg.head_dim();
  auto add = [&](std::string name, long rows, long cols, bool decay) {
    p.tensors.push_back(TensorSpec{std::move(name), rows, cols, p.total, decay});
    p.total += static_cast<size_t>(rows * cols);
  };
  add("token_embd", cfg.vocab_size, d, true);
  for (int l = 0; l < cfg.n_layers; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    add(b + "attn_norm", d, 1, false);
    add(b + "attn_q", qd, d, true);
    add(b + "attn_k", qd, d, true);
    add(b + "attn_v", qd, d, true);
    add(b + "attn_output", d, qd, true);
    add(b + "ffn_norm", d, 1, false);
    add(b + "ffn_gate", ff, d, true);
    add(b + "ffn_up", ff, d, true);
    add(b + "ffn_down", d, ff, true);
  }
  add("output_norm", d, 1, false);
  return p;
}

void init_params(const ParamLayout& layout, uint64_t seed, std::vector<float>& params) {
  params.assign(layout.total, 0.0f);
  SplitMix rng(seed);
  const double resid_scale = 1.0 / std::sqrt(2.0 * std::max(1, layout.config.n_layers));
  for (const TensorSpec& s : layout.tensors) {
    float* p = params.data() + s.offset;
    if (s.cols == 1) {  // norm gain
      for (size_t i = 0; i < s.size(); ++i) p[i] = 1.0f;
      continue;
    }
    const bool resid = s.name.ends_with("attn_output") || s.name.ends_with("ffn_down");
    const double std_dev = 0.02 * (resid ? resid_scale : 1.0);
    for (size_t i = 0; i < s.size(); ++i) p[i] = static_cast<float>(rng.normal() * std_dev);
  }
}

Model to_model(const ParamLayout& layout, const std::vector<float>& params) {
  Model m = allocate_model(layout.config);
  const float* base = params.data();
  Weights& w = m.weights;
  w.tok_embd = mat_view(base, layout.embd());
  w.out_norm = vec_view(base, layout.out_norm());
  for (int l = 0; l < layout.config.n_layers; ++l) {
    LayerWeights& lw = w.layers[static_cast<size_t>(l)];
    lw.attn_norm = vec_view(base, layout.layer(l, ParamLayout::AttnNorm));
    lw.wq = mat_view(base, layout.layer(l, ParamLayout::Wq));
    lw.wk = mat_view(base, layout.layer(l, ParamLayout::Wk));
    lw.wv = mat_view(base, layout.layer(l, ParamLayout::Wv));
    lw.wo = mat_view(base, layout.layer(l, ParamLayout::Wo));
    lw.ffn_norm = vec_view(base, layout.layer(l, ParamLayout::FfnNorm));
    lw.w_gate = mat_view(base, layout.layer(l, ParamLayout::Gate));
    lw.w_up = mat_view(base, layout.layer(l, ParamLayout::Up));
    lw.w_down = mat_view(base, layout.layer(l, ParamLayout::Down));
  }
  return m;
}

}  // namespace ts
