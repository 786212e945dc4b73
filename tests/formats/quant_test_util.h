// Helpers of the quantized-type tests (test_quant_blocks.cpp, test_quant_files.cpp): fp16 bytes,
// decoding one tensor, Gaussian test data, relative RMS error, a small random llama model and a
// hand-made one-tensor GGUF.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/f16.h"
#include "base/rng.h"
#include "engine/forward.h"
#include "engine/model.h"
#include "formats/gguf.h"
#include "formats/gguf_model.h"
#include "formats/memory_budget.h"
#include "formats/model_file.h"
#include "formats/quant/quant.h"
#include "formats/quant/quant_k_scales.h"

namespace ts::quant_test {


inline void put_f16(std::vector<uint8_t>& b, size_t at, float v) {
  const uint16_t h = f32_to_f16(v);
  std::memcpy(b.data() + at, &h, 2);
}

inline std::vector<float> decode(GgmlType t, const std::vector<uint8_t>& bytes, size_t n) {
  std::vector<float> out(n, -999.0f);
  Status st = ggml_to_f32(t, bytes.data(), n, out.data());
  REQUIRE_MESSAGE(st.ok(), st.error().message);
  return out;
}

inline std::vector<float> quant_test_normals(size_t n, uint64_t seed, double scale) {
  SplitMix rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(rng.normal() * scale);
  return v;
}

// sqrt(sum (y - x)^2 / sum x^2).
inline double relative_rms(const float* x, const float* y, size_t n) {
  double err = 0.0, ref = 0.0;
  for (size_t i = 0; i < n; ++i) {
    err += (static_cast<double>(y[i]) - x[i]) * (static_cast<double>(y[i]) - x[i]);
    ref += static_cast<double>(x[i]) * x[i];
  }
  return ref > 0.0 ? std::sqrt(err / ref) : std::sqrt(err);
}

inline std::string quant_temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ts_test_quant_" + name)).string();
}

inline ModelConfig quant_llama_config() {
  ModelConfig c;
  set_family(c, "llama");
  c.name = "tiny-quant";
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.d_model = 256;  // every matrix row is a whole number of 256-value super-blocks
  c.d_ff = 512;
  c.vocab_size = 64;
  c.n_ctx = 16;
  c.norm_eps = 1e-5f;
  c.rope_theta = 10000.0f;
  c.tied_embeddings = false;
  return c;
}

// Every matrix ~ N(0, 0.05^2), every norm weight ~ 1 + N(0, 0.05^2).
inline Model quant_random_model(const ModelConfig& c, uint64_t seed) {
  Model m = allocate_model(c);
  SplitMix rng(seed);
  auto fill = [&](float* p, long n, float base) {
    for (long i = 0; i < n; ++i) p[i] = base + static_cast<float>(rng.normal() * 0.05);
  };
  Weights& w = m.weights;
  fill(w.tok_embd.data(), w.tok_embd.size(), 0.0f);
  fill(w.output.data(), w.output.size(), 0.0f);
  fill(w.out_norm.data(), w.out_norm.size(), 1.0f);
  for (LayerWeights& l : w.layers) {
    for (Mat* x : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down}) {
      fill(x->data(), x->size(), 0.0f);
    }
    fill(l.attn_norm.data(), l.attn_norm.size(), 1.0f);
    fill(l.ffn_norm.data(), l.ffn_norm.size(), 1.0f);
  }
  return m;
}

// A hand-made GGUF with one tensor of the given shape and type followed by `data_bytes` bytes.
inline std::vector<uint8_t> quant_one_tensor_file(std::vector<uint64_t> ne, GgmlType type,
                                           size_t data_bytes) {
  std::vector<uint8_t> b;
  auto pod = [&](auto v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof v);
  };
  b.insert(b.end(), {'G', 'G', 'U', 'F'});
  pod(uint32_t{3});
  pod(uint64_t{1});  // tensors
  pod(uint64_t{0});  // metadata
  const std::string name = "w";
  pod(uint64_t{name.size()});
  b.insert(b.end(), name.begin(), name.end());
  pod(static_cast<uint32_t>(ne.size()));
  for (uint64_t d : ne) pod(d);
  pod(static_cast<uint32_t>(type));
  pod(uint64_t{0});  // offset
  while (b.size() % 32) b.push_back(0);
  b.insert(b.end(), data_bytes, 0x33);
  return b;
}

inline void check_one_line_error(const std::string& m, const std::string& starts, const std::string& has) {
  CHECK_MESSAGE(m.rfind(starts, 0) == 0, m);
  CHECK_MESSAGE(m.find('\n') == std::string::npos, m);
  CHECK_MESSAGE(m.find(has) != std::string::npos, "expected '" << has << "' in: " << m);
}

}  // namespace ts::quant_test
