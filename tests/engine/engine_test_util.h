// Helpers for the engine tests: small random models of every block type, token sequences, and a
// max-abs-difference check. Random weights are scaled so activations stay O(1) and attention is
// far from uniform (the agreement tests must be able to fail).
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "base/rng.h"
#include "engine/forward.h"
#include "engine/model.h"

namespace ts::test {

inline void fill_normal(Mat& m, SplitMix& rng, double scale) {
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(rng.normal() * scale);
}
inline void fill_normal(Vec& v, SplitMix& rng, double scale, double mean = 0.0) {
  for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = static_cast<float>(mean + rng.normal() * scale);
}

// Every tensor the config calls for, random: matrices N(0, (1.5/sqrt(in))^2), biases
// N(0, 0.1^2), norm gains N(1, 0.1^2), embeddings N(0, 1).
inline Model random_model(const ModelConfig& cfg, uint64_t seed) {
  Model m = allocate_model(cfg);
  SplitMix rng(seed);
  Weights& w = m.weights;
  fill_normal(w.tok_embd, rng, 1.0);
  if (w.pos_embd.size()) fill_normal(w.pos_embd, rng, 0.5);
  if (w.output.size()) fill_normal(w.output, rng, 1.0 / std::sqrt(cfg.d_model));
  fill_normal(w.out_norm, rng, 0.1, 1.0);
  if (w.out_norm_b.size()) fill_normal(w.out_norm_b, rng, 0.1);
  auto mat = [&](Mat& x) {
    if (x.size()) fill_normal(x, rng, 1.5 / std::sqrt(static_cast<double>(x.cols())));
  };
  auto bias = [&](Vec& v) {
    if (v.size()) fill_normal(v, rng, 0.1);
  };
  for (LayerWeights& l : w.layers) {
    fill_normal(l.attn_norm, rng, 0.1, 1.0);
    fill_normal(l.ffn_norm, rng, 0.1, 1.0);
    for (Mat* x : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down}) mat(*x);
    for (Vec* v : {&l.attn_norm_b, &l.ffn_norm_b, &l.bq, &l.bk, &l.bv, &l.bo, &l.b_up, &l.b_down})
      bias(*v);
  }
  return m;
}

inline ModelConfig llama_config(int n_heads = 4, int n_kv_heads = 4) {
  ModelConfig c;
  set_family(c, "llama");
  c.n_layers = 2;
  c.n_heads = n_heads;
  c.n_kv_heads = n_kv_heads;
  c.d_model = 32;
  c.d_ff = 72;
  c.vocab_size = 61;
  c.n_ctx = 48;
  return c;
}

inline ModelConfig qwen2_config() {  // GQA, Q/K/V biases, NeoX rotation, untied output
  ModelConfig c = llama_config(4, 2);
  set_family(c, "qwen2");
  c.rope_theta = 1000.0f;
  c.tied_embeddings = false;
  return c;
}

// LayerNorm with biases, NeoX RoPE on a quarter of each head (2 of 8), SwiGLU, Q/K/V biases.
inline ModelConfig stablelm_config() {
  ModelConfig c = llama_config(4, 2);
  set_family(c, "stablelm");
  c.qkv_bias = true;
  c.tied_embeddings = false;
  return c;
}

inline ModelConfig gpt2_config() {
  ModelConfig c;
  set_family(c, "gpt2");
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = 4;
  c.d_model = 32;
  c.d_ff = 128;
  c.vocab_size = 61;
  c.n_ctx = 48;
  return c;
}

// Large enough that projections and attention are split across 2 threads.
inline ModelConfig threaded_config() {
  ModelConfig c = llama_config(8, 2);
  c.d_model = 128;
  c.d_ff = 384;
  c.vocab_size = 700;
  c.n_ctx = 96;
  return c;
}

inline std::vector<int> random_tokens(int n, int vocab, uint64_t seed) {
  SplitMix rng(seed);
  std::vector<int> t(n);
  for (int& id : t) id = static_cast<int>(rng.below(vocab));
  return t;
}

template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
  double d = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) d = std::max(d, std::abs(double(a[i]) - double(b[i])));
  return d;
}

}  // namespace ts::test
