// Forward and hand-written backward of every operation in the Llama-style block, for training.
// Templated on the scalar (float for training, double for the finite-difference tests) and
// explicitly instantiated for both in train_ops.cpp / train_ops_attention.cpp. Activations are row-major
// (rows = batch * seq positions). Backward functions ACCUMULATE into parameter gradients and
// OVERWRITE input gradients unless their comment says otherwise.
#pragma once
#include "base/tensor.h"  // Eigen, with GCC 12's false AVX-512 warnings silenced
#include <span>

namespace ts {

template <class T>
using MatT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using VecT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using MapT = Eigen::Map<MatT<T>>;
template <class T>
using CMapT = Eigen::Map<const MatT<T>>;
template <class T>
using VMapT = Eigen::Map<VecT<T>>;
template <class T>
using CVMapT = Eigen::Map<const VecT<T>>;

// ---- embedding: x[n] = table[tokens[n]]
template <class T>
void embedding_forward(const CMapT<T>& table /* (vocab_size, d_model) */,
                       std::span<const int> tokens /* (n) */, MatT<T>& x /* (n, d_model) */);
template <class T>
void embedding_backward(std::span<const int> tokens /* (n) */, const MatT<T>& dx /* (n, d_model) */,
                        MapT<T>& dtable /* (vocab_size, d_model), accumulated */);

// ---- linear (no bias): y = x W^T
template <class T>
void linear_forward(const MatT<T>& x /* (n, in) */, const CMapT<T>& w /* (out, in) */,
                    MatT<T>& y /* (n, out) */);
// dx = dy W (overwritten, or added when accumulate_dx); dW += dy^T x.
template <class T>
void linear_backward(const MatT<T>& x /* (n, in) */, const CMapT<T>& w /* (out, in) */,
                     const MatT<T>& dy /* (n, out) */, MatT<T>& dx /* (n, in) */,
                     MapT<T>& dw /* (out, in) */, bool accumulate_dx);

// ---- RMSNorm: y = x / sqrt(mean(x^2) + eps) * g
template <class T>
void rmsnorm_forward(const MatT<T>& x /* (n, d) */, const CVMapT<T>& g /* (d) */, T eps,
                     MatT<T>& y /* (n, d) */, VecT<T>& rstd /* (n) */);
template <class T>
void rmsnorm_backward(const MatT<T>& x /* (n, d) */, const CVMapT<T>& g /* (d) */,
                      const VecT<T>& rstd /* (n) */, const MatT<T>& dy /* (n, d) */,
                      MatT<T>& dx /* (n, d) */, VMapT<T>& dg /* (d), accumulated */);

// ---- SwiGLU: h = silu(gate) * up
template <class T>
void swiglu_forward(const MatT<T>& gate /* (n, d_ff) */, const MatT<T>& up /* (n, d_ff) */,
                    MatT<T>& h /* (n, d_ff) */);
template <class T>
void swiglu_backward(const MatT<T>& gate /* (n, d_ff) */, const MatT<T>& up /* (n, d_ff) */,
                     const MatT<T>& dh /* (n, d_ff) */, MatT<T>& dgate /* (n, d_ff) */,
                     MatT<T>& dup /* (n, d_ff) */);

// ---- softmax cross-entropy over logits. Targets < 0 are ignored. Returns the mean loss over
// counted targets; `probs` keeps the softmax for the backward pass.
template <class T>
double cross_entropy_forward(const MatT<T>& logits /* (n, vocab_size) */,
                             std::span<const int> targets /* (n) */, MatT<T>& probs /* (n, V) */);
// dlogits = (probs - onehot(target)) / count, rows with no target are zero.
template <class T>
void cross_entropy_backward(const MatT<T>& probs /* (n, vocab_size) */,
                            std::span<const int> targets /* (n) */,
                            MatT<T>& dlogits /* (n, vocab_size) */);

// ---- RoPE, adjacent pairs (2i, 2i+1) inside each head, angle = pos * theta^(-2i/head_dim),
// pos = row % seq_len. In place. inverse = rotate by -angle, which is the backward pass (a
// rotation's transpose is its inverse).
template <class T>
void rope_apply(MatT<T>& x /* (n, n_heads*head_dim) */, int n_heads, int seq_len, float theta,
                bool inverse);

// ---- causal multi-head attention over `batch` sequences of `seq_len` rows each:
// out_h = softmax(q_h k_h^T / sqrt(head_dim) + causal mask) v_h, heads side by side.
template <class T>
void attention_forward(const MatT<T>& q /* (batch*seq_len, n_heads*head_dim) */,
                       const MatT<T>& k /* same */, const MatT<T>& v /* same */, int batch,
                       int seq_len, int n_heads, MatT<T>& probs /* (batch*n_heads*seq_len, seq_len) */,
                       MatT<T>& out /* (batch*seq_len, n_heads*head_dim) */);
template <class T>
void attention_backward(const MatT<T>& q, const MatT<T>& k, const MatT<T>& v,
                        const MatT<T>& probs /* (batch*n_heads*seq_len, seq_len) */,
                        const MatT<T>& dout /* (batch*seq_len, n_heads*head_dim) */, int batch,
                        int seq_len, int n_heads, MatT<T>& dq, MatT<T>& dk, MatT<T>& dv);

}  // namespace ts
