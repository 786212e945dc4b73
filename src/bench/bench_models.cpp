// Random models for the benchmarks: allocate_model, then every weight matrix filled from
// SplitMix (uniform, scaled to the requested standard deviation), plus a synthetic vocabulary
// that llama.cpp reads as a SentencePiece one (specials, bytes, the space, filler pieces).
#include "bench/bench_models.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "base/rng.h"

namespace ts::bench {

namespace {

void fill(Mat& m, SplitMix& rng, float std) {
  const float a = std * std::sqrt(3.0f);  // uniform(-a, a) has this standard deviation
  float* p = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    p[i] = static_cast<float>((rng.uniform() * 2.0 - 1.0) * a);
  }
}

TokenizerData synthetic_vocab(int vocab_size) {
  TokenizerData t;
  t.kind = TokenizerKind::Spm;
  t.space_char = " ";
  t.add_space_prefix = false;
  t.add_bos = true;
  t.tokens = {"<unk>", "<s>", "</s>"};
  t.token_types = {static_cast<int>(TokenType::Unknown), static_cast<int>(TokenType::Control),
                   static_cast<int>(TokenType::Control)};
  for (int b = 0; b < 256 && static_cast<int>(t.tokens.size()) < vocab_size; ++b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
    t.tokens.push_back(buf);
    t.token_types.push_back(static_cast<int>(TokenType::Byte));
  }
  // The space as a piece of its own (written to GGUF as U+2581): without it a space is three
  // byte pieces, which llama.cpp turns back into a literal U+2581, not a space.
  if (static_cast<int>(t.tokens.size()) < vocab_size) {
    t.tokens.push_back(" ");
    t.token_types.push_back(static_cast<int>(TokenType::Normal));
  }
  for (int i = 0; static_cast<int>(t.tokens.size()) < vocab_size; ++i) {
    t.tokens.push_back("w" + std::to_string(i) + "_");
    t.token_types.push_back(static_cast<int>(TokenType::Normal));
  }
  t.scores.assign(t.tokens.size(), 0.0f);
  t.unk_id = 0;
  t.bos_id = 1;
  t.eos_id = 2;
  return t;
}

}  // namespace

ModelConfig gpt2_124m_config() {
  ModelConfig c;
  set_family(c, "gpt2");
  c.name = "random GPT-2 124M shape";
  c.n_layers = 12;
  c.n_heads = 12;
  c.n_kv_heads = 12;
  c.d_model = 768;
  c.d_ff = 3072;
  c.vocab_size = 50257;
  c.n_ctx = 1024;
  c.tied_embeddings = true;
  return c;
}

LoadedModel random_model(const ModelConfig& c, uint64_t seed, float std) {
  LoadedModel lm;
  lm.model = allocate_model(c);
  SplitMix rng(seed);
  Weights& w = lm.model.weights;
  fill(w.tok_embd, rng, std);
  if (w.pos_embd.size()) fill(w.pos_embd, rng, std);
  if (w.output.size()) fill(w.output, rng, std);
  for (LayerWeights& l : w.layers) {
    for (Mat* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down}) {
      if (m->size()) fill(*m, rng, std);
    }
    // Biases and norm gains off their zeros and ones, so a file checked against another
    // runtime shows a bias read wrongly (an unused one changes nothing).
    for (Vec* v : {&l.bq, &l.bk, &l.bv, &l.bo, &l.b_up, &l.b_down, &l.attn_norm_b, &l.ffn_norm_b}) {
      for (float& x : *v) x = static_cast<float>(std * rng.normal());
    }
    for (Vec* v : {&l.attn_norm, &l.ffn_norm}) {
      for (float& x : *v) x = static_cast<float>(1.0 + 5.0 * std * rng.normal());
    }
  }
  for (float& x : w.out_norm_b) x = static_cast<float>(std * rng.normal());
  lm.tokenizer = synthetic_vocab(c.vocab_size);
  lm.info.format = "memory";
  lm.info.path = "";
  lm.info.config = c;
  lm.info.n_params = lm.model.parameter_count();
  lm.info.memory_bytes = lm.info.n_params * sizeof(float);
  return lm;
}

Result<size_t> write_random_gguf(const ModelConfig& c, uint64_t seed, float std, GgmlType type,
                                 const std::string& path) {
  const LoadedModel lm = random_model(c, seed, std);
  TS_TRY(save_gguf_model_as(path, lm.model, lm.tokenizer, type));
  return lm.model.parameter_count();
}

Result<LoadedModel> random_model_as(const ModelConfig& c, uint64_t seed, GgmlType type) {
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("tokenscope-bench-" + std::to_string(c.d_model) + "-" + std::to_string(seed) + ".gguf"))
          .string();
  Result<size_t> wrote = write_random_gguf(c, seed, 0.02f, type, path);
  if (!wrote.ok()) return wrote.error();
  Result<LoadedModel> m = load_model_file(path);
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return m;
}

}  // namespace ts::bench
