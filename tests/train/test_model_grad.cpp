// The whole decoder's backward pass against finite differences (double precision, tiny model),
// float vs double forward agreement, and the parameter layout / conversion to ts::Model.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "base/rng.h"
#include "train/model_grad.h"
#include "train/params.h"

using namespace ts;

namespace {

ModelConfig tiny_config() {
  ModelConfig c;
  c.n_layers = 2;
  c.n_heads = 2;
  c.n_kv_heads = 2;
  c.d_model = 8;
  c.d_ff = 12;
  c.vocab_size = 11;
  c.n_ctx = 5;
  return c;
}

std::vector<double> random_params(const ParamLayout& L, uint64_t seed) {
  std::vector<float> f;
  init_params(L, seed, f);
  SplitMix rng(seed + 1);
  std::vector<double> p(f.size());
  // larger than the 0.02 init so every path carries a visible gradient (but attention is not
  // saturated, which would leave q and k with gradients below finite-difference noise)
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<double>(f[i]) * 5.0 + 0.1 * rng.normal();
  return p;
}

}  // namespace

TEST_CASE("model backward matches finite differences on every tensor") {
  const ParamLayout L = make_param_layout(tiny_config());
  std::vector<double> P = random_params(L, 7);
  const int batch = 2, seq = 5;
  const std::vector<int> tokens = {1, 4, 2, 9, 3, 0, 7, 7, 10, 5};
  const std::vector<int> targets = {4, 2, 9, 3, -1, 7, 7, 10, 5, 6};
  Workspace<double> ws;
  std::vector<double> G(L.total, 0.0);
  model_forward_backward<double>(L, P.data(), G.data(), tokens, targets, batch, seq, ws);

  // Check a spread of coordinates in every tensor; errors relative to the gradient's size, with
  // a floor at 1e-3 of the tensor's largest gradient (where rounding noise dominates).
  const double h = 1e-5;
  for (const TensorSpec& s : L.tensors) {
    INFO(s.name);
    double worst = 0, scale = 0;
    for (size_t i = s.offset; i < s.offset + s.size(); ++i) scale = std::max(scale, std::abs(G[i]));
    CHECK(scale > 1e-6);
    for (size_t k = 0; k < 6; ++k) {
      const size_t i = s.offset + (k * 7919) % s.size();
      const double keep = P[i];
      P[i] = keep + h;
      const double fp = model_forward_backward<double>(L, P.data(), nullptr, tokens, targets, batch, seq, ws);
      P[i] = keep - h;
      const double fm = model_forward_backward<double>(L, P.data(), nullptr, tokens, targets, batch, seq, ws);
      P[i] = keep;
      const double num = (fp - fm) / (2 * h);
      worst = std::max(worst, std::abs(num - G[i]) / std::max(1e-3 * scale, std::abs(num) + std::abs(G[i])));
    }
    CHECK(worst < 1e-5);
  }
}

TEST_CASE("float and double forward agree; targets < 0 are not scored") {
  const ParamLayout L = make_param_layout(tiny_config());
  std::vector<float> Pf;
  init_params(L, 3, Pf);
  const std::vector<double> Pd(Pf.begin(), Pf.end());
  const std::vector<int> tokens = {1, 2, 3, 4, 5};
  const std::vector<int> targets = {2, 3, 4, 5, 6};
  Workspace<float> wf;
  Workspace<double> wd;
  const double lf = model_forward_backward<float>(L, Pf.data(), nullptr, tokens, targets, 1, 5, wf);
  const double ld = model_forward_backward<double>(L, Pd.data(), nullptr, tokens, targets, 1, 5, wd);
  CHECK(lf == doctest::Approx(ld).epsilon(1e-5));
  // At initialisation the loss is close to log(vocab_size) (near-uniform predictions).
  CHECK(ld == doctest::Approx(std::log(11.0)).epsilon(0.02));
  // Changing a target that is masked out does not change the loss.
  const std::vector<int> masked = {2, 3, -1, 5, 6};
  const std::vector<int> masked2 = {2, 3, -1, 5, 6};
  CHECK(model_forward_backward<double>(L, Pd.data(), nullptr, tokens, masked, 1, 5, wd) ==
        model_forward_backward<double>(L, Pd.data(), nullptr, tokens, masked2, 1, 5, wd));
}

TEST_CASE("parameter layout: counts, names, and conversion to the engine's Model") {
  ModelConfig c = tiny_config();
  const ParamLayout L = make_param_layout(c);
  // embedding + per layer (2 gains + 4 attention + 3 ffn) + final gain
  const size_t per_layer = 2 * 8 + 4 * 8 * 8 + 3 * 12 * 8;
  CHECK(L.total == 11 * 8 + 2 * per_layer + 8);
  CHECK(L.layer(1, ParamLayout::Wk).name == "blk.1.attn_k");
  CHECK(L.out_norm().name == "output_norm");
  CHECK_FALSE(L.layer(0, ParamLayout::AttnNorm).decay);
  std::vector<float> P;
  init_params(L, 5, P);
  const Model m = to_model(L, P);
  CHECK(validate_model(m).ok());
  CHECK(m.parameter_count() == L.total);
  CHECK(m.weights.layers[1].w_down(3, 7) == P[L.layer(1, ParamLayout::Down).offset + 3 * 12 + 7]);
  CHECK(m.weights.tok_embd(10, 2) == P[10 * 8 + 2]);
  CHECK(m.weights.layers[0].attn_norm(4) == 1.0f);
  // initialisation: deterministic per seed, different across seeds
  std::vector<float> P2, P3;
  init_params(L, 5, P2);
  init_params(L, 6, P3);
  CHECK(P == P2);
  CHECK(P != P3);
}
