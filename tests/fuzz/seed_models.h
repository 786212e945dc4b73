// Tiny models and vocabularies built in memory for the fuzz seed corpus and the robustness
// tests: a few kilobytes once written as GGUF or llama2.c, so libFuzzer mutates them quickly.
// Weights are random but fixed by a seed. Nothing here reads files; writing uses the project's
// own writers (formats/gguf_model.h) or, for llama2.c, the plain layout of its README.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/rng.h"
#include "formats/gguf_model.h"
#include "formats/model_file.h"

namespace ts::fuzz {

// SentencePiece-style: <unk> <s> </s>, optionally the 256 byte-fallback pieces, then single
// characters and a few merged pieces (with `space` standing for a space), up to `vocab` tokens.
inline TokenizerData small_spm(int vocab, bool byte_fallback, const std::string& space) {
  TokenizerData t;
  t.kind = TokenizerKind::Spm;
  t.pre = "default";
  t.space_char = space;
  t.add_bos = true;
  t.add_space_prefix = true;
  t.tokens = {"<unk>", "<s>", "</s>"};
  t.token_types = {int32_t(TokenType::Unknown), int32_t(TokenType::Control),
                   int32_t(TokenType::Control)};
  if (byte_fallback) {
    for (int b = 0; b < 256; ++b) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "<0x%02X>", b);
      t.tokens.push_back(buf);
      t.token_types.push_back(int32_t(TokenType::Byte));
    }
  }
  std::vector<std::string> pieces = {space, "e", "t", "a", "o", "h", "n", "s", ".", "th",
                                     space + "t", space + "th", space + "the", "he", "\xC3\xA9",
                                     "\xF0\x9F\x98\x80", "e\xCC\x81", space + "a", "in", "ing"};
  for (char c = 'b'; c <= 'z' && pieces.size() < 200; ++c) {
    if (std::string(1, c).find_first_of("ethaons") == std::string::npos) pieces.push_back({c});
  }
  for (size_t i = 0; t.tokens.size() < static_cast<size_t>(vocab); ++i) {
    t.tokens.push_back(i < pieces.size() ? pieces[i] : "x" + std::to_string(i));
    t.token_types.push_back(int32_t(TokenType::Normal));
  }
  t.tokens.resize(vocab);
  t.token_types.resize(vocab);
  t.scores.assign(t.tokens.size(), 0.0f);
  for (size_t i = 3; i < t.tokens.size(); ++i) t.scores[i] = static_cast<float>(t.tokens[i].size());
  t.unk_id = 0;
  t.bos_id = 1;
  t.eos_id = 2;
  return t;
}

inline void fill(Mat& m, SplitMix& rng, double scale, double offset = 0.0) {
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    m.data()[i] = static_cast<float>(offset + rng.normal() * scale);
  }
}
inline void fill(Vec& v, SplitMix& rng, double scale, double offset = 0.0) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>(offset + rng.normal() * scale);
  }
}

// architecture "llama" (GQA: 2 heads, 1 kv head), "qwen2" (Q/K/V biases) or "gpt2".
inline Model small_model(const std::string& arch, int vocab, int n_ctx = 32, int n_layers = 1,
                         uint64_t seed = 7, bool tied = true) {
  ModelConfig c;
  set_family(c, arch);
  c.name = "fuzz-seed";
  c.n_layers = n_layers;
  c.n_heads = 2;
  c.n_kv_heads = arch == "gpt2" ? 2 : 1;
  c.d_model = 8;
  c.d_ff = 16;
  c.vocab_size = vocab;
  c.n_ctx = n_ctx;
  c.tied_embeddings = tied;
  Model m = allocate_model(c);
  SplitMix rng(seed);
  Weights& w = m.weights;
  fill(w.tok_embd, rng, 1.0);
  fill(w.pos_embd, rng, 0.1);
  fill(w.output, rng, 0.5);
  fill(w.out_norm, rng, 0.1, 1.0);
  fill(w.out_norm_b, rng, 0.1);
  for (LayerWeights& l : w.layers) {
    for (Vec* v : {&l.attn_norm, &l.ffn_norm}) fill(*v, rng, 0.1, 1.0);
    for (Vec* v : {&l.attn_norm_b, &l.ffn_norm_b, &l.bq, &l.bk, &l.bv, &l.bo, &l.b_up, &l.b_down})
      fill(*v, rng, 0.1);
    for (Mat* x : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down}) fill(*x, rng, 0.4);
  }
  return m;
}

inline LoadedModel small_loaded(const std::string& arch, const TokenizerData& tok, int n_ctx = 32) {
  LoadedModel lm;
  lm.tokenizer = tok;
  lm.model = small_model(arch, static_cast<int>(tok.tokens.size()), n_ctx);
  lm.info.format = "memory";
  lm.info.config = lm.model.config;
  lm.info.n_params = lm.model.parameter_count();
  return lm;
}

// The bytes of a GGUF file holding `m` and `tok` (matrices as `type`).
inline std::vector<uint8_t> gguf_bytes(const Model& m, const TokenizerData& tok,
                                       GgmlType type = GgmlType::F16) {
  GgufWriter w;
  Status st = model_to_gguf(m, tok, {{"general.description", "tokenscope fuzz seed"}}, type, w);
  if (!st.ok()) return {};
  Result<std::vector<uint8_t>> b = w.to_bytes();
  return b.ok() ? std::move(b).value() : std::vector<uint8_t>{};
}

inline void put_i32(std::vector<uint8_t>& out, int32_t v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + 4);
}
inline void put_f32(std::vector<uint8_t>& out, float v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + 4);
}
inline void put_mat(std::vector<uint8_t>& out, const Mat& m) {  // row-major (out, in)
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) put_f32(out, m(r, c));
}
inline void put_vec(std::vector<uint8_t>& out, const Vec& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i) put_f32(out, v[i]);
}

// A llama2.c "version 0" checkpoint of a Llama-block model (layout: golden/llama2c/README.md).
inline std::vector<uint8_t> llama2c_bytes(const Model& m) {
  const ModelConfig& c = m.config;
  const Weights& w = m.weights;
  std::vector<uint8_t> out;
  for (int v : {c.d_model, c.d_ff, c.n_layers, c.n_heads, c.n_kv_heads,
                c.tied_embeddings ? c.vocab_size : -c.vocab_size, c.n_ctx}) {
    put_i32(out, v);
  }
  put_mat(out, w.tok_embd);
  for (const LayerWeights& l : w.layers) put_vec(out, l.attn_norm);
  for (auto mem : {&LayerWeights::wq, &LayerWeights::wk, &LayerWeights::wv, &LayerWeights::wo}) {
    for (const LayerWeights& l : w.layers) put_mat(out, l.*mem);
  }
  for (const LayerWeights& l : w.layers) put_vec(out, l.ffn_norm);
  for (auto mem : {&LayerWeights::w_gate, &LayerWeights::w_down, &LayerWeights::w_up}) {
    for (const LayerWeights& l : w.layers) put_mat(out, l.*mem);
  }
  put_vec(out, w.out_norm);
  for (int i = 0; i < c.n_ctx * c.head_dim(); ++i) put_f32(out, 0.0f);  // legacy RoPE tables
  if (!c.tied_embeddings) put_mat(out, w.output);
  return out;
}

// A llama2.c tokenizer.bin for `t` (scores and pieces as stored).
inline std::vector<uint8_t> llama2c_tokenizer_bytes(const TokenizerData& t) {
  std::vector<uint8_t> out;
  int32_t max_len = 1;
  for (const std::string& s : t.tokens) max_len = std::max<int32_t>(max_len, int32_t(s.size()));
  put_i32(out, max_len);
  for (size_t i = 0; i < t.tokens.size(); ++i) {
    put_f32(out, t.scores.empty() ? 0.0f : t.scores[i]);
    put_i32(out, static_cast<int32_t>(t.tokens[i].size()));
    out.insert(out.end(), t.tokens[i].begin(), t.tokens[i].end());
  }
  return out;
}

}  // namespace ts::fuzz
