// The model-family table (src/engine/family.h) is complete and the only place a family is named:
// every row is consistent (dense biases only with the GELU MLP, partial RoPE only with RoPE), no
// source outside family.cpp compares an architecture with a name, and every row, as it stands,
// writes a GGUF file that reads back as the same block and runs: the forward on the file agrees
// with the plain-loop reference. A new row is covered by this test with nothing else to add.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "base/rng.h"
#include "engine/forward.h"
#include "engine/kv_cache.h"
#include "engine/model.h"
#include "formats/gguf_model.h"
#include "golden.h"

using namespace ts;

namespace {

Model random_family_model(const Family& f, uint64_t seed) {
  ModelConfig c;
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.d_model = 64;  // heads of 16: a quarter is 4 dimensions
  c.d_ff = 96;
  c.vocab_size = 50;
  c.n_ctx = 24;
  c.tied_embeddings = false;
  apply_family(c, f);
  if (f.qkv_bias == BiasRule::IfPresent) c.qkv_bias = true;  // the fuller case
  Model m = allocate_model(c);
  SplitMix rng(seed);
  auto fill = [&](float* p, long n, double scale, double mean) {
    for (long i = 0; i < n; ++i) p[i] = static_cast<float>(mean + scale * rng.normal());
  };
  Weights& w = m.weights;
  for (Mat* x : {&w.tok_embd, &w.pos_embd, &w.output}) fill(x->data(), x->size(), 0.5, 0);
  fill(w.out_norm.data(), w.out_norm.size(), 0.1, 1);
  fill(w.out_norm_b.data(), w.out_norm_b.size(), 0.1, 0);
  for (LayerWeights& l : w.layers) {
    for (Mat* x : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down}) {
      fill(x->data(), x->size(), 1.2 / std::sqrt(static_cast<double>(x->cols() + 1)), 0);
    }
    for (Vec* v : {&l.attn_norm, &l.ffn_norm}) fill(v->data(), v->size(), 0.1, 1);
    for (Vec* v : {&l.attn_norm_b, &l.ffn_norm_b, &l.bq, &l.bk, &l.bv, &l.bo, &l.b_up, &l.b_down}) {
      fill(v->data(), v->size(), 0.1, 0);
    }
  }
  return m;
}

}  // namespace

TEST_CASE("family table: each row is consistent and named once") {
  std::set<std::string> names;
  REQUIRE(families().size() >= 4);
  for (const Family& f : families()) {
    CAPTURE(f.arch);
    CHECK(names.insert(f.arch).second);
    CHECK(find_family(f.arch) == &f);
    CHECK(std::string(f.label).size() > 0);
    if (f.dense_bias) CHECK(f.mlp == MlpKind::Gelu);  // no gate bias exists to load
    if (f.positions == PositionKind::Rope) {
      CHECK(f.rope_fraction > 0.0f);
      CHECK(f.rope_fraction <= 1.0f);
    } else {
      CHECK_FALSE(f.partial_rope);
    }
    if (f.rope_fraction < 1.0f && f.positions == PositionKind::Rope) CHECK(f.partial_rope);
    CHECK(family_names().find(f.arch) != std::string::npos);
  }
  CHECK(find_family("mamba") == nullptr);
}

TEST_CASE("family table: the summaries name what each row and each config do") {
  const Family& st = *find_family("stablelm");
  CHECK(family_summary(st) ==
        "LayerNorm, RoPE (halves) on 25% of each head, SwiGLU, Q/K/V biases if the file has them");
  CHECK(family_summary(*find_family("gpt2")) == "LayerNorm, learned positions, GELU, biases");
  ModelConfig c;
  c.n_heads = 4;
  c.d_model = 64;  // heads of 16: a quarter is 4
  apply_family(c, st);
  CHECK(c.rope_dims == 4);
  CHECK(block_summary(c) == "LayerNorm, RoPE (halves) on 4 of 16 dimensions, SwiGLU");
  c.qkv_bias = true;
  CHECK(block_summary(c) == "LayerNorm, RoPE (halves) on 4 of 16 dimensions, SwiGLU, Q/K/V biases");
  REQUIRE(set_family(c, "llama"));
  CHECK(c.rope_dims == 0);
  CHECK(block_summary(c).find("RoPE (adjacent pairs), SwiGLU") != std::string::npos);
}

TEST_CASE("family table: no source outside family.cpp tests an architecture by name") {
  const std::regex by_name(R"((architecture|arch)\s*[!=]=\s*")");
  const std::regex old_enum(R"(\bBlockType\b)");
  int scanned = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(test::source_dir() / "src")) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".cpp" && ext != ".h") continue;
    ++scanned;
    if (e.path().filename() == "family.cpp") continue;
    std::ifstream in(e.path());
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      const std::string code = line.substr(0, line.find("//"));
      CHECK_MESSAGE(!std::regex_search(code, by_name), e.path().string()
                                                           << ":" << n << ": " << line);
      CHECK_MESSAGE(!std::regex_search(code, old_enum), e.path().string()
                                                            << ":" << n << ": " << line);
    }
  }
  CHECK(scanned > 100);
}

TEST_CASE("family table: every row writes a GGUF file that reads back and runs as its block") {
  for (const Family& f : families()) {
    CAPTURE(f.arch);
    const Model m = random_family_model(f, 17);
    REQUIRE(validate_model(m).ok());
    GgufWriter w;
    const Status st = model_to_gguf(m, {}, {}, GgmlType::F32, w);
    REQUIRE_MESSAGE(st.ok(), st.error().message);
    Result<GgufFile> file = GgufFile::read(ByteSource::from_memory(w.to_bytes().value(), "f.gguf"));
    REQUIRE(file.ok());
    Result<Model> back = model_from_gguf(file.value());
    REQUIRE_MESSAGE(back.ok(), back.error().message);
    const ModelConfig& c = back->config;
    CHECK(c.architecture == f.arch);
    CHECK(c.norm == f.norm);
    CHECK(c.positions == f.positions);
    CHECK(c.mlp == f.mlp);
    CHECK(c.dense_bias == f.dense_bias);
    CHECK(c.rope_dims == m.config.rope_dims);
    CHECK(c.qkv_bias == m.config.qkv_bias);
    if (f.positions == PositionKind::Rope) CHECK(c.rope == f.rope);

    const std::vector<int> tokens{3, 14, 15, 9, 26, 5, 35, 8};
    const Mat ref = reference_forward(back.value(), tokens);  // (8, vocab_size)
    REQUIRE(ref.rows() == 8);
    Forward fwd(back.value(), 1);
    KvCache kv(c, 16);
    ForwardOptions opt;
    opt.level = RecordLevel::Off;
    REQUIRE(fwd.run(kv, std::span<const int>(tokens).first(5), opt, nullptr).ok());
    for (int p = 5; p < 8; ++p) {
      REQUIRE(fwd.run(kv, std::span<const int>(tokens).subspan(p, 1), opt, nullptr).ok());
    }
    CHECK(((fwd.logits().transpose() - ref.row(7)).cwiseAbs().maxCoeff() < 1e-3f));
  }
}
