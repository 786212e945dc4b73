// Golden tests against tokenizers nobody here wrote: llama.cpp's test vectors for GPT-2's BPE and
// LLaMA's SentencePiece vocabularies (every .inp case must give the .out ids exactly), and the
// prompt ids that llama2.c's run.c printed for tok512.bin. Data from ../shared/golden/.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/utf8.h"
#include "formats/model_file.h"
#include "golden.h"
#include "tokenizer/tokenizer.h"

using namespace ts;

namespace {

std::string read_all(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<int> parse_ids(std::string_view line) {
  std::vector<int> ids;
  std::istringstream ss{std::string(line)};
  for (int id; ss >> id;) ids.push_back(id);
  return ids;
}

std::string join(const std::vector<int>& ids) {
  std::string s;
  for (int id : ids) s += " " + std::to_string(id);
  return s;
}

// "[ 1 'I' 303 '␣resonate' ]" style listing, for failure messages a person can read.
std::string show(const Tokenizer& t, const std::vector<int>& ids) {
  std::string s = "[";
  for (int id : ids) s += " " + std::to_string(id) + ":'" + t.display_piece(id) + "'";
  return s + " ]";
}

Tokenizer load(const std::string& rel) {
  auto data = load_tokenizer_file((test::golden_dir() / rel).string());
  REQUIRE_MESSAGE(data.ok(), (data.ok() ? "" : data.error().message));
  auto tok = Tokenizer::create(std::move(data).value());
  REQUIRE_MESSAGE(tok.ok(), (tok.ok() ? "" : tok.error().message));
  return std::move(tok).value();
}

}  // namespace

TEST_CASE("golden: llama2.c tok512.bin prompt ids match run.c" * doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/tok512.bin")) return;
  const Tokenizer t = load("llama2c/tok512.bin");
  const std::pair<const char*, const char*> prompts[] = {
      {"I_resonate", "I resonate"}, {"The", "The"}, {"A_threads_of", "A threads of"}, {"empty", ""}};
  for (const auto& entry : prompts) {
    const char* name = entry.first;
    const std::string prompt = entry.second;  // a plain variable: doctest's message lambda reads it
    const std::string rel = std::string("llama2c/expected/aidreams260K.trace.") + name + ".txt";
    if (!test::have_golden(rel)) continue;
    const std::string trace = read_all(test::golden_dir() / rel);
    const size_t at = trace.find("PROMPT_IDS");
    REQUIRE(at != std::string::npos);
    const size_t eol = trace.find('\n', at);
    const std::vector<int> want = parse_ids(trace.substr(at + 10, eol - at - 10));
    const std::vector<int> got = t.encode(prompt, t.data().add_bos);
    CHECK_MESSAGE(got == want, "prompt '" << prompt << "'\n  want" << join(want) << "\n  got "
                                          << join(got) << "\n  got " << show(t, got));
    // Decoding gives the prompt back (BOS decodes to nothing, its following space is dropped).
    CHECK(t.decode(got) == prompt);
  }
}

namespace {

// llama.cpp's vocabulary test vectors: .inp cases split on "\n__ggml_vocab_test__\n", .out one
// line of " id id ..." (no BOS) per case.
void check_vocab_vectors(const std::string& rel) {
  if (!test::have_golden(rel) || !test::have_golden(rel + ".inp") || !test::have_golden(rel + ".out")) {
    return;
  }
  const Tokenizer t = load(rel);
  const std::string inp = read_all(test::golden_dir() / (rel + ".inp"));
  std::vector<std::string> outs;
  {
    std::istringstream ss(read_all(test::golden_dir() / (rel + ".out")));
    for (std::string line; std::getline(ss, line);) outs.push_back(line);
  }
  const std::string sep = "\n__ggml_vocab_test__\n";
  std::vector<std::string> cases;
  for (size_t pos = 0; pos < inp.size();) {
    const size_t end = inp.find(sep, pos);
    REQUIRE_MESSAGE(end != std::string::npos, "unterminated case at byte " << pos);
    cases.push_back(inp.substr(pos, end - pos));
    pos = end + sep.size();
  }
  REQUIRE(cases.size() == outs.size());
  CHECK(cases.size() >= 40);
  int failures = 0;
  for (size_t k = 0; k < cases.size(); ++k) {
    const std::vector<int> want = parse_ids(outs[k]);
    const std::vector<int> got = t.encode(cases[k], false);
    if (join(got) == outs[k]) {
      CHECK(want == got);
      continue;
    }
    ++failures;
    size_t first = 0;
    while (first < want.size() && first < got.size() && want[first] == got[first]) ++first;
    FAIL_CHECK(rel << " case " << k << ": text \"" << utf8_sanitize(cases[k]) << "\"\n"
                   << "  first difference at token " << first << "\n"
                   << "  want" << outs[k] << "\n       " << show(t, want) << "\n"
                   << "  got " << join(got) << "\n       " << show(t, got));
  }
  CHECK(failures == 0);
  // Every case decodes back to its text.
  for (const auto& c : cases) CHECK(t.decode(t.encode(c, false)) == c);
}

}  // namespace

TEST_CASE("golden: GPT-2 BPE vocabulary reproduces llama.cpp's test vectors" *
          doctest::test_suite("golden")) {
  check_vocab_vectors("gguf-vocab/ggml-vocab-gpt-2.gguf");
}

TEST_CASE("golden: LLaMA SentencePiece vocabulary reproduces llama.cpp's test vectors" *
          doctest::test_suite("golden")) {
  check_vocab_vectors("gguf-vocab/ggml-vocab-llama-spm.gguf");
}
