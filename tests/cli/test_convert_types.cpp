// `tokenscope convert --type`: the llama2.c golden model converted with quantized matrices loads
// back, reports the tensor types it wrote, and (Q8_0) greedy-generates the same first tokens as
// the fp32 conversion; an unknown --type is refused. A GGUF input is re-written with --type.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "cli/cli.h"
#include "formats/model_file.h"
#include "golden.h"

using namespace ts;

namespace {

struct ConvertRun {
  int code = 0;
  std::string out, err;
};

ConvertRun convert_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  ConvertRun r;
  r.code = cli_run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string convert_tmp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ts_test_convert_" + name)).string();
}

std::string convert_golden(const std::string& f) {
  return (test::golden_dir() / "llama2c" / f).string();
}

}  // namespace

TEST_CASE("convert --type: an unknown type is refused with one line") {
  ConvertRun r = convert_cli({"convert", "--model", "m.bin", "--tokenizer", "t.bin", "-o",
                              convert_tmp("never.gguf"), "--type", "q3_k"});
  CHECK(r.code != 0);
  CHECK(r.out.empty());
  CHECK_MESSAGE(r.err.find("--type") != std::string::npos, r.err);
  CHECK_FALSE(std::filesystem::exists(convert_tmp("never.gguf")));
}

TEST_CASE("golden: convert --type q8_0 keeps the fp32 conversion's greedy tokens" *
          doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/aidreams260K.bin") || !test::have_golden("llama2c/tok512.bin"))
    return;
  const std::vector<std::string> src = {"--model", convert_golden("aidreams260K.bin"),
                                        "--tokenizer", convert_golden("tok512.bin")};
  auto convert_as = [&](const std::string& type) {
    const std::string path = convert_tmp(type + ".gguf");
    std::vector<std::string> a = {"convert"};
    a.insert(a.end(), src.begin(), src.end());
    a.insert(a.end(), {"-o", path, "--type", type});
    ConvertRun r = convert_cli(a);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(r.out.find("wrote " + path + ": ") == 0);
    return std::make_pair(path, r.out);
  };
  // Plain variables, not structured bindings: doctest's message lambdas capture them (clang 14).
  const auto f32 = convert_as("f32");
  const std::string f32_path = f32.first, f32_out = f32.second;
  CHECK_MESSAGE(f32_out.find("tensor types: ") != std::string::npos, f32_out);
  CHECK_MESSAGE(f32_out.find(" Q8_0") == std::string::npos, f32_out);
  const auto q8 = convert_as("q8_0");
  const std::string q8_path = q8.first, q8_out = q8.second;
  CHECK_MESSAGE(q8_out.find(" Q8_0, ") != std::string::npos, q8_out);
  // The matrices are Q8_0 (or F16 where rows are not whole blocks of 32): smaller than fp32.
  CHECK(std::filesystem::file_size(q8_path) < std::filesystem::file_size(f32_path) / 2);

  const std::vector<std::string> gen = {"--prompt", "I resonate",   "--temperature",
                                        "0",        "--max-tokens", "12"};
  auto generate = [&](const std::string& path) {
    std::vector<std::string> a = {"generate", "--model", path};
    a.insert(a.end(), gen.begin(), gen.end());
    ConvertRun r = convert_cli(a);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return r.out;
  };
  const std::string f32_text = generate(f32_path);
  const std::string q8_text = generate(q8_path);
  CHECK(f32_text.size() > std::string("I resonate").size());
  CHECK(q8_text == f32_text);

  // Every other --type writes a file that loads back with the same shape.
  for (const char* type : {"f16", "q4_0", "q4_k", "q5_k", "q6_k"}) {
    CAPTURE(type);
    const auto [path, text] = convert_as(type);
    Result<LoadedModel> lm = load_model_file(path);
    REQUIRE_MESSAGE(lm.ok(), lm.error().message);
    CHECK(lm->tokenizer.tokens.size() == 512);
    std::filesystem::remove(path);
  }
  std::filesystem::remove(f32_path);
  std::filesystem::remove(q8_path);
}

TEST_CASE("golden: convert re-writes a GGUF model with another --type" *
          doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/aidreams260K.bin") || !test::have_golden("llama2c/tok512.bin"))
    return;
  const std::string ckpt = convert_golden("aidreams260K.bin"), tok = convert_golden("tok512.bin");
  const std::string f32 = convert_tmp("regguf_f32.gguf"), direct = convert_tmp("regguf_q8.gguf"),
                    again = convert_tmp("regguf_q8_again.gguf");
  REQUIRE(convert_cli({"convert", "--model", ckpt, "--tokenizer", tok, "-o", f32}).code == 0);
  REQUIRE(
      convert_cli({"convert", "--model", ckpt, "--tokenizer", tok, "-o", direct, "--type", "q8_0"})
          .code == 0);
  // The GGUF carries its tokenizer: no --tokenizer needed.
  ConvertRun r = convert_cli({"convert", "--model", f32, "-o", again, "--type", "q8_0"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK_MESSAGE(r.out.find(" Q8_0, ") != std::string::npos, r.out);
  Result<LoadedModel> a = load_model_file(direct), b = load_model_file(again);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(b->tokenizer.tokens == a->tokenizer.tokens);
  CHECK(b->info.tensor_types == a->info.tensor_types);
  // Same fp32 weights quantized the same way: the same values.
  CHECK(b->model.weights.tok_embd == a->model.weights.tok_embd);
  CHECK(b->model.weights.layers[0].wq == a->model.weights.layers[0].wq);
  bool rewritten = false;
  for (const auto& [k, v] : b->info.metadata) {
    rewritten |= k == "general.description" && v.find("re-written") != std::string::npos;
  }
  CHECK(rewritten);

  // A llama2.c checkpoint without its tokenizer.bin is refused with one line naming the flag.
  ConvertRun no_tok = convert_cli({"convert", "--model", ckpt, "-o", convert_tmp("never2.gguf")});
  CHECK(no_tok.code != 0);
  CHECK_MESSAGE(no_tok.err.find("--tokenizer") != std::string::npos, no_tok.err);
  CHECK(std::count(no_tok.err.begin(), no_tok.err.end(), '\n') == 1);
  for (const std::string& p : {f32, direct, again}) std::filesystem::remove(p);
}
