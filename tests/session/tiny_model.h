// A tiny random Llama-style model built in memory (2 layers, GQA, d_model 16) with a small
// SentencePiece-style vocabulary: <unk> <s> </s>, the 256 byte-fallback pieces, then single
// letters, a space and a few merged pieces. For session and CLI tests that need no files.
#pragma once
#include <cstdio>
#include <string>

#include "base/rng.h"
#include "formats/model_file.h"

namespace ts::test {

inline void fill_random(Mat& m, SplitMix& rng, double scale) {
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(rng.normal() * scale);
}
inline void fill_random(Vec& v, SplitMix& rng, double scale, double offset = 0.0) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>(offset + rng.normal() * scale);
  }
}

inline TokenizerData tiny_tokenizer(bool add_bos = true) {
  TokenizerData t;
  t.kind = TokenizerKind::Spm;
  t.space_char = " ";
  t.add_space_prefix = false;
  t.add_bos = add_bos;
  t.tokens = {"<unk>", "<s>", "</s>"};
  t.token_types = {static_cast<int>(TokenType::Unknown), static_cast<int>(TokenType::Control),
                   static_cast<int>(TokenType::Control)};
  for (int b = 0; b < 256; ++b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
    t.tokens.push_back(buf);
    t.token_types.push_back(static_cast<int>(TokenType::Byte));
  }
  for (char c = 'a'; c <= 'z'; ++c) t.tokens.push_back(std::string(1, c));
  for (const char* p : {" ", ".", "ab", "th", "the", " the", "ing", "lo", "lol"}) t.tokens.push_back(p);
  while (t.token_types.size() < t.tokens.size()) {
    t.token_types.push_back(static_cast<int>(TokenType::Normal));
  }
  t.scores.assign(t.tokens.size(), 0.0f);
  for (size_t i = 3 + 256; i < t.tokens.size(); ++i) {
    t.scores[i] = static_cast<float>(t.tokens[i].size());  // longer merges win
  }
  t.unk_id = 0;
  t.bos_id = 1;
  t.eos_id = 2;
  return t;
}

// vocab = tiny_tokenizer().tokens.size(); weights random but fixed by `seed`.
inline LoadedModel tiny_model(int n_ctx = 64, uint64_t seed = 1, bool add_bos = true) {
  LoadedModel lm;
  lm.tokenizer = tiny_tokenizer(add_bos);
  ModelConfig c;
  c.architecture = "llama";
  c.name = "tiny-random";
  c.n_layers = 2;
  c.n_heads = 2;
  c.n_kv_heads = 1;
  c.d_model = 16;
  c.d_ff = 32;
  c.vocab_size = static_cast<int>(lm.tokenizer.tokens.size());
  c.n_ctx = n_ctx;
  lm.model = allocate_model(c);
  SplitMix rng(seed);
  Weights& w = lm.model.weights;
  fill_random(w.tok_embd, rng, 1.0);
  fill_random(w.out_norm, rng, 0.1, 1.0);
  for (LayerWeights& l : w.layers) {
    fill_random(l.attn_norm, rng, 0.1, 1.0);
    fill_random(l.ffn_norm, rng, 0.1, 1.0);
    fill_random(l.wq, rng, 0.3);
    fill_random(l.wk, rng, 0.3);
    fill_random(l.wv, rng, 0.3);
    fill_random(l.wo, rng, 0.3);
    fill_random(l.w_gate, rng, 0.3);
    fill_random(l.w_up, rng, 0.3);
    fill_random(l.w_down, rng, 0.3);
  }
  lm.info.path = "";
  lm.info.format = "memory";
  lm.info.config = c;
  lm.info.n_params = lm.model.parameter_count();
  lm.info.memory_bytes = lm.info.n_params * sizeof(float);
  return lm;
}

}  // namespace ts::test
