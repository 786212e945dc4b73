// The whole decoder's training pass: forward over a batch of sequences (all positions at once,
// causal attention) to the mean cross-entropy, then the backward pass through every op into a
// flat gradient buffer laid out like the parameters. Reads top to bottom like the architecture.
#pragma once
#include <span>
#include <vector>

#include "train/train_ops.h"
#include "train/params.h"

namespace ts {

// What one block keeps from its forward pass for the backward pass.
template <class T>
struct LayerActs {
  MatT<T> x_in;                 // (n, d_model) residual stream entering the block
  MatT<T> xn1;                  // (n, d_model) attention RMSNorm output
  VecT<T> rstd1;                // (n)
  MatT<T> q, k, v;              // (n, n_heads*head_dim) q and k after RoPE
  MatT<T> probs;                // (batch*n_heads*seq_len, seq_len) attention softmax
  MatT<T> att;                  // (n, n_heads*head_dim) heads side by side, before wo
  MatT<T> x_mid;                // (n, d_model) after the attention residual
  MatT<T> xn2;                  // (n, d_model) FFN RMSNorm output
  VecT<T> rstd2;                // (n)
  MatT<T> gate, up, h;          // (n, d_ff) SwiGLU inputs and output
};

template <class T>
struct Workspace {
  std::vector<LayerActs<T>> layers;
  MatT<T> x_out;   // (n, d_model) residual after the last block
  MatT<T> xf;      // (n, d_model) final RMSNorm output
  VecT<T> rstdf;   // (n)
  MatT<T> logits;  // (n, vocab_size)
  MatT<T> probs;   // (n, vocab_size)
  // backward scratch
  MatT<T> dlogits;                             // (n, vocab_size)
  MatT<T> dx, dx_mid, dxn, dtmp, datt;         // (n, d_model)
  MatT<T> dq, dk, dv;                          // (n, n_heads*head_dim)
  MatT<T> dh, dgate, dup;                      // (n, d_ff)
};

// tokens and targets: (batch*seq_len), sequence b at rows [b*seq_len, (b+1)*seq_len). Targets
// < 0 are not scored. Returns the mean loss; when `grads` is not null, ADDS d(loss)/d(params)
// into it (layout.total values).
template <class T>
double model_forward_backward(const ParamLayout& layout, const T* params, T* grads,
                              std::span<const int> tokens, std::span<const int> targets,
                              int batch, int seq_len, Workspace<T>& ws);

}  // namespace ts
