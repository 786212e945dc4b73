// `tokenscope info` is the safe pre-check the README promises: on each file it reaches exactly
// generate's verdict (exit 0 for both, or 1 for both with the same reason), reading no weights;
// the format is named by its magic before one is blamed; convert never leaves a file generate
// refuses, and never replaces anything but a regular file.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <filesystem>
#include <limits>

#include "cli_run.h"
#include "formats/gguf_model.h"
#include "formats/model_file.h"
#include "fuzz/seed_models.h"
#include "raw_gguf.h"

namespace ts {

namespace {

TokenizerData tok40() { return fuzz::small_spm(40, false, "\xE2\x96\x81"); }

std::vector<uint8_t> gguf_of(const std::function<void(GgufWriter&)>& change, int n_ctx = 32) {
  GgufWriter w;
  REQUIRE(model_to_gguf(fuzz::small_model("llama", 40, n_ctx), tok40(), {}, GgmlType::F32, w)
              .ok());
  change(w);
  return w.to_bytes().value();
}

// The bytes with the stored type of tensor `name` (one dimension) replaced by `type`.
std::vector<uint8_t> with_tensor_type(std::vector<uint8_t> b, const std::string& name,
                                      uint32_t type) {
  const auto at = std::search(b.begin(), b.end(), name.begin(), name.end());
  REQUIRE(at != b.end());
  const size_t pos = static_cast<size_t>(at - b.begin()) + name.size() + 4 + 8;
  std::memcpy(b.data() + pos, &type, 4);
  return b;
}

struct Case {
  const char* name;
  std::vector<uint8_t> bytes;
  const char* refusal;  // nullptr: both run it
};

std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back({"a valid model", gguf_of([](GgufWriter&) {}), nullptr});
  c.push_back({"a tensor the architecture does not use", gguf_of([](GgufWriter& w) {
                 const std::vector<float> x(8, 0.5f);
                 REQUIRE(w.add_tensor("blk.0.extra.weight", {8}, GgmlType::F32, x).ok());
               }),
               "is not used"});
  c.push_back({"a tensor of a type tokenscope cannot load (I32)",
               with_tensor_type(gguf_of([](GgufWriter&) {}), "output_norm.weight", 26),
               "cannot load"});
  c.push_back({"a NaN tokenizer score", gguf_of([](GgufWriter& w) {
                 std::vector<double> s(40, -1.0);
                 s[7] = std::numeric_limits<double>::quiet_NaN();
                 w.set("tokenizer.ggml.scores", GgufValue::float_array(GgufValueType::Float32, s));
               }),
               "non-finite value at index 7"});
  c.push_back({"a malformed tokenizer (BOS id out of range)", gguf_of([](GgufWriter& w) {
                 w.set("tokenizer.ggml.bos_token_id", GgufValue::u32(4000));
               }),
               "4000"});
  {
    std::vector<uint8_t> nan = gguf_of([](GgufWriter&) {});
    Result<GgufFile> f = GgufFile::read(ByteSource::from_memory(nan, "nan"));
    REQUIRE(f.ok());
    const GgufTensorInfo* t = f->find_tensor("blk.0.ffn_down.weight");
    REQUIRE(t != nullptr);
    const float q = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(nan.data() + f->data_offset() + t->offset + 4 * 9, &q, 4);
    c.push_back({"a NaN weight (found by the chunked scan)", nan,
                 "tensor blk.0.ffn_down.weight has a NaN value at index 9"});
  }
  c.push_back({"context length 1", gguf_of([](GgufWriter& w) {
                 w.set("llama.context_length", GgufValue::u32(1));
               }),
               "context length 1 is too short"});
  c.push_back({"an empty file", {}, "empty file (0 bytes), not a model file"});
  c.push_back({"a bad magic", test::RawGguf().raw("GGML", 4).zeros(100).b, "no GGUF magic"});
  return c;
}

}  // namespace

TEST_CASE("info reaches generate's verdict on every file, exit code and reason") {
  int i = 0;
  for (const Case& k : cases()) {
    INFO("case: " << k.name);
    const std::string p = test::write_scratch("verdict-" + std::to_string(i++) + ".gguf", k.bytes);
    const test::CliRun info = test::cli({"info", "--model", p});
    const test::CliRun gen =
        test::cli({"generate", "--model", p, "--prompt", "the", "--max-tokens", "2"});
    INFO("info: " << info.err << " / generate: " << gen.err);
    CHECK(info.code == gen.code);
    if (k.refusal) {
      CHECK(info.code == 1);
      CHECK(info.err.find(k.refusal) != std::string::npos);
      CHECK(gen.err.find(k.refusal) != std::string::npos);
    }
    if (!k.refusal) {
      CHECK(info.code == 0);
      CHECK(info.out.find("verdict:       generate can run it") != std::string::npos);
    }
  }
}

TEST_CASE("info on a llama2.c checkpoint reads only its header, never the weights as a tokenizer") {
  const Model m = fuzz::small_model("llama", 40, 16);
  const std::string ck = test::write_scratch("ck.bin", fuzz::llama2c_bytes(m));
  const std::string tk = test::write_scratch("tk.bin", fuzz::llama2c_tokenizer_bytes(tok40()));
  const test::CliRun bare = test::cli({"info", "--model", ck});
  CHECK(bare.code == 1);  // generate refuses it too: no tokenizer
  CHECK(bare.out.find("none in this file (give --tokenizer tokenizer.bin)") != std::string::npos);
  CHECK(bare.err.find("carries no tokenizer") != std::string::npos);
  CHECK(test::cli({"generate", "--model", ck, "--max-tokens", "1"}).code == 1);
  const test::CliRun with = test::cli({"info", "--model", ck, "--tokenizer", tk});
  CHECK(with.code == 0);
  CHECK(with.out.find("SentencePiece") != std::string::npos);
  // A NaN in layer 0's wv: info's chunked scan and generate's load give the same line.
  std::vector<uint8_t> bytes = fuzz::llama2c_bytes(m);
  const uint64_t d = 8, v = 40, kv = 4;
  const uint64_t wv0 = 28 + 4 * (v * d + d + d * d + kv * d);  // after embedding, norm, wq, wk
  const float inf = std::numeric_limits<float>::infinity();
  std::memcpy(bytes.data() + wv0 + 4 * 3, &inf, 4);
  const std::string bad = test::write_scratch("ck-inf.bin", bytes);
  const test::CliRun bi = test::cli({"info", "--model", bad, "--tokenizer", tk});
  const test::CliRun bg = test::cli({"generate", "--model", bad, "--tokenizer", tk});
  CHECK(bi.code == 1);
  CHECK(bg.code == 1);
  CHECK(bi.err.find("tensor wv[0] has an infinite value at index 3") != std::string::npos);
  CHECK(bg.err.find("tensor wv[0] has an infinite value at index 3") != std::string::npos);
  CHECK(test::cli({"info", "--model", bad, "--tokenizer", tk, "--quick"}).code == 0);
  // A 1 GiB sparse checkpoint-sized file given as a tokenizer is refused by size at once.
  const std::string huge = (test::scratch_dir() / "huge-tok.bin").string();
  test::write_scratch("huge-tok.bin", fuzz::llama2c_tokenizer_bytes(tok40()));
  std::filesystem::resize_file(huge, uint64_t{1} << 30);
  const auto t0 = std::chrono::steady_clock::now();
  Result<TokenizerData> t = load_tokenizer_file(huge);
  REQUIRE_FALSE(t.ok());
  CHECK(t.error().message.find("too large for a llama2.c tokenizer.bin") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  std::filesystem::remove(huge);
}

TEST_CASE("convert never writes a file generate refuses, nor over a device, pipe or directory") {
  const std::filesystem::path dir = test::scratch_dir() / "convert";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string short_ctx = test::write_scratch(
      "convert-ctx1.gguf",
      gguf_of([](GgufWriter& w) { w.set("llama.context_length", GgufValue::u32(1)); }));
  const std::string out = (dir / "out.gguf").string();
  const test::CliRun r = test::cli({"convert", "--model", short_ctx, "-o", out});
  CHECK(r.code == 1);
  CHECK(r.err.find("generate would refuse") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  const std::string good = test::write_scratch("convert-good.gguf", gguf_of([](GgufWriter&) {}));
  const std::string fifo = (dir / "fifo").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const test::CliRun f = test::cli({"convert", "--model", good, "-o", fifo});
  CHECK(f.code == 1);
  CHECK(f.err.find("not a regular file") != std::string::npos);
  CHECK(std::filesystem::is_fifo(fifo));
  CHECK(test::cli({"convert", "--model", good, "-o", dir.string()}).code == 1);
  CHECK(std::filesystem::is_directory(dir));
  // The good one converts, and generate runs the result; nothing temporary is left.
  const test::CliRun ok = test::cli({"convert", "--model", good, "-o", out, "--type", "q8_0"});
  CHECK(ok.code == 0);
  CHECK(test::cli({"generate", "--model", out, "--prompt", "the", "--max-tokens", "2"}).code == 0);
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    CHECK((n == "out.gguf" || n == "fifo"));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace ts
