// Tests of the llama2.c import: the real golden checkpoints and tokenizer (config values from
// shared/golden/llama2c/README.md, spot checks of raw floats read independently), and corrupted
// headers / truncations that must fail with a clear error.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "formats/llama2c.h"
#include "formats/model_file.h"
#include "golden.h"

using namespace ts;

namespace {

std::vector<uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

float float_at(const std::vector<uint8_t>& bytes, size_t float_index) {
  float f;
  std::memcpy(&f, bytes.data() + 28 + 4 * float_index, 4);
  return f;
}

}  // namespace

TEST_CASE("llama2c: aidreams260K config and weights" * doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/aidreams260K.bin")) return;
  const auto path = (test::golden_dir() / "llama2c/aidreams260K.bin").string();
  Result<LoadedModel> lm = load_model_file(path);
  REQUIRE_MESSAGE(lm.ok(), lm.error().message);
  const ModelConfig& c = lm->model.config;
  CHECK(c.d_model == 64);
  CHECK(c.d_ff == 172);
  CHECK(c.n_layers == 4);
  CHECK(c.n_heads == 4);
  CHECK(c.n_kv_heads == 4);
  CHECK(c.vocab_size == 512);
  CHECK(c.n_ctx == 128);
  CHECK(c.tied_embeddings);
  CHECK(c.architecture == "llama");
  CHECK(c.norm == NormKind::Rms);
  CHECK(c.mlp == MlpKind::SwiGlu);
  CHECK(c.rope == RopeStyle::Adjacent);
  CHECK(c.norm_eps == doctest::Approx(1e-5));
  CHECK(lm->model.weights.output.size() == 0);
  CHECK(lm->info.format == "llama2c");
  CHECK(lm->tokenizer.tokens.empty());
  CHECK(validate_model(lm->model).ok());

  // Spot checks against the raw file: first embedding value, first wq value of layer 0, the
  // final norm's last value (just before the RoPE tables).
  const auto raw = slurp(path);
  const Weights& w = lm->model.weights;
  CHECK(w.tok_embd(0, 0) == float_at(raw, 0));
  CHECK(w.tok_embd(511, 63) == float_at(raw, 512 * 64 - 1));
  const size_t att_norm = 512 * 64, wq = att_norm + 4 * 64;
  CHECK(w.layers[0].attn_norm(0) == float_at(raw, att_norm));
  CHECK(w.layers[1].wq(0, 1) == float_at(raw, wq + 64 * 64 + 1));
  CHECK(w.layers[3].wq(63, 63) == float_at(raw, wq + 4 * 64 * 64 - 1));
  const size_t rope_floats = 128 * 16;  // two tables of seq_len * head_size / 2
  const size_t n_floats = (raw.size() - 28) / 4;
  CHECK(w.out_norm(63) == float_at(raw, n_floats - rope_floats - 1));

  Result<ModelFileInfo> info = inspect_model_file(path);
  REQUIRE(info.ok());
  CHECK(info->n_params == lm->model.parameter_count());
  CHECK(info->memory_bytes == lm->model.parameter_count() * 4);
  CHECK(info->file_bytes == raw.size());
}

TEST_CASE("llama2c: stories260K uses grouped-query attention" * doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/stories260K.bin")) return;
  Result<LoadedModel> lm =
      load_model_file((test::golden_dir() / "llama2c/stories260K.bin").string());
  REQUIRE_MESSAGE(lm.ok(), lm.error().message);
  const ModelConfig& c = lm->model.config;
  CHECK(c.d_model == 64);
  CHECK(c.d_ff == 172);
  CHECK(c.n_layers == 5);
  CHECK(c.n_heads == 8);
  CHECK(c.n_kv_heads == 4);
  CHECK(c.vocab_size == 512);
  CHECK(c.n_ctx == 512);
  CHECK(c.kv_dim() == 32);
  CHECK(lm->model.weights.layers[4].wk.rows() == 32);
  CHECK(lm->model.weights.layers[4].wk.cols() == 64);
}

TEST_CASE("llama2c: tok512 tokenizer" * doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/tok512.bin")) return;
  const auto path = (test::golden_dir() / "llama2c/tok512.bin").string();
  Result<TokenizerData> t = load_tokenizer_file(path);
  REQUIRE_MESSAGE(t.ok(), t.error().message);
  CHECK(t->kind == TokenizerKind::Spm);
  CHECK(t->space_char == " ");
  CHECK(t->tokens.size() == 512);
  CHECK(t->scores.size() == 512);
  CHECK(t->token_types.size() == 512);
  CHECK(t->tokens[0] == "<unk>");
  CHECK(t->tokens[1] == "\n<s>\n");
  CHECK(t->tokens[2] == "\n</s>\n");
  CHECK(t->tokens[3] == "<0x00>");
  CHECK(t->tokens[258] == "<0xFF>");
  CHECK(t->tokens[262] == " a");
  CHECK(t->scores[262] == -3.0f);
  CHECK(t->token_types[0] == static_cast<int>(TokenType::Unknown));
  CHECK(t->token_types[1] == static_cast<int>(TokenType::Control));
  CHECK(t->token_types[3 + 0x41] == static_cast<int>(TokenType::Byte));
  CHECK(t->token_types[259] == static_cast<int>(TokenType::Normal));
  CHECK(t->bos_id == 1);
  CHECK(t->eos_id == 2);
  CHECK(t->unk_id == 0);
  CHECK(t->add_bos);
  CHECK(t->add_space_prefix);

  // With its model: the tokenizer is attached and the sizes agree.
  if (!test::have_golden("llama2c/aidreams260K.bin")) return;
  Result<LoadedModel> lm =
      load_model_file((test::golden_dir() / "llama2c/aidreams260K.bin").string(), path);
  REQUIRE_MESSAGE(lm.ok(), lm.error().message);
  CHECK(lm->tokenizer.tokens.size() == 512);
}

TEST_CASE("llama2c: corrupted checkpoints give one-line errors" * doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/aidreams260K.bin")) return;
  const auto good = slurp(test::golden_dir() / "llama2c/aidreams260K.bin");
  auto check_fails = [](std::vector<uint8_t> bytes, const char* expect) {
    Result<Model> m = read_llama2c_model(ByteSource::from_memory(std::move(bytes), "x.bin"));
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().message.find("x.bin") == 0);
    CHECK(m.error().message.find('\n') == std::string::npos);
    CHECK_MESSAGE(m.error().message.find(expect) != std::string::npos, m.error().message);
  };
  for (size_t cut : {size_t{0}, size_t{3}, size_t{27}, size_t{28}, size_t{1000}, good.size() / 2,
                     good.size() - 4, good.size() - 1}) {
    CAPTURE(cut);
    check_fails(std::vector<uint8_t>(good.begin(), good.begin() + cut), "truncated");
  }
  auto extra = good;
  extra.push_back(0);
  check_fails(extra, "trailing");
  auto set_header = [&](int field, int32_t value) {
    auto b = good;
    std::memcpy(b.data() + 4 * field, &value, 4);
    return b;
  };
  check_fails(set_header(0, 0), "non-positive");
  check_fails(set_header(2, -3), "non-positive");
  check_fails(set_header(3, 3), "divide");           // 64 % 3 != 0
  check_fails(set_header(4, 3), "divide");           // 4 % 3 != 0
  check_fails(set_header(0, 0x7fffffff), "divide");  // odd dim
  check_fails(set_header(1, 0x7ffffff0), "bytes");   // absurd hidden size vs file size
  check_fails(set_header(5, -512), "truncated");     // unshared classifier missing
  auto nan = good;
  const float bad = std::nanf("");
  std::memcpy(nan.data() + 28 + 4 * 100, &bad, 4);
  check_fails(nan, "NaN");
}

TEST_CASE("llama2c: corrupted tokenizers give errors") {
  auto make = [](std::vector<std::pair<float, std::string>> toks) {
    std::vector<uint8_t> b(4);
    const int32_t max_len = 16;
    std::memcpy(b.data(), &max_len, 4);
    for (auto& [s, p] : toks) {
      const int32_t n = static_cast<int32_t>(p.size());
      const auto* sp = reinterpret_cast<const uint8_t*>(&s);
      const auto* np = reinterpret_cast<const uint8_t*>(&n);
      b.insert(b.end(), sp, sp + 4);
      b.insert(b.end(), np, np + 4);
      b.insert(b.end(), p.begin(), p.end());
    }
    return b;
  };
  const auto good = make({{0, "<unk>"}, {0, "<s>"}, {0, "</s>"}, {-1, "ab"}});
  REQUIRE(read_llama2c_tokenizer(ByteSource::from_memory(good)).ok());
  for (size_t cut = 0; cut < good.size(); ++cut) {
    if (cut == 40) continue;  // a whole 3-token file: valid
    CAPTURE(cut);
    auto r = read_llama2c_tokenizer(
        ByteSource::from_memory(std::vector<uint8_t>(good.begin(), good.begin() + cut)));
    CHECK_FALSE(r.ok());
  }
  auto huge = good;
  const int32_t big = 1 << 30;
  std::memcpy(huge.data() + 4 + 4, &big, 4);  // first token's length
  CHECK_FALSE(read_llama2c_tokenizer(ByteSource::from_memory(huge)).ok());
  CHECK_FALSE(read_llama2c_tokenizer(ByteSource::from_memory(make({{0, "<unk>"}}))).ok());
}
