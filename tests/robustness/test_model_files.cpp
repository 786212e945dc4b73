// Hostile model files, one table row per attack (tests/README.md lists them): each file is
// written to a scratch folder and opened the way the app and the CLI open it (load_model_file,
// then Session::load_model); each must be refused with one line naming the file and the problem.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "formats/model_file.h"
#include "fuzz/seed_models.h"
#include "raw_gguf.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

namespace {

using test::RawGguf;

struct Attack {
  const char* name;
  std::vector<uint8_t> bytes;
  const char* expect;  // a phrase of the refusal
};

TokenizerData seed_tok() { return fuzz::small_spm(40, false, "\xE2\x96\x81"); }

std::vector<uint8_t> valid_gguf(GgmlType type = GgmlType::F32) {
  return fuzz::gguf_bytes(fuzz::small_model("llama", 40), seed_tok(), type);
}

// A valid model whose metadata key `key` is then set to `v` (shapes stay those of the model).
std::vector<uint8_t> gguf_with(const std::string& key, GgufValue v, int n_layers = 1) {
  GgufWriter w;
  const Model m = fuzz::small_model("llama", 40, 32, n_layers);
  REQUIRE(model_to_gguf(m, seed_tok(), {}, GgmlType::F32, w).ok());
  w.set(key, std::move(v));
  return w.to_bytes().value();
}

// A valid F32 file with one value of blk.0.ffn_up.weight replaced by `x` (the writer itself
// refuses non-finite weights, so the bytes are patched).
std::vector<uint8_t> gguf_with_weight(float x) {
  std::vector<uint8_t> b = valid_gguf(GgmlType::F32);
  Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(b, "patch"));
  REQUIRE(f.ok());
  const GgufTensorInfo* t = f->find_tensor("blk.0.ffn_up.weight");
  REQUIRE(t != nullptr);
  std::memcpy(b.data() + f->data_offset() + t->offset + 4 * 7, &x, 4);
  return b;
}

std::vector<Attack> gguf_attacks() {
  const std::vector<uint8_t> ok = valid_gguf();
  std::vector<Attack> a;
  a.push_back({"truncated in the header", {ok.begin(), ok.begin() + 10}, "truncated"});
  a.push_back({"truncated in the metadata", {ok.begin(), ok.begin() + 200}, "cannot fit"});
  a.push_back({"truncated in the tensor data", {ok.begin(), ok.end() - 9}, "truncated"});
  a.push_back({"wrong magic (neither GGUF nor llama2.c)", RawGguf().raw("GGJT", 4).zeros(60).b,
               "not a model file: no GGUF magic (it starts with 47 47 4A 54)"});
  a.push_back({"version 2", RawGguf().header(0, 0, 2).b, "version 2"});
  a.push_back({"big-endian version", RawGguf().header(0, 0, 3u << 24).b, "big-endian"});
  a.push_back({"2^60 tensors", RawGguf().header(uint64_t{1} << 60, 0).b, "cannot fit"});
  a.push_back({"2^60 metadata pairs", RawGguf().header(0, uint64_t{1} << 60).b, "cannot fit"});
  a.push_back({"string length past the end",
               RawGguf().header(0, 1).str("general.name").u32(8).u64(1000).raw("abc", 3).b,
               "runs past the end"});
  a.push_back({"array of 2^40 items",
               RawGguf().header(0, 1).str("x").u32(9).u32(4).u64(uint64_t{1} << 40).b,
               "cannot fit"});
  a.push_back({"unknown value type", RawGguf().header(0, 1).str("x").u32(99).u32(0).b,
               "unknown value type"});
  a.push_back({"tensor of 2^60 elements",
               RawGguf().header(1, 0).tensor("t", {uint64_t{1} << 30, uint64_t{1} << 30}, 0, 0)
                   .pad().zeros(64).b,
               "runs past the end"});
  a.push_back({"tensor shape overflowing 64 bits",
               RawGguf().header(1, 0).tensor("t", {uint64_t{1} << 40, uint64_t{1} << 40}, 0, 0)
                   .pad().zeros(64).b,
               "impossible shape"});
  a.push_back({"5 dimensions", RawGguf().header(1, 0).tensor("t", {1, 1, 1, 1, 1}, 0, 0).b,
               "dimensions"});
  a.push_back({"unknown tensor type", RawGguf().header(1, 0).tensor("t", {4}, 77, 0).pad()
                                          .zeros(64).b,
               "unknown type"});
  a.push_back({"misaligned tensor offset",
               RawGguf().header(1, 0).tensor("t", {4}, 0, 4).pad().zeros(64).b,
               "not a multiple of the alignment"});
  a.push_back({"overlapping tensors",
               RawGguf().header(2, 0).tensor("a", {16}, 0, 0).tensor("b", {16}, 0, 32).pad()
                   .zeros(128).b,
               "overlap"});
  a.push_back({"duplicate tensor names",
               RawGguf().header(2, 0).tensor("a", {4}, 0, 0).tensor("a", {4}, 0, 32).pad()
                   .zeros(64).b,
               "duplicate tensor name"});
  a.push_back({"alignment 3", RawGguf().header(0, 1).kv_u32("general.alignment", 3).b,
               "power of two"});
  a.push_back({"feed_forward_length disagrees with the tensors",
               gguf_with("llama.feed_forward_length", GgufValue::u32(24)), "has shape"});
  a.push_back({"head count does not divide the width",
               gguf_with("llama.attention.head_count", GgufValue::u32(3)), "divide evenly"});
  a.push_back({"block_count 2^24 with one block of tensors",
               gguf_with("llama.block_count", GgufValue::u32(1u << 24)), "block_count"});
  a.push_back({"block_count 2^31", gguf_with("llama.block_count", GgufValue::u32(1u << 31)),
               "out of range"});
  a.push_back({"context_length 2^24 with 3 layers (a 1.5 GiB KV cache per lane)",
               gguf_with("llama.context_length", GgufValue::u32(1u << 24), 3), "KV cache"});
  a.push_back({"unknown architecture", gguf_with("general.architecture", GgufValue::str("rwkv")),
               "not supported"});
  a.push_back({"NaN weight", gguf_with_weight(std::numeric_limits<float>::quiet_NaN()), "NaN"});
  a.push_back({"infinite weight", gguf_with_weight(std::numeric_limits<float>::infinity()),
               "infinite"});
  a.push_back({"tensor name with a newline",
               RawGguf().header(1, 0).tensor("a\nb\xFF", {4}, 77, 0).pad().zeros(64).b,
               "not printable"});
  a.push_back({"metadata key with an escape sequence",
               RawGguf().header(0, 1).kv_u32("\x1B[2Jgeneral.alignment", 3).b, "not printable"});
  return a;
}

std::vector<Attack> llama2c_attacks() {
  const Model m = fuzz::small_model("llama", 12, 4);
  const std::vector<uint8_t> ok = fuzz::llama2c_bytes(m);
  auto header = [](std::vector<int32_t> h) {
    std::vector<uint8_t> b;
    for (int32_t v : h) fuzz::put_i32(b, v);
    b.resize(b.size() + 64, 0);
    return b;
  };
  std::vector<Attack> a;
  a.push_back({"llama2.c truncated", {ok.begin(), ok.end() - 4}, "truncated"});
  std::vector<uint8_t> longer = ok;
  longer.push_back(0);
  a.push_back({"llama2.c trailing data", longer, "trailing data"});
  a.push_back({"llama2.c negative dim (not named llama2.c)", header({-8, 16, 1, 2, 1, 12, 4}),
               "no llama2.c checkpoint header"});
  a.push_back({"llama2.c huge sizes (no model has them: not named llama2.c)",
               header({1 << 30, 1 << 30, 1 << 30, 2, 1, 1 << 30, 1 << 30}),
               "no llama2.c checkpoint header"});
  a.push_back({"llama2.c sizes that overflow the file",
               header({1 << 16, 1 << 18, 1 << 12, 2, 1, 1 << 21, 1 << 22}), "needs"});
  a.push_back({"llama2.c heads do not divide", header({8, 16, 1, 3, 1, 12, 4}), "divide"});
  a.push_back({"llama2.c version 1 magic", header({0x616b3432, 1, 1, 1, 1, 1, 1}), "ak42"});
  std::vector<uint8_t> nan = ok;
  const float q = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(nan.data() + 28 + 4 * 5, &q, 4);
  a.push_back({"llama2.c NaN weight", nan, "NaN"});
  a.push_back({"too short for a header", {1, 2, 3}, "not a model file"});
  a.push_back({"empty file", {}, "empty file (0 bytes)"});
  return a;
}

}  // namespace

TEST_CASE("hostile model files: every attack is one line naming the file and the problem") {
  int i = 0;
  for (const auto& table : {gguf_attacks(), llama2c_attacks()}) {
    for (const Attack& at : table) {
      INFO("attack: " << std::string(at.name));
      const std::string path = test::write_scratch("attack-" + std::to_string(i++) + ".bin",
                                                   at.bytes);
      Result<LoadedModel> lm = load_model_file(path);
      Status st = ok_status();
      if (lm.ok()) {  // the file itself is fine: the session must refuse the model
        Session s;
        st = s.set_model(std::move(lm).value());
        REQUIRE_FALSE(st.ok());
      } else {
        st = lm.error();
      }
      test::check_refusal(st.error(), path, at.expect);
      Session s;  // the app's path: the previous (empty) state is kept
      CHECK_FALSE(s.load_model(path).ok());
      CHECK_FALSE(has_model(s));
    }
  }
}

TEST_CASE("hostile model files: a failed load keeps the model that was loaded") {
  Session s;
  REQUIRE(s.set_model(fuzz::small_loaded("llama", seed_tok())).ok());
  REQUIRE(s.set_prompt("the").ok());
  REQUIRE(s.step().ok());
  const std::string bad = test::write_scratch("keep.gguf", RawGguf().header(0, 0, 2).b);
  CHECK_FALSE(s.load_model(bad).ok());
  CHECK(s.last_error().find("keep.gguf") != std::string::npos);
  CHECK(has_model(s));
  CHECK(s.cursor() == 0);
  CHECK(s.step().ok());
}

TEST_CASE("hostile model files: every truncation of a small valid GGUF is refused cleanly") {
  const std::vector<uint8_t> ok = valid_gguf(GgmlType::F16);
  const std::string path = test::write_scratch("prefix.gguf", ok);
  REQUIRE(load_model_file(path).ok());
  for (size_t n = 0; n < ok.size(); n += 7) {
    const std::string p = test::write_scratch("prefix.gguf", {ok.begin(), ok.begin() + n});
    Result<LoadedModel> lm = load_model_file(p);
    INFO("prefix of " << n << " bytes");
    REQUIRE_FALSE(lm.ok());
    CHECK(lm.error().message.find(p) != std::string::npos);
    CHECK(lm.error().message.find('\n') == std::string::npos);
  }
}

}  // namespace ts
