// Model = config + weights, as the engine computes with them (fp32, row-major (out, in)).
// Loaders (formats/) fill it; the trainer (train/) writes one; nothing here reads files.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/tensor.h"
#include "engine/config.h"

namespace ts {

struct LayerWeights {
  Vec attn_norm;    // (d_model)             RMSNorm / LayerNorm gain
  Vec attn_norm_b;  // (d_model)             LayerNorm bias (gpt2), else empty
  Mat wq;           // (n_heads*head_dim, d_model)
  Mat wk;           // (kv_dim, d_model)
  Mat wv;           // (kv_dim, d_model)
  Mat wo;           // (d_model, n_heads*head_dim)
  Vec bq, bk, bv;   // (n_heads*head_dim), (kv_dim), (kv_dim): gpt2 / qwen2, else empty
  Vec bo;           // (d_model): gpt2, else empty
  Vec ffn_norm;     // (d_model)
  Vec ffn_norm_b;   // (d_model) gpt2, else empty
  Mat w_gate;       // (d_ff, d_model)  SwiGLU gate ("w1"); empty for gpt2
  Mat w_up;         // (d_ff, d_model)  SwiGLU up ("w3"), gpt2 c_fc
  Mat w_down;       // (d_model, d_ff)  ("w2"), gpt2 c_proj
  Vec b_up;         // (d_ff)   gpt2, else empty
  Vec b_down;       // (d_model) gpt2, else empty
};

struct Weights {
  Mat tok_embd;  // (vocab_size, d_model)
  Mat pos_embd;  // (n_ctx, d_model): gpt2 learned positions, else empty
  std::vector<LayerWeights> layers;
  Vec out_norm;    // (d_model)
  Vec out_norm_b;  // (d_model) gpt2, else empty
  Mat output;      // (vocab_size, d_model); empty when tied to tok_embd
};

struct Model {
  ModelConfig config;
  Weights weights;

  const Mat& unembedding() const {
    return weights.output.size() ? weights.output : weights.tok_embd;
  }
  size_t parameter_count() const;  // counts every stored weight once (tied output not twice)
  size_t weight_bytes() const;     // fp32 bytes of all weights read per decode step
};

// Checks every tensor's shape against the config; the message names the first tensor that is
// wrong ("blk.2.attn_q: expected 64x64, got 64x32").
Status validate_model(const Model& m);
// Zero-initialised tensors of the right shapes for a config (used by loaders and the trainer).
Model allocate_model(const ModelConfig& cfg);

}  // namespace ts
