// `generate --beam` and `generate --draft --speculative` run in-process on tiny GGUF files: beam
// width 1 prints the greedy text with the same sum log-prob; speculative decoding at temperature
// 0 prints the greedy text and its rates; every generate's summary ends with "sum log-prob";
// option mistakes and a draft with another tokenizer are one line on stderr.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli.h"
#include "session/tiny_model.h"

using namespace ts;

namespace generate_modes_test {  // named: the tests build as one unit with test_cli.cpp
namespace {

struct Run {
  int code = 0;
  std::string out, err;
};

Run run(std::vector<std::string> args) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  Run r;
  r.code = cli_run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string write_tiny(const std::string& name, uint64_t seed, bool other_tokenizer = false) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  LoadedModel m = test::tiny_model(48, seed);
  if (other_tokenizer) m.tokenizer.tokens.back() = "lql";
  REQUIRE(save_gguf_model(path, m.model, m.tokenizer).ok());
  return path;
}

// The summary's last line ends with "sum log-prob <number>".
std::string last_sum(const std::string& err) {
  const size_t at = err.rfind("sum log-prob ");
  REQUIRE(at != std::string::npos);
  CHECK(err.find('\n', at) == err.size() - 1);
  return err.substr(at);
}

}  // namespace
}  // namespace generate_modes_test

using generate_modes_test::last_sum;
using generate_modes_test::write_tiny;

TEST_CASE("generate --beam: width 1 is the greedy text and log-prob; --show prints the tree") {
  const std::string model = write_tiny("ts_modes_target.gguf", 1);
  const std::vector<std::string> base = {"generate", "--model",      model, "--prompt",
                                         "the",      "--max-tokens", "16"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return generate_modes_test::run(a);
  };
  generate_modes_test::Run greedy = with({"--temperature", "0"});
  REQUIRE(greedy.code == 0);
  generate_modes_test::Run one = with({"--beam", "1"});
  REQUIRE(one.code == 0);
  CHECK(one.out == greedy.out);
  CHECK(last_sum(one.err) == last_sum(greedy.err));
  generate_modes_test::Run four = with({"--beam", "4", "--length-penalty", "0.5", "--show"});
  REQUIRE(four.code == 0);
  CHECK(four.err.find("[beam 4, length penalty 0.5") != std::string::npos);
  CHECK(four.out.find("step 0 (1 passes") != std::string::npos);
  CHECK(four.out.find("  kept ") != std::string::npos);
  CHECK(four.out.find("  pruned ") != std::string::npos);
  last_sum(four.err);
  generate_modes_test::Run lanes = with({"--lanes", "greedy; temp=0.8"});
  REQUIRE(lanes.code == 0);
  CHECK(lanes.err.find("[greedy] sum log-prob ") != std::string::npos);
  last_sum(lanes.err);
}

TEST_CASE("generate --speculative: greedy text, rates and speed-up reported") {
  const std::string target = write_tiny("ts_modes_target.gguf", 1);
  const std::string draft = write_tiny("ts_modes_draft.gguf", 2);
  generate_modes_test::Run greedy =
      generate_modes_test::run({"generate", "--model", target, "--prompt", "the", "--max-tokens",
                                "20", "--temperature", "0"});
  REQUIRE(greedy.code == 0);
  generate_modes_test::Run spec = generate_modes_test::run(
      {"generate", "--model", target, "--prompt", "the", "--max-tokens", "20", "--temperature", "0",
       "--draft", draft, "--speculative", "3", "--show"});
  REQUIRE_MESSAGE(spec.code == 0, spec.err);
  CHECK(spec.out.rfind(greedy.out, 0) == 0);  // the text first, then the rounds
  CHECK(spec.out.find("round 1 (token 0)") != std::string::npos);
  for (const char* s : {"acceptance rate", "tokens per target pass", "speed-up",
                        "the same text as the target's greedy decoding"}) {
    CHECK_MESSAGE(spec.err.find(s) != std::string::npos, s);
  }
  CHECK(last_sum(spec.err) == last_sum(greedy.err));
  generate_modes_test::Run sampled =
      generate_modes_test::run({"generate", "--model", target, "--prompt", "the", "--max-tokens",
                                "20", "--draft", draft, "--speculative", "2", "--seed", "3"});
  REQUIRE(sampled.code == 0);
  last_sum(sampled.err);
}

TEST_CASE("generate's decoding modes: mistakes are one line on stderr") {
  const std::string target = write_tiny("ts_modes_target.gguf", 1);
  const std::string other = write_tiny("ts_modes_other.gguf", 2, true);
  const std::vector<std::vector<std::string>> bad = {
      {"generate", "--model", target, "--beam", "9"},
      {"generate", "--model", target, "--beam", "0"},
      {"generate", "--model", target, "--length-penalty", "1"},
      {"generate", "--model", target, "--beam", "2", "--length-penalty", "-1"},
      {"generate", "--model", target, "--speculative", "3"},
      {"generate", "--model", target, "--draft", target},
      {"generate", "--model", target, "--draft", target, "--speculative", "16"},
      {"generate", "--model", target, "--beam", "2", "--draft", target, "--speculative", "2"},
      {"generate", "--model", target, "--beam", "2", "--lanes", "greedy; temp=1"},
      {"generate", "--model", target, "--draft", "/nonexistent.gguf", "--speculative", "2"},
      {"generate", "--model", target, "--draft", other, "--speculative", "2"},
  };
  for (const auto& args : bad) {
    generate_modes_test::Run r = generate_modes_test::run(args);
    CAPTURE(r.err);
    CHECK(r.code != 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  generate_modes_test::Run r = generate_modes_test::run(
      {"generate", "--model", target, "--draft", other, "--speculative", "2"});
  CHECK(r.err.find("another tokenizer") != std::string::npos);
}

TEST_CASE("eval --draft --speculative: the table, greedy texts the target's on every prompt") {
  const std::string target = write_tiny("ts_modes_target.gguf", 1);
  const std::string draft = write_tiny("ts_modes_draft.gguf", 2);
  const std::string prompts =
      (std::filesystem::temp_directory_path() / "ts_modes_prompts.txt").string();
  {
    std::ofstream f(prompts);
    f << "the\nlol the\n\nab\n";
  }
  generate_modes_test::Run r =
      generate_modes_test::run({"eval", "--model", target, "--prompts", prompts, "--tokens", "12",
                                "--draft", draft, "--speculative", "1,3"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("3 prompts x 12 new tokens") != std::string::npos);
  CHECK(r.out.find("greedy (T=0)     1 ") != std::string::npos);
  CHECK(r.out.find("sampled (T=1)    3 ") != std::string::npos);
  CHECK(r.out.find("3/3") != std::string::npos);
  CHECK(
      generate_modes_test::run({"eval", "--model", target, "--prompts", prompts, "--draft", draft})
          .code != 0);
}

TEST_CASE(
    "generate --chat renders the message through the model's template; no template: one line") {
  const std::string chat_model = std::string(TS_SOURCE_DIR) + "/models/tales-chat-4m.gguf";
  const generate_modes_test::Run r = generate_modes_test::run(
      {"generate", "--model", chat_model, "--chat", "Tell me a story about a fox who gets lost.",
       "--temperature", "0", "--max-tokens", "12"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  // stdout shows the prompt without its special tokens, then the answer
  CHECK(r.out.rfind("user\nTell me a story about a fox who gets lost.\nassistant\n", 0) == 0);
  const generate_modes_test::Run sys =
      generate_modes_test::run({"generate", "--model", chat_model, "--system", "Be kind.", "--chat",
                                "Hi.", "--max-tokens", "1"});
  REQUIRE_MESSAGE(sys.code == 0, sys.err);
  CHECK(sys.out.rfind("system\nBe kind.\nuser\nHi.\nassistant\n", 0) == 0);

  const generate_modes_test::Run plain = generate_modes_test::run(
      {"generate", "--model", write_tiny("ts_modes_plain.gguf", 3), "--chat", "Hi."});
  CHECK(plain.code == 1);
  CHECK(plain.err.find("--chat: this model has no chat template") != std::string::npos);
  CHECK(std::count(plain.err.begin(), plain.err.end(), '\n') == 1);
  const generate_modes_test::Run lone =
      generate_modes_test::run({"generate", "--system", "Be kind."});
  CHECK(lone.code == 1);
  CHECK(lone.err.find("--system needs --chat") != std::string::npos);
}
