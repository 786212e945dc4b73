// Training forward/backward of RoPE (adjacent pairs, as llama2.c and GGUF "llama") and causal
// multi-head attention. One (sequence, head) at a time: a (seq_len x seq_len) score matrix, its
// softmax kept for the backward pass. No KV cache here: the engine's forward owns that.
#include <cmath>
#include <limits>
#include <vector>

#include "train/train_ops.h"

namespace ts {

template <class T>
void rope_apply(MatT<T>& x, int n_heads, int seq_len, float theta, bool inverse) {
  const int head_dim = static_cast<int>(x.cols()) / n_heads;
  const int half = head_dim / 2;
  // Same arithmetic as an fp32 inference engine: freq = 1 / theta^(2i/head_dim) in float.
  std::vector<T> cos_t(static_cast<size_t>(seq_len) * half), sin_t(cos_t.size());  // (seq_len, half)
  for (int p = 0; p < seq_len; ++p) {
    for (int i = 0; i < half; ++i) {
      const float freq = 1.0f / std::pow(theta, static_cast<float>(2 * i) / static_cast<float>(head_dim));
      const float a = static_cast<float>(p) * freq;
      cos_t[static_cast<size_t>(p) * half + i] = static_cast<T>(std::cos(a));
      sin_t[static_cast<size_t>(p) * half + i] = static_cast<T>(inverse ? -std::sin(a) : std::sin(a));
    }
  }
  for (long r = 0; r < x.rows(); ++r) {
    const size_t p = static_cast<size_t>(r % seq_len);
    T* row = x.row(r).data();
    for (int h = 0; h < n_heads; ++h) {
      T* hv = row + static_cast<size_t>(h) * head_dim;
      for (int i = 0; i < half; ++i) {
        const T c = cos_t[p * half + i], s = sin_t[p * half + i];
        const T a = hv[2 * i], b = hv[2 * i + 1];
        hv[2 * i] = a * c - b * s;
        hv[2 * i + 1] = a * s + b * c;
      }
    }
  }
}

template <class T>
void attention_forward(const MatT<T>& q, const MatT<T>& k, const MatT<T>& v, int batch,
                       int seq_len, int n_heads, MatT<T>& probs, MatT<T>& out) {
  const int head_dim = static_cast<int>(q.cols()) / n_heads;
  const T scale = T(1) / std::sqrt(static_cast<T>(head_dim));
  probs.resize(static_cast<long>(batch) * n_heads * seq_len, seq_len);
  out.resize(q.rows(), q.cols());
  for (int b = 0; b < batch; ++b) {
    for (int h = 0; h < n_heads; ++h) {
      const long r0 = static_cast<long>(b) * seq_len, c0 = static_cast<long>(h) * head_dim;
      auto P = probs.middleRows((static_cast<long>(b) * n_heads + h) * seq_len, seq_len);  // (T, T)
      P.noalias() = q.block(r0, c0, seq_len, head_dim) * k.block(r0, c0, seq_len, head_dim).transpose();
      for (int i = 0; i < seq_len; ++i) {
        auto row = P.row(i);
        row.head(i + 1) *= scale;
        const T mx = row.head(i + 1).maxCoeff();
        row.head(i + 1) = (row.head(i + 1).array() - mx).exp();
        row.head(i + 1) /= row.head(i + 1).sum();
        row.tail(seq_len - i - 1).setZero();
      }
      out.block(r0, c0, seq_len, head_dim).noalias() =
          P.template triangularView<Eigen::Lower>() * v.block(r0, c0, seq_len, head_dim);
    }
  }
}

// With S = scale q k^T, P = softmax(S) (causal), O = P v:
// dP = dO v^T, dv = P^T dO, dS = P * (dP - rowsum(P * dP)), dq = scale dS k, dk = scale dS^T q.
template <class T>
void attention_backward(const MatT<T>& q, const MatT<T>& k, const MatT<T>& v,
                        const MatT<T>& probs, const MatT<T>& dout, int batch, int seq_len,
                        int n_heads, MatT<T>& dq, MatT<T>& dk, MatT<T>& dv) {
  const int head_dim = static_cast<int>(q.cols()) / n_heads;
  const T scale = T(1) / std::sqrt(static_cast<T>(head_dim));
  dq.resize(q.rows(), q.cols());
  dk.resize(q.rows(), q.cols());
  dv.resize(q.rows(), q.cols());
  MatT<T> dS(seq_len, seq_len);  // (T, T)
  for (int b = 0; b < batch; ++b) {
    for (int h = 0; h < n_heads; ++h) {
      const long r0 = static_cast<long>(b) * seq_len, c0 = static_cast<long>(h) * head_dim;
      const auto P = probs.middleRows((static_cast<long>(b) * n_heads + h) * seq_len, seq_len);
      const auto dO = dout.block(r0, c0, seq_len, head_dim);  // (T, head_dim)
      dv.block(r0, c0, seq_len, head_dim).noalias() =
          P.template triangularView<Eigen::Lower>().transpose() * dO;
      dS.noalias() = dO * v.block(r0, c0, seq_len, head_dim).transpose();  // dP
      for (int i = 0; i < seq_len; ++i) {
        auto row = dS.row(i);
        const T dot = row.head(i + 1).dot(P.row(i).head(i + 1));
        row.head(i + 1) =
            ((row.head(i + 1).array() - dot) * P.row(i).head(i + 1).array() * scale).matrix();
        row.tail(seq_len - i - 1).setZero();
      }
      dq.block(r0, c0, seq_len, head_dim).noalias() =
          dS.template triangularView<Eigen::Lower>() * k.block(r0, c0, seq_len, head_dim);
      dk.block(r0, c0, seq_len, head_dim).noalias() =
          dS.template triangularView<Eigen::Lower>().transpose() * q.block(r0, c0, seq_len, head_dim);
    }
  }
}

#define TS_INSTANTIATE_ATTN(T)                                                                  \
  template void rope_apply<T>(MatT<T>&, int, int, float, bool);                                 \
  template void attention_forward<T>(const MatT<T>&, const MatT<T>&, const MatT<T>&, int, int,  \
                                     int, MatT<T>&, MatT<T>&);                                  \
  template void attention_backward<T>(const MatT<T>&, const MatT<T>&, const MatT<T>&,           \
                                      const MatT<T>&, const MatT<T>&, int, int, int, MatT<T>&,  \
                                      MatT<T>&, MatT<T>&);

TS_INSTANTIATE_ATTN(float)
TS_INSTANTIATE_ATTN(double)

}  // namespace ts
