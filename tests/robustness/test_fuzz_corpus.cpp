// Replays the fuzz corpus (tests/fuzz/corpus/<target>/: the seeds and every input that ever
// crashed a target) through the same harnesses the libFuzzer targets run, in the normal and the
// sanitizer builds, so a fixed crash stays fixed even where clang/libFuzzer is not used.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz/harness_chat.h"
#include "fuzz/harness_formats.h"
#include "fuzz/harness_text.h"
#include "fuzz/harness_tokenizer.h"
#include "golden.h"

namespace ts {

namespace {

std::vector<uint8_t> read_all(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void replay(const std::string& target, std::string (*harness)(std::span<const uint8_t>)) {
  const auto dir = test::source_dir() / "tests" / "fuzz" / "corpus" / target;
  REQUIRE(std::filesystem::is_directory(dir));
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  for (const auto& p : files) {
    INFO("corpus file: " << p.string());
    const std::vector<uint8_t> bytes = read_all(p);
    CHECK(harness(bytes) == "");
  }
}

}  // namespace

TEST_CASE("fuzz corpus: gguf") { replay("gguf", fuzz::run_gguf); }
TEST_CASE("fuzz corpus: llama2c") { replay("llama2c", fuzz::run_llama2c); }
TEST_CASE("fuzz corpus: bpe") { replay("bpe", fuzz::run_bpe); }
TEST_CASE("fuzz corpus: spm") { replay("spm", fuzz::run_spm); }
TEST_CASE("fuzz corpus: lesson") { replay("lesson", fuzz::run_lesson); }
TEST_CASE("fuzz corpus: trace") { replay("trace", fuzz::run_trace); }
TEST_CASE("fuzz corpus: chat") { replay("chat", fuzz::run_chat); }

TEST_CASE("fuzz corpus: the seeds are valid files (mutations start from real formats)") {
  const auto dir = test::source_dir() / "tests" / "fuzz" / "corpus";
  for (const char* f : {"gguf/llama-f16.gguf", "gguf/gpt2-f16.gguf", "gguf/qwen2-f16.gguf"}) {
    INFO(std::string(f));
    const std::vector<uint8_t> b = read_all(dir / f);
    Result<GgufFile> g = GgufFile::read(ByteSource::from_memory(b, f));
    REQUIRE(g.ok());
    CHECK(model_from_gguf(g.value()).ok());
    CHECK(tokenizer_from_gguf(g.value()).ok());
  }
  const std::vector<uint8_t> ck = read_all(dir / "llama2c" / "shared.bin");
  CHECK(read_llama2c_model(ByteSource::from_memory(ck, "shared.bin")).ok());
  const std::vector<uint8_t> tk = read_all(dir / "llama2c" / "tokenizer.bin");
  CHECK(read_llama2c_tokenizer(ByteSource::from_memory(tk, "tokenizer.bin")).ok());
}

}  // namespace ts
