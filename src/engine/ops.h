// The element-wise and per-vector operations of a decoder block: RMSNorm, LayerNorm, rotary
// position embedding (adjacent pairs and NeoX halves), softmax, SiLU, GELU (tanh form).
// One vector at a time, no allocation; RMSNorm, softmax and silu_mul run on SIMD packets in an
// order that does not depend on alignment. The forward pass and reference_forward both call
// them. Matrix products and attention are elsewhere (linear.h, attention.h).
#pragma once
#include <cmath>
#include <span>

#include "engine/family.h"

namespace ts {

// out = x / sqrt(mean(x^2) + eps) * gain.  x, gain, out: (n); out may alias x.
void rmsnorm(std::span<const float> x, std::span<const float> gain, float eps,
             std::span<float> out);
// out = (x - mean) / sqrt(var + eps) * gain + bias (biased variance).  (n); out may alias x.
void layernorm(std::span<const float> x, std::span<const float> gain,
               std::span<const float> bias, float eps, std::span<float> out);
// The family's norm (family.h): rmsnorm (bias unused) or layernorm.
void norm_by_kind(NormKind kind, std::span<const float> x, std::span<const float> gain,
                  std::span<const float> bias, float eps, std::span<float> out);

// Rotation angles of one position: cos/sin (n_rot / 2), pair i turns by
// pos * theta^(-2i / n_rot), n_rot the dimensions of a head RoPE turns.
void rope_angles(int pos, int n_rot, float theta, std::span<float> cos_out,
                 std::span<float> sin_out);
// Rotates the first n_rot dimensions of every head of v (n_heads * head_dim) in place; the rest
// of each head passes unchanged (partial RoPE: StableLM turns a quarter). Adjacent: pairs
// (2i, 2i+1) (llama2.c, GGUF llama). NeoX: pairs (i, i + n_rot/2) (GPT-NeoX, qwen2, stablelm).
void rope_adjacent(std::span<float> v, int head_dim, int n_rot, std::span<const float> cos,
                   std::span<const float> sin);
void rope_neox(std::span<float> v, int head_dim, int n_rot, std::span<const float> cos,
               std::span<const float> sin);

// In place: x = exp(x - max) / sum. Empty input is left alone.
void softmax(std::span<float> x);

inline float silu(float x) { return x / (1.0f + std::exp(-x)); }
// In place, SwiGLU's product: g = silu(g) * u, vectorised (the forward pass's MLP). (n) each.
void silu_mul(std::span<float> g, std::span<const float> u);
// GPT-2's GELU: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
inline float gelu_tanh(float x) {
  constexpr float k = 0.7978845608028654f;  // sqrt(2 / pi)
  return 0.5f * x * (1.0f + std::tanh(k * (x + 0.044715f * x * x * x)));
}

}  // namespace ts
