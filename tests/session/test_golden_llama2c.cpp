// The session against llama2.c's reference output (../shared/golden/llama2c): greedy generation
// with aidreams260K from "I resonate" prints exactly the reference text (64 positions in total,
// prompt included), and every chosen id matches the reference trace, prefill positions included.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "golden.h"
#include "session/check.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

using namespace ts;
using namespace ts::test;

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The NEXT ids of a reference trace (one per fed position).
std::vector<int> reference_next_ids(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::vector<int> ids;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("NEXT ", 0) == 0) ids.push_back(std::stoi(line.substr(5)));
  }
  return ids;
}

Session golden_session(const std::string& prompt) {
  Session s;
  const auto dir = golden_dir() / "llama2c";
  const Status st = s.load_model((dir / "aidreams260K.bin").string(), (dir / "tok512.bin").string());
  REQUIRE_MESSAGE(st.ok(), (st.ok() ? "" : st.error().message));
  REQUIRE(s.set_prompt(prompt).ok());
  SamplerSettings g;
  g.label = "greedy";
  stage<Temperature>(g).t = 0.0f;
  REQUIRE(s.set_sampler(0, g).ok());
  return s;
}

}  // namespace

TEST_CASE("golden: aidreams260K greedy from 'I resonate' prints the reference text" *
          doctest::test_suite("golden")) {
  if (!have_golden("llama2c/aidreams260K.bin") || !have_golden("llama2c/tok512.bin") ||
      !have_golden("llama2c/expected/aidreams260K.greedy.I_resonate.txt")) {
    return;
  }
  Session s = golden_session("I resonate");
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  CHECK(prompt_tokens(s) == std::vector<int>{1, 303, 390, 265, 363});
  // 64 positions fed in total: the prompt's plus one per generated token but the last.
  REQUIRE(set_max_tokens(s, 64 - n_prompt + 1).ok());
  REQUIRE(s.run_to(1000).ok());
  CHECK(stop_reason(s, 0) == StopReason::MaxTokens);
  CHECK(kv_length(s, 0) == 64);

  std::string text;
  for (const PathToken& t : path_tokens(s, 0)) {
    if (t.position > 0) text += t.piece;
  }
  std::string expected = slurp(golden_dir() / "llama2c/expected/aidreams260K.greedy.I_resonate.txt");
  while (!expected.empty() && expected.back() == '\n') expected.pop_back();
  CHECK(text == expected);

  // Every chosen id agrees with the reference trace; the prompt part is what the prefill
  // predicted at each position (computed, then not used).
  const std::vector<int> next =
      reference_next_ids(golden_dir() / "llama2c/expected/aidreams260K.trace.I_resonate.txt");
  REQUIRE(next.size() == 64);
  const std::vector<int> seq = sequence(s, 0);
  REQUIRE(seq.size() == 65);
  for (int p = 0; p < 64; ++p) CHECK(seq[p + 1] == next[p]);

  // Rewinding to the middle and replaying gives the same text.
  REQUIRE(s.seek(20).ok());
  REQUIRE(s.force(step_at(s, 0, 20)->token == 300 ? 301 : 300).ok());
  REQUIRE(s.run_to(1000).ok());
  REQUIRE(s.seek(20).ok());
  REQUIRE(
      s.switch_branch(timeline(s, 0).find_child(timeline(s, 0).path()[19], next[n_prompt - 1 + 20]))
          .ok());
  REQUIRE(last(s).ok());
  CHECK(sequence(s, 0) == seq);
  check_kv_invariant(s, 0);
}

TEST_CASE("golden: the other reference prompts" * doctest::test_suite("golden")) {
  struct Case {
    const char* prompt;
    const char* file;
  };
  for (const Case c : {Case{"The", "The"}, Case{"A threads of", "A_threads_of"}, Case{"", "empty"}}) {
    const std::string rel = std::string("llama2c/expected/aidreams260K.greedy.") + c.file + ".txt";
    if (!have_golden("llama2c/aidreams260K.bin") || !have_golden(rel)) return;
    Session s = golden_session(c.prompt);
    const int n_prompt = static_cast<int>(prompt_tokens(s).size());
    REQUIRE(set_max_tokens(s, 64 - n_prompt + 1).ok());
    REQUIRE(s.run_to(1000).ok());
    std::string text;
    for (const PathToken& t : path_tokens(s, 0)) {
      if (t.position > 0) text += t.piece;
    }
    std::string expected = slurp(golden_dir() / rel);
    while (!expected.empty() && expected.back() == '\n') expected.pop_back();
    CHECK_MESSAGE(text == expected, "prompt '" << c.prompt << "'");
  }
}
