// Model = config + weights, as the engine computes with them: fp32, row-major (out, in), or, for
// the large matrices of a quantized file, the file's own blocks (qmat.h). Loaders (formats/)
// fill it; the trainer (train/) writes one; nothing here reads files.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/tensor.h"
#include "engine/config.h"
#include "engine/cost.h"
#include "engine/quant/qmat.h"

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
  // The same matrices kept quantized: when one of these is not empty, the fp32 matrix of the
  // same name is 0x0 and the forward computes from the blocks.
  struct Quantized {
    QMat wq, wk, wv, wo, w_gate, w_up, w_down;
  } q;
};

struct Weights {
  Mat tok_embd;  // (vocab_size, d_model)
  Mat pos_embd;  // (n_ctx, d_model): gpt2 learned positions, else empty
  std::vector<LayerWeights> layers;
  Vec out_norm;    // (d_model)
  Vec out_norm_b;  // (d_model) gpt2, else empty
  Mat output;      // (vocab_size, d_model); empty when tied to tok_embd
  QMat tok_embd_q;  // tok_embd kept quantized (tok_embd is then 0x0)
  QMat output_q;    // output kept quantized (output is then 0x0)
};

struct Model {
  ModelConfig config;
  Weights weights;

  bool has_output() const { return weights.output.size() || !weights.output_q.empty(); }
  // The unembedding (vocab_size, d_model): `output`, or tok_embd when tied; exactly one of the
  // pair is non-empty (the quantized one when the file's matrix stays quantized).
  const Mat& unembedding() const { return has_output() ? weights.output : weights.tok_embd; }
  const QMat& unembedding_q() const {
    return has_output() ? weights.output_q : weights.tok_embd_q;
  }
  size_t parameter_count() const;  // counts every stored weight once (tied output not twice)
  size_t weight_bytes() const;     // bytes of all weights read per decode step, as stored
  bool is_quantized() const;       // some matrix is kept quantized
};

// Checks every tensor's shape against the config; the message names the first tensor that is
// wrong ("blk.2.attn_q: expected 64x64, got 64x32").
Status validate_model(const Model& m);
// f(fp32 matrix, its quantized twin) for each large matrix of a block (Q, K, V, O, gate, up,
// down), const or not as the layer is.
template <class Layer, class F>
void for_each_block_matrix(Layer& l, F f) {
  f(l.wq, l.q.wq);
  f(l.wk, l.q.wk);
  f(l.wv, l.q.wv);
  f(l.wo, l.q.wo);
  f(l.w_gate, l.q.w_gate);
  f(l.w_up, l.q.w_up);
  f(l.w_down, l.q.w_down);
}

// Zero-initialised tensors of the right shapes for a config (used by loaders and the trainer).
Model allocate_model(const ModelConfig& cfg);
// Every quantized matrix decoded to fp32 in place (for the trainer's and the writer's needs and
// the reference forward); nothing changes for an fp32 model.
void dequantize_weights(Model& m);
// Bytes per value of the model's matrices as stored (for the cost model): the blocks' matrices
// on average, the unembedding, the token table.
WeightBytes weight_bytes_per_value(const Model& m);
// How far the forward's logits may be from reference_forward's, as a fraction of
// max(1, |largest logit|): 1e-4 for fp32 weights; for weights kept quantized, the activation is
// quantized to 8 bits as well, and the bound is the one the llama.cpp comparison uses for that
// type (tools/interop/check_llama.mjs): 3e-2 for Q8_0, Q4_0 and Q6_K, 4e-2 for Q4_K and Q5_K.
double logit_tolerance(const Model& m);
// Embedding row `token` (d_model values) into out, from tok_embd or its quantized blocks.
void embedding_row(const Model& m, int token, float* out);

}  // namespace ts
