// Tests of the GGUF <-> Model/TokenizerData mapping: random models of each architecture saved as
// F32 / F16 / Q8_0 and loaded back (exact, f16 rounding, Q8_0 within its error bound), llama.cpp
// layout facts (ne order, fused GPT-2 QKV as [q; k; v]), the real vocabulary-only files, a
// llama2.c checkpoint converted to GGUF, and clear errors for broken or unsupported files.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>

#include "base/f16.h"
#include "base/rng.h"
#include "formats/gguf_model.h"
#include "formats/gguf_tokenizer.h"
#include "formats/model_file.h"
#include "golden.h"

using namespace ts;

namespace {

struct Param {
  std::string name;
  const float* data;
  size_t size;
  long cols;
};

// Every weight of a model with a stable name (biases of models without them are skipped).
std::vector<Param> params(const Model& m) {
  std::vector<Param> out;
  auto mat = [&](const std::string& n, const Mat& x) {
    if (x.size()) out.push_back({n, x.data(), static_cast<size_t>(x.size()), x.cols()});
  };
  auto vec = [&](const std::string& n, const Vec& x) {
    if (x.size()) out.push_back({n, x.data(), static_cast<size_t>(x.size()), 0});
  };
  const Weights& w = m.weights;
  mat("tok_embd", w.tok_embd);
  mat("pos_embd", w.pos_embd);
  vec("out_norm", w.out_norm);
  vec("out_norm_b", w.out_norm_b);
  mat("output", w.output);
  for (size_t i = 0; i < w.layers.size(); ++i) {
    const LayerWeights& l = w.layers[i];
    const std::string b = std::to_string(i) + ".";
    vec(b + "attn_norm", l.attn_norm);
    vec(b + "attn_norm_b", l.attn_norm_b);
    mat(b + "wq", l.wq);
    mat(b + "wk", l.wk);
    mat(b + "wv", l.wv);
    mat(b + "wo", l.wo);
    vec(b + "bq", l.bq);
    vec(b + "bk", l.bk);
    vec(b + "bv", l.bv);
    vec(b + "bo", l.bo);
    vec(b + "ffn_norm", l.ffn_norm);
    vec(b + "ffn_norm_b", l.ffn_norm_b);
    mat(b + "w_gate", l.w_gate);
    mat(b + "w_up", l.w_up);
    mat(b + "w_down", l.w_down);
    vec(b + "b_up", l.b_up);
    vec(b + "b_down", l.b_down);
  }
  return out;
}

Model random_model(const ModelConfig& c, uint64_t seed) {
  Model m = allocate_model(c);
  SplitMix rng(seed);
  for (const Param& p : params(m)) {
    auto* d = const_cast<float*>(p.data);
    for (size_t i = 0; i < p.size; ++i) d[i] = static_cast<float>(rng.normal() * 0.5);
  }
  return m;
}

ModelConfig config(const std::string& arch, int d_ff, bool tied) {
  ModelConfig c;
  c.name = "tiny-" + arch;
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = arch == "gpt2" ? 4 : 2;
  c.d_model = 64;
  c.d_ff = d_ff;
  c.vocab_size = 40;
  c.n_ctx = 24;
  c.norm_eps = arch == "gpt2" ? 1e-5f : 1e-6f;
  c.rope_theta = arch == "qwen2" ? 1000000.0f : 10000.0f;
  c.tied_embeddings = tied;
  REQUIRE(set_family(c, arch));  // after the sizes: a partial-RoPE family needs the head size
  return c;
}

TokenizerData bpe_tokenizer(int n) {
  TokenizerData t;
  t.kind = TokenizerKind::Bpe;
  t.pre = "gpt2";
  for (int i = 0; i < n; ++i) t.tokens.push_back("t" + std::to_string(i));
  t.merges = {"t 1", "t 2"};
  t.token_types.assign(n, 1);
  t.token_types[n - 1] = 3;
  t.bos_id = t.eos_id = n - 1;
  t.add_bos = false;
  t.add_space_prefix = false;
  t.chat_template = "{{ messages }}";
  return t;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ts_test_" + name)).string();
}

void check_config_equal(const ModelConfig& a, const ModelConfig& b) {
  CHECK(a.architecture == b.architecture);
  CHECK(a.name == b.name);
  CHECK(a.norm == b.norm);
  CHECK(a.positions == b.positions);
  CHECK(a.mlp == b.mlp);
  CHECK(a.dense_bias == b.dense_bias);
  CHECK(a.rope_dims == b.rope_dims);
  CHECK(a.n_layers == b.n_layers);
  CHECK(a.n_heads == b.n_heads);
  CHECK(a.n_kv_heads == b.n_kv_heads);
  CHECK(a.d_model == b.d_model);
  CHECK(a.d_ff == b.d_ff);
  CHECK(a.vocab_size == b.vocab_size);
  CHECK(a.n_ctx == b.n_ctx);
  CHECK(a.norm_eps == b.norm_eps);
  CHECK(a.rope_theta == b.rope_theta);
  CHECK(a.rope == b.rope);
  CHECK(a.qkv_bias == b.qkv_bias);
  CHECK(a.tied_embeddings == b.tied_embeddings);
}

// Element-wise check within the type's documented error. Vectors are always F32 (exact); a Q8_0
// matrix whose rows are not a multiple of 32 was written as F16.
// A Q8_0 matrix read back stays in its blocks (engine/quant/qmat.h); its values are compared
// decoded.
void check_weights(const Model& a, const Model& b_read, GgmlType type) {
  Model b = b_read;
  dequantize_weights(b);
  const std::vector<Param> pa = params(a), pb = params(b);
  REQUIRE(pa.size() == pb.size());
  for (size_t k = 0; k < pa.size(); ++k) {
    CAPTURE(pa[k].name);
    REQUIRE(pa[k].name == pb[k].name);
    REQUIRE(pa[k].size == pb[k].size);
    GgmlType t = pa[k].cols == 0 ? GgmlType::F32 : type;
    if (t == GgmlType::Q8_0 && pa[k].cols % 32 != 0) t = GgmlType::F16;
    const float* x = pa[k].data;
    const float* y = pb[k].data;
    for (size_t i = 0; i < pa[k].size; ++i) {
      if (t == GgmlType::F32) {
        REQUIRE(y[i] == x[i]);
      } else if (t == GgmlType::F16) {
        REQUIRE(y[i] == f16_to_f32(f32_to_f16(x[i])));
      } else {
        float amax = 0;
        const size_t block = i / 32 * 32;
        for (size_t j = block; j < block + 32; ++j) amax = std::max(amax, std::fabs(x[j]));
        REQUIRE(std::fabs(y[i] - x[i]) <= q8_0_max_error(amax));
      }
    }
  }
}

}  // namespace

TEST_CASE("gguf model: write -> read for each architecture and tensor type") {
  struct Case {
    std::string arch;
    int d_ff;
    bool tied;
  };
  const Case cases[] = {{"llama", 96, true}, {"llama", 40, false}, {"qwen2", 96, true},
                        {"gpt2", 96, false}, {"gpt2", 64, true},   {"stablelm", 96, false}};
  for (const Case& cs : cases) {
    for (GgmlType type : {GgmlType::F32, GgmlType::F16, GgmlType::Q8_0}) {
      CAPTURE(cs.arch);
      CAPTURE(cs.d_ff);
      CAPTURE(ggml_type_name(static_cast<uint32_t>(type)));
      const Model m = random_model(config(cs.arch, cs.d_ff, cs.tied), 11);
      const TokenizerData tok = bpe_tokenizer(40);
      const std::string path = temp_path("model.gguf");
      REQUIRE(save_gguf_model_as(path, m, tok, type, {{"general.description", "test"}}).ok());
      Result<LoadedModel> lm = load_model_file(path);
      REQUIRE_MESSAGE(lm.ok(), lm.error().message);
      check_config_equal(m.config, lm->model.config);
      check_weights(m, lm->model, type);
      CHECK(lm->info.format == "gguf");
      CHECK(lm->info.n_params == m.parameter_count());  // fused QKV counts the same
      CHECK(lm->tokenizer.tokens == tok.tokens);
      CHECK(lm->tokenizer.merges == tok.merges);
      CHECK(lm->tokenizer.pre == "gpt-2");  // written as llama.cpp names GPT-2's splitter
      CHECK(lm->tokenizer.token_types == tok.token_types);
      CHECK(lm->tokenizer.bos_id == 39);
      CHECK(lm->tokenizer.unk_id == -1);
      CHECK(lm->tokenizer.chat_template == tok.chat_template);
      CHECK_FALSE(lm->tokenizer.add_bos);
      Result<ModelFileInfo> info = inspect_model_file(path);
      REQUIRE(info.ok());
      check_config_equal(m.config, info->config);
      bool has_desc = false;
      for (const auto& [k, v] : info->metadata) {
        has_desc |= k == "general.description" && v == "\"test\"";
      }
      CHECK(has_desc);
      std::filesystem::remove(path);
    }
  }
}

TEST_CASE("gguf model: llama.cpp layout facts") {
  const Model m = random_model(config("gpt2", 64, true), 5);
  GgufWriter w;
  REQUIRE(model_to_gguf(m, {}, {}, GgmlType::F32, w).ok());
  Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(w.to_bytes().value(), "g.gguf"));
  REQUIRE(f.ok());
  CHECK(*f->find("general.architecture")->as_string() == "gpt2");
  CHECK(f->find("gpt2.attention.layer_norm_epsilon")->type == GgufValueType::Float32);
  CHECK(f->find("gpt2.block_count")->u == 2);
  CHECK(f->find("general.file_type")->u == 0);
  CHECK(f->find("output.weight") == nullptr);  // tied: absent
  CHECK(f->find_tensor("output.weight") == nullptr);
  CHECK(f->find_tensor("token_embd.weight")->ne == std::vector<uint64_t>{64, 40});  // {in, out}
  CHECK(f->find_tensor("position_embd.weight")->ne == std::vector<uint64_t>{64, 24});
  CHECK(f->find_tensor("blk.1.ffn_down.weight")->ne == std::vector<uint64_t>{64, 64});
  CHECK(f->find_tensor("blk.0.attn_q.weight") == nullptr);
  const GgufTensorInfo* qkv = f->find_tensor("blk.0.attn_qkv.weight");
  REQUIRE(qkv);
  CHECK(qkv->ne == std::vector<uint64_t>{64, 192});
  const std::vector<float> data = f->read_tensor_f32(*qkv).value();
  const LayerWeights& l = m.weights.layers[0];
  CHECK(std::memcmp(data.data(), l.wq.data(), 64 * 64 * 4) == 0);  // rows [q; k; v]
  CHECK(std::memcmp(data.data() + 64 * 64, l.wk.data(), 64 * 64 * 4) == 0);
  CHECK(std::memcmp(data.data() + 2 * 64 * 64, l.wv.data(), 64 * 64 * 4) == 0);
  const std::vector<float> bias =
      f->read_tensor_f32(*f->find_tensor("blk.0.attn_qkv.bias")).value();
  CHECK(bias[64] == l.bk(0));

  const Model q = random_model(config("qwen2", 64, true), 6);
  GgufWriter wq;
  REQUIRE(model_to_gguf(q, {}, {}, GgmlType::Q8_0, wq).ok());
  Result<GgufFile> fq = GgufFile::read(ByteSource::from_memory(wq.to_bytes().value(), "q.gguf"));
  REQUIRE(fq.ok());
  CHECK(fq->find("qwen2.rope.freq_base")->f == 1000000.0);
  CHECK(fq->find("qwen2.attention.head_count_kv")->u == 2);
  CHECK(fq->find("general.file_type")->u == 7);
  CHECK(fq->find_tensor("blk.0.attn_k.bias")->ne == std::vector<uint64_t>{32});
  CHECK(fq->find_tensor("blk.0.attn_k.weight")->type == static_cast<uint32_t>(GgmlType::Q8_0));
  CHECK(fq->find_tensor("blk.0.attn_norm.weight")->type == static_cast<uint32_t>(GgmlType::F32));
}

TEST_CASE("gguf model: tokenizer.ggml.pre is written as llama.cpp names it") {
  // llama.cpp refuses "gpt2" ("unknown pre-tokenizer type"); GPT-2's splitter is "gpt-2".
  const Model m = random_model(config("llama", 96, true), 4);
  auto written_pre = [&](TokenizerKind kind, const std::string& pre) {
    TokenizerData t = bpe_tokenizer(40);
    t.kind = kind;
    t.pre = pre;
    if (kind == TokenizerKind::Spm) {
      t.merges.clear();
      t.scores.assign(40, 0.0f);
    }
    GgufWriter w;
    REQUIRE(model_to_gguf(m, t, {}, GgmlType::F32, w).ok());
    Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(w.to_bytes().value(), "p.gguf"));
    REQUIRE(f.ok());
    return std::string(*f->find("tokenizer.ggml.pre")->as_string());
  };
  CHECK(written_pre(TokenizerKind::Bpe, "gpt2") == "gpt-2");
  CHECK(written_pre(TokenizerKind::Bpe, "") == "gpt-2");
  CHECK(written_pre(TokenizerKind::Bpe, "gpt-2") == "gpt-2");
  CHECK(written_pre(TokenizerKind::Bpe, "default") == "default");  // kept: another splitter
  CHECK(written_pre(TokenizerKind::Bpe, "qwen2") == "qwen2");
  CHECK(written_pre(TokenizerKind::Bpe, "smollm") == "smollm");
  CHECK(written_pre(TokenizerKind::Spm, "default") == "default");
  CHECK(written_pre(TokenizerKind::Spm, "") == "default");
}

TEST_CASE("gguf model: add_space_prefix is written true only for SPM vocabularies that use it") {
  // llama.cpp's detokenizer drops the first leading space when the key is true, BPE included.
  const Model m = random_model(config("llama", 96, true), 4);
  auto written_prefix = [&](TokenizerKind kind, bool add_space_prefix) {
    TokenizerData t = bpe_tokenizer(40);
    t.kind = kind;
    t.add_space_prefix = add_space_prefix;
    if (kind == TokenizerKind::Spm) {
      t.merges.clear();
      t.scores.assign(40, 0.0f);
    }
    GgufWriter w;
    REQUIRE(model_to_gguf(m, t, {}, GgmlType::F32, w).ok());
    Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(w.to_bytes().value(), "s.gguf"));
    REQUIRE(f.ok());
    return *f->find("tokenizer.ggml.add_space_prefix")->as_bool();
  };
  CHECK_FALSE(written_prefix(TokenizerKind::Bpe, true));  // e.g. a tokenizer back from a checkpoint
  CHECK_FALSE(written_prefix(TokenizerKind::Bpe, false));
  CHECK(written_prefix(TokenizerKind::Spm, true));
  CHECK_FALSE(written_prefix(TokenizerKind::Spm, false));
}

TEST_CASE("gguf model: the real vocabulary-only files" * doctest::test_suite("golden")) {
  if (!test::have_golden("gguf-vocab/ggml-vocab-gpt-2.gguf")) return;
  const auto dir = test::golden_dir() / "gguf-vocab";
  Result<TokenizerData> g = load_tokenizer_file((dir / "ggml-vocab-gpt-2.gguf").string());
  REQUIRE_MESSAGE(g.ok(), g.error().message);
  CHECK(g->kind == TokenizerKind::Bpe);
  CHECK(g->tokens.size() == 50257);
  CHECK(g->merges.size() == 50000);
  CHECK(g->merges[0] == "\xC4\xA0 t");
  CHECK(g->pre == "gpt-2");
  CHECK(g->bos_id == 50256);
  CHECK(g->eos_id == 50256);
  CHECK(g->tokens[50256] == "<|endoftext|>");
  CHECK_FALSE(g->add_bos);

  Result<TokenizerData> s = load_tokenizer_file((dir / "ggml-vocab-llama-spm.gguf").string());
  REQUIRE_MESSAGE(s.ok(), s.error().message);
  CHECK(s->kind == TokenizerKind::Spm);
  CHECK(s->tokens.size() == 32000);
  CHECK(s->scores.size() == 32000);
  CHECK(s->token_types.size() == 32000);
  CHECK(s->token_types[0] == static_cast<int>(TokenType::Unknown));
  CHECK(s->token_types[1] == static_cast<int>(TokenType::Control));
  CHECK(s->token_types[3] == static_cast<int>(TokenType::Byte));
  CHECK(s->tokens[3] == "<0x00>");
  CHECK(s->space_char == kSpmSpace);
  CHECK(s->bos_id == 1);
  CHECK(s->eos_id == 2);
  CHECK(s->unk_id == 0);
  CHECK(s->add_bos);
  CHECK(s->merges.empty());

  Result<ModelFileInfo> info = inspect_model_file((dir / "ggml-vocab-llama-spm.gguf").string());
  REQUIRE_MESSAGE(info.ok(), info.error().message);
  CHECK_FALSE(info->has_weights);
  CHECK(info->config.architecture == "llama");
  CHECK(info->config.vocab_size == 32000);
  CHECK(info->config.d_model == 4096);
  CHECK(info->n_params == 0);
  Result<LoadedModel> lm = load_model_file((dir / "ggml-vocab-gpt-2.gguf").string());
  REQUIRE_FALSE(lm.ok());
  CHECK(lm.error().message.find("no weights") != std::string::npos);
}

TEST_CASE("gguf model: a llama2.c checkpoint converts to GGUF and back" *
          doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/aidreams260K.bin")) return;
  const auto dir = test::golden_dir() / "llama2c";
  Result<LoadedModel> src =
      load_model_file((dir / "aidreams260K.bin").string(), (dir / "tok512.bin").string());
  REQUIRE_MESSAGE(src.ok(), src.error().message);
  const std::string path = temp_path("aidreams.gguf");
  REQUIRE(save_gguf_model(path, src->model, src->tokenizer, {{"general.source", "llama2c"}}).ok());
  Result<LoadedModel> back = load_model_file(path);
  REQUIRE_MESSAGE(back.ok(), back.error().message);
  check_config_equal(src->model.config, back->model.config);
  check_weights(src->model, back->model, GgmlType::F32);
  CHECK(back->info.tensor_types == std::to_string(1 + 1 + 4 * 9) + " F32");
  const TokenizerData& t = back->tokenizer;
  CHECK(t.kind == TokenizerKind::Spm);
  CHECK(t.space_char == kSpmSpace);
  CHECK(t.tokens.size() == 512);
  CHECK(t.tokens[262] ==
        "\xE2\x96\x81"
        "a");  // " a" with the GGUF space mark
  CHECK(src->tokenizer.tokens[1] == "\n<s>\n");  // llama2.c's BOS and EOS pieces ...
  CHECK(src->tokenizer.tokens[2] == "\n</s>\n");
  CHECK(t.tokens[1] == "<s>");  // ... as SentencePiece and llama.cpp name them
  CHECK(t.tokens[2] == "</s>");
  CHECK(t.scores == src->tokenizer.scores);
  CHECK(t.token_types == src->tokenizer.token_types);
  CHECK(t.add_bos);
  CHECK(t.add_space_prefix);
  std::filesystem::remove(path);
}

TEST_CASE("gguf model: broken and unsupported files give clear errors") {
  const Model m = random_model(config("llama", 96, true), 3);
  auto load_with = [&](const std::function<void(GgufWriter&)>& tweak) {
    GgufWriter w;
    REQUIRE(model_to_gguf(m, bpe_tokenizer(40), {}, GgmlType::F32, w).ok());
    tweak(w);
    Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(w.to_bytes().value(), "m.gguf"));
    REQUIRE(f.ok());
    Result<Model> r = model_from_gguf(f.value());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.rfind("m.gguf: ", 0) == 0);
    return r.error().message;
  };
  auto has = [](const std::string& msg, const std::string& part) {
    CHECK_MESSAGE(msg.find(part) != std::string::npos, msg);
  };
  has(load_with([](GgufWriter& w) { w.set("general.architecture", GgufValue::str("mamba")); }),
      "architecture \"mamba\" is not supported");
  has(load_with([](GgufWriter& w) { w.set("llama.block_count", GgufValue::u32(3)); }),
      "missing tensor blk.2.attn_norm.weight");
  has(load_with([](GgufWriter& w) { w.set("llama.feed_forward_length", GgufValue::u32(64)); }),
      "tensor blk.0.ffn_gate.weight has shape [64, 96], expected [64, 64]");
  has(load_with([](GgufWriter& w) {  // a hostile size is caught by the shapes, not allocated
        w.set("llama.embedding_length", GgufValue::u32(1 << 24));
        w.set("llama.rope.dimension_count", GgufValue::u32(1 << 22));
      }),
      "token_embd.weight has shape [64, 40], expected [16777216, 40]");
  has(load_with([](GgufWriter& w) { w.set("llama.attention.head_count", GgufValue::u32(5)); }),
      "do not divide");
  has(load_with([](GgufWriter& w) { w.set("llama.rope.dimension_count", GgufValue::u32(8)); }),
      "rope.dimension_count");
  has(load_with([](GgufWriter& w) { w.set("llama.context_length", GgufValue::i32(-1)); }),
      "context_length = -1 is out of range");
  has(load_with([](GgufWriter& w) { w.set("llama.block_count", GgufValue::str("2")); }),
      "block_count must be an integer");
  has(load_with([](GgufWriter& w) {
        const std::vector<float> f(64, 1.0f);
        REQUIRE(w.add_tensor("rope_freqs.weight", {64}, GgmlType::F32, f).ok());
      }),
      "tensor rope_freqs.weight is not used");

  // A NaN in the data: poke it into the first value of blk.1.attn_q.weight.
  GgufWriter w;
  REQUIRE(model_to_gguf(m, {}, {}, GgmlType::F32, w).ok());
  std::vector<uint8_t> bytes = w.to_bytes().value();
  Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(bytes, "n.gguf"));
  REQUIRE(f.ok());
  const GgufTensorInfo* t = f->find_tensor("blk.1.attn_q.weight");
  const float nan = std::nanf("");
  std::memcpy(bytes.data() + f->data_offset() + t->offset + 8, &nan, 4);
  Result<GgufFile> bad = GgufFile::read(ByteSource::from_memory(bytes, "n.gguf"));
  REQUIRE(bad.ok());
  Result<Model> r = model_from_gguf(bad.value());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "n.gguf: tensor blk.1.attn_q.weight has a NaN value at index 2");

  // Saving refuses inconsistent or broken models.
  Model wrong = m;
  wrong.config.rope = RopeStyle::NeoX;
  CHECK_FALSE(save_gguf_model(temp_path("x.gguf"), wrong, {}).ok());
  Model inf = m;
  inf.weights.layers[0].wo(1, 1) = INFINITY;
  CHECK_FALSE(save_gguf_model(temp_path("x.gguf"), inf, {}).ok());
  Model bad_shape = m;
  bad_shape.weights.layers[1].wk = Mat::Zero(3, 3);
  const Status st = save_gguf_model(temp_path("x.gguf"), bad_shape, {});
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("blk.1.attn_k") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(temp_path("x.gguf")));
  CHECK_FALSE(save_gguf_model(temp_path("x.gguf"), m, bpe_tokenizer(41)).ok());  // > vocab
}
