// Pointwise and matrix operations of the training forward/backward: embedding, linear, RMSNorm,
// SwiGLU, softmax cross-entropy. Attention and RoPE are in train_ops_attention.cpp. Each backward is
// derived by hand; tests/train/test_train_ops.cpp checks it against finite differences.
#include <cmath>

#include "train/train_ops.h"

namespace ts {

template <class T>
void embedding_forward(const CMapT<T>& table, std::span<const int> tokens, MatT<T>& x) {
  x.resize(static_cast<long>(tokens.size()), table.cols());
  for (size_t n = 0; n < tokens.size(); ++n) x.row(static_cast<long>(n)) = table.row(tokens[n]);
}

template <class T>
void embedding_backward(std::span<const int> tokens, const MatT<T>& dx, MapT<T>& dtable) {
  for (size_t n = 0; n < tokens.size(); ++n) dtable.row(tokens[n]) += dx.row(static_cast<long>(n));
}

template <class T>
void linear_forward(const MatT<T>& x, const CMapT<T>& w, MatT<T>& y) {
  y.resize(x.rows(), w.rows());
  y.noalias() = x * w.transpose();
}

template <class T>
void linear_backward(const MatT<T>& x, const CMapT<T>& w, const MatT<T>& dy, MatT<T>& dx,
                     MapT<T>& dw, bool accumulate_dx) {
  if (accumulate_dx) {
    dx.noalias() += dy * w;
  } else {
    dx.resize(dy.rows(), w.cols());
    dx.noalias() = dy * w;
  }
  dw.noalias() += dy.transpose() * x;
}

template <class T>
void rmsnorm_forward(const MatT<T>& x, const CVMapT<T>& g, T eps, MatT<T>& y, VecT<T>& rstd) {
  const long n = x.rows(), d = x.cols();
  y.resize(n, d);
  rstd.resize(n);
  for (long r = 0; r < n; ++r) {
    const T ms = x.row(r).squaredNorm() / static_cast<T>(d);
    rstd(r) = T(1) / std::sqrt(ms + eps);
    y.row(r) = (x.row(r) * rstd(r)).cwiseProduct(g.transpose());
  }
}

// y_j = x_j r g_j with r = (mean(x^2) + eps)^(-1/2); dr/dx_j = -r^3 x_j / d, so
// dx_j = r (dy_j g_j) - x_j r^3 / d * sum_k dy_k g_k x_k.
template <class T>
void rmsnorm_backward(const MatT<T>& x, const CVMapT<T>& g, const VecT<T>& rstd,
                      const MatT<T>& dy, MatT<T>& dx, VMapT<T>& dg) {
  const long n = x.rows(), d = x.cols();
  dx.resize(n, d);
  for (long r = 0; r < n; ++r) {
    const T s = rstd(r);
    dg += (dy.row(r).cwiseProduct(x.row(r)) * s).transpose();
    const auto dyg = dy.row(r).cwiseProduct(g.transpose());  // (d)
    const T dot = dyg.dot(x.row(r));
    dx.row(r) = dyg * s - x.row(r) * (s * s * s * dot / static_cast<T>(d));
  }
}

template <class T>
void swiglu_forward(const MatT<T>& gate, const MatT<T>& up, MatT<T>& h) {
  h.resize(gate.rows(), gate.cols());
  const long n = gate.size();
  const T* g = gate.data();
  const T* u = up.data();
  T* o = h.data();
  for (long i = 0; i < n; ++i) o[i] = g[i] / (T(1) + std::exp(-g[i])) * u[i];
}

// silu(g) = g s(g); silu'(g) = s (1 + g (1 - s)).
template <class T>
void swiglu_backward(const MatT<T>& gate, const MatT<T>& up, const MatT<T>& dh, MatT<T>& dgate,
                     MatT<T>& dup) {
  dgate.resize(gate.rows(), gate.cols());
  dup.resize(gate.rows(), gate.cols());
  const long n = gate.size();
  const T* g = gate.data();
  const T* u = up.data();
  const T* d = dh.data();
  T* dg = dgate.data();
  T* du = dup.data();
  for (long i = 0; i < n; ++i) {
    const T s = T(1) / (T(1) + std::exp(-g[i]));
    du[i] = d[i] * g[i] * s;
    dg[i] = d[i] * u[i] * s * (T(1) + g[i] * (T(1) - s));
  }
}

template <class T>
double cross_entropy_forward(const MatT<T>& logits, std::span<const int> targets, MatT<T>& probs) {
  const long n = logits.rows();
  probs.resize(n, logits.cols());
  double total = 0;
  long count = 0;
  for (long r = 0; r < n; ++r) {
    const T mx = logits.row(r).maxCoeff();
    probs.row(r) = (logits.row(r).array() - mx).exp();
    const T sum = probs.row(r).sum();
    probs.row(r) /= sum;
    const int t = targets[static_cast<size_t>(r)];
    if (t < 0) continue;
    total += static_cast<double>(std::log(sum) + mx - logits(r, t));
    ++count;
  }
  return count ? total / static_cast<double>(count) : 0.0;
}

template <class T>
void cross_entropy_backward(const MatT<T>& probs, std::span<const int> targets, MatT<T>& dlogits) {
  const long n = probs.rows();
  long count = 0;
  for (int t : targets) count += t >= 0;
  dlogits.resize(n, probs.cols());
  const T scale = count ? T(1) / static_cast<T>(count) : T(0);
  for (long r = 0; r < n; ++r) {
    const int t = targets[static_cast<size_t>(r)];
    if (t < 0) {
      dlogits.row(r).setZero();
      continue;
    }
    dlogits.row(r) = probs.row(r) * scale;
    dlogits(r, t) -= scale;
  }
}

#define TS_INSTANTIATE_OPS(T)                                                                   \
  template void embedding_forward<T>(const CMapT<T>&, std::span<const int>, MatT<T>&);          \
  template void embedding_backward<T>(std::span<const int>, const MatT<T>&, MapT<T>&);          \
  template void linear_forward<T>(const MatT<T>&, const CMapT<T>&, MatT<T>&);                   \
  template void linear_backward<T>(const MatT<T>&, const CMapT<T>&, const MatT<T>&, MatT<T>&,   \
                                   MapT<T>&, bool);                                             \
  template void rmsnorm_forward<T>(const MatT<T>&, const CVMapT<T>&, T, MatT<T>&, VecT<T>&);    \
  template void rmsnorm_backward<T>(const MatT<T>&, const CVMapT<T>&, const VecT<T>&,           \
                                    const MatT<T>&, MatT<T>&, VMapT<T>&);                       \
  template void swiglu_forward<T>(const MatT<T>&, const MatT<T>&, MatT<T>&);                    \
  template void swiglu_backward<T>(const MatT<T>&, const MatT<T>&, const MatT<T>&, MatT<T>&,    \
                                   MatT<T>&);                                                   \
  template double cross_entropy_forward<T>(const MatT<T>&, std::span<const int>, MatT<T>&);     \
  template void cross_entropy_backward<T>(const MatT<T>&, std::span<const int>, MatT<T>&);

TS_INSTANTIATE_OPS(float)
TS_INSTANTIATE_OPS(double)

}  // namespace ts
