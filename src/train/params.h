// The trainer's parameters: every tensor of a Llama-style decoder laid out in ONE flat buffer
// (so AdamW, clipping, gradient sums and checkpoints are loops over a vector), plus typed views
// into it, initialisation, and conversion to the engine's ts::Model. Tied embeddings only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "train/train_ops.h"  // first: see its note on Eigen warnings
#include "engine/config.h"
#include "engine/model.h"

namespace ts {

struct TensorSpec {
  std::string name;  // GGUF-style: token_embd, blk.0.attn_q, output_norm ...
  long rows = 0, cols = 0;
  size_t offset = 0;  // into the flat buffer
  bool decay = true;  // AdamW weight decay (matrices yes, norm gains no)
  size_t size() const { return static_cast<size_t>(rows * cols); }
};

// Tensor order: token_embd, then per layer attn_norm wq wk wv wo ffn_norm w_gate w_up w_down,
// then output_norm.
struct ParamLayout {
  ModelConfig config;
  std::vector<TensorSpec> tensors;
  size_t total = 0;

  static constexpr int kPerLayer = 9;
  enum LayerTensor { AttnNorm, Wq, Wk, Wv, Wo, FfnNorm, Gate, Up, Down };
  const TensorSpec& embd() const { return tensors.front(); }
  const TensorSpec& layer(int l, LayerTensor t) const {
    return tensors[1 + static_cast<size_t>(l) * kPerLayer + t];
  }
  const TensorSpec& out_norm() const { return tensors.back(); }
};

// Llama block, n_kv_heads == n_heads, tied embeddings (the only shape the trainer trains).
ParamLayout make_param_layout(const ModelConfig& cfg);

// Typed views into a flat buffer.
template <class T>
MapT<T> mat_view(T* base, const TensorSpec& s) {
  return MapT<T>(base + s.offset, s.rows, s.cols);
}
template <class T>
CMapT<T> mat_view(const T* base, const TensorSpec& s) {
  return CMapT<T>(base + s.offset, s.rows, s.cols);
}
template <class T>
VMapT<T> vec_view(T* base, const TensorSpec& s) {
  return VMapT<T>(base + s.offset, static_cast<long>(s.size()));
}
template <class T>
CVMapT<T> vec_view(const T* base, const TensorSpec& s) {
  return CVMapT<T>(base + s.offset, static_cast<long>(s.size()));
}

// Normal(0, 0.02) matrices (the residual outputs wo, w_down scaled by 1/sqrt(2 n_layers)),
// norm gains 1. Deterministic for a seed.
void init_params(const ParamLayout& layout, uint64_t seed, std::vector<float>& params);
// The engine's model from trained parameters (fp32 copy).
Model to_model(const ParamLayout& layout, const std::vector<float>& params);

}  // namespace ts
