// The decoder's training forward and backward, composed from the ops in ops.h. The backward walks
// the forward in reverse; each residual add passes its gradient to both branches.
#include "train/model_grad.h"

namespace ts {

template <class T>
double model_forward_backward(const ParamLayout& L, const T* P, T* G,
                              std::span<const int> tokens, std::span<const int> targets,
                              int batch, int seq_len, Workspace<T>& ws) {
  const ModelConfig& c = L.config;
  const T eps = static_cast<T>(c.norm_eps);
  using LT = ParamLayout::LayerTensor;
  auto W = [&](int l, LT t) { return mat_view(P, L.layer(l, t)); };
  auto g = [&](int l, LT t) { return vec_view(P, L.layer(l, t)); };
  ws.layers.resize(static_cast<size_t>(c.n_layers));

  // ---- forward
  MatT<T> x;  // (n, d_model)
  embedding_forward(mat_view(P, L.embd()), tokens, x);
  for (int l = 0; l < c.n_layers; ++l) {
    LayerActs<T>& a = ws.layers[static_cast<size_t>(l)];
    a.x_in = x;
    rmsnorm_forward(a.x_in, g(l, LT::AttnNorm), eps, a.xn1, a.rstd1);
    linear_forward(a.xn1, W(l, LT::Wq), a.q);
    linear_forward(a.xn1, W(l, LT::Wk), a.k);
    linear_forward(a.xn1, W(l, LT::Wv), a.v);
    rope_apply(a.q, c.n_heads, seq_len, c.rope_theta, false);
    rope_apply(a.k, c.n_heads, seq_len, c.rope_theta, false);
    attention_forward(a.q, a.k, a.v, batch, seq_len, c.n_heads, a.probs, a.att);
    linear_forward(a.att, W(l, LT::Wo), ws.dtmp);
    a.x_mid = a.x_in + ws.dtmp;
    rmsnorm_forward(a.x_mid, g(l, LT::FfnNorm), eps, a.xn2, a.rstd2);
    linear_forward(a.xn2, W(l, LT::Gate), a.gate);
    linear_forward(a.xn2, W(l, LT::Up), a.up);
    swiglu_forward(a.gate, a.up, a.h);
    linear_forward(a.h, W(l, LT::Down), ws.dtmp);
    x = a.x_mid + ws.dtmp;
  }
  ws.x_out = std::move(x);
  rmsnorm_forward(ws.x_out, vec_view(P, L.out_norm()), eps, ws.xf, ws.rstdf);
  linear_forward(ws.xf, mat_view(P, L.embd()), ws.logits);  // tied unembedding
  const double loss = cross_entropy_forward(ws.logits, targets, ws.probs);
  if (!G) return loss;

  // ---- backward
  auto dW = [&](int l, LT t) { return mat_view(G, L.layer(l, t)); };
  auto dg = [&](int l, LT t) { return vec_view(G, L.layer(l, t)); };
  MapT<T> dE = mat_view(G, L.embd());
  cross_entropy_backward(ws.probs, targets, ws.dlogits);
  linear_backward(ws.xf, mat_view(P, L.embd()), ws.dlogits, ws.dxn, dE, false);
  {
    VMapT<T> dgo = vec_view(G, L.out_norm());
    rmsnorm_backward(ws.x_out, vec_view(P, L.out_norm()), ws.rstdf, ws.dxn, ws.dx, dgo);
  }
  for (int l = c.n_layers - 1; l >= 0; --l) {
    LayerActs<T>& a = ws.layers[static_cast<size_t>(l)];
    // x_out = x_mid + swiglu(xn2 Wg^T, xn2 Wu^T) Wd^T
    ws.dx_mid = ws.dx;
    { MapT<T> d = dW(l, LT::Down); linear_backward(a.h, W(l, LT::Down), ws.dx, ws.dh, d, false); }
    swiglu_backward(a.gate, a.up, ws.dh, ws.dgate, ws.dup);
    { MapT<T> d = dW(l, LT::Gate); linear_backward(a.xn2, W(l, LT::Gate), ws.dgate, ws.dxn, d, false); }
    { MapT<T> d = dW(l, LT::Up); linear_backward(a.xn2, W(l, LT::Up), ws.dup, ws.dxn, d, true); }
    { VMapT<T> d = dg(l, LT::FfnNorm); rmsnorm_backward(a.x_mid, g(l, LT::FfnNorm), a.rstd2, ws.dxn, ws.dtmp, d); }
    ws.dx_mid += ws.dtmp;
    // x_mid = x_in + attention(rope(xn1 Wq^T), rope(xn1 Wk^T), xn1 Wv^T) Wo^T
    { MapT<T> d = dW(l, LT::Wo); linear_backward(a.att, W(l, LT::Wo), ws.dx_mid, ws.datt, d, false); }
    attention_backward(a.q, a.k, a.v, a.probs, ws.datt, batch, seq_len, c.n_heads, ws.dq, ws.dk, ws.dv);
    rope_apply(ws.dq, c.n_heads, seq_len, c.rope_theta, true);
    rope_apply(ws.dk, c.n_heads, seq_len, c.rope_theta, true);
    { MapT<T> d = dW(l, LT::Wq); linear_backward(a.xn1, W(l, LT::Wq), ws.dq, ws.dxn, d, false); }
    { MapT<T> d = dW(l, LT::Wk); linear_backward(a.xn1, W(l, LT::Wk), ws.dk, ws.dxn, d, true); }
    { MapT<T> d = dW(l, LT::Wv); linear_backward(a.xn1, W(l, LT::Wv), ws.dv, ws.dxn, d, true); }
    { VMapT<T> d = dg(l, LT::AttnNorm); rmsnorm_backward(a.x_in, g(l, LT::AttnNorm), a.rstd1, ws.dxn, ws.dtmp, d); }
    ws.dx = ws.dx_mid + ws.dtmp;
  }
  embedding_backward(tokens, ws.dx, dE);
  return loss;
}

template double model_forward_backward<float>(const ParamLayout&, const float*, float*,
                                              std::span<const int>, std::span<const int>, int,
                                              int, Workspace<float>&);
template double model_forward_backward<double>(const ParamLayout&, const double*, double*,
                                               std::span<const int>, std::span<const int>, int,
                                               int, Workspace<double>&);

}  // namespace ts
