// The shipped pair: models/tales-draft.gguf drafting for models/tales-4m.gguf. On every story
// opening of models/eval-prompts-stories.txt, greedy speculative decoding gives exactly the
// session's greedy text (the app's and `generate --temperature 0`'s), and the draft's proposals
// pass the target's tests often enough to be worth drafting.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "decode/speculative.h"
#include "golden.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

using namespace ts;

TEST_CASE("tales-draft + tales-4m: greedy speculative == the session's greedy text, every prompt") {
  const std::string dir = test::source_dir().string() + "/models/";
  Session s;
  REQUIRE(s.load_model(dir + "tales-4m.gguf").ok());
  auto draft = load_model_file(dir + "tales-draft.gguf");
  REQUIRE_MESSAGE(draft.ok(), draft.error().message);
  CHECK(draft->tokenizer.tokens == s.loaded()->tokenizer.tokens);
  CHECK(draft->tokenizer.merges == s.loaded()->tokenizer.merges);
  REQUIRE(set_record_level(s, RecordLevel::Off).ok());
  REQUIRE(set_max_tokens(s, 40).ok());
  SamplerSettings greedy;
  stage<Temperature>(greedy).t = 0;
  Forward target(s.loaded()->model), fd(draft->model);
  std::ifstream in(dir + "eval-prompts-stories.txt");
  std::string line;
  int prompts = 0;
  long tested = 0, accepted = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    CAPTURE(line);
    REQUIRE(s.set_prompt(line).ok());
    REQUIRE(s.set_sampler(0, greedy).ok());
    while (!all_stopped(s)) REQUIRE(s.step().ok());
    const std::vector<int> seq = sequence(s, 0, false);
    const std::vector<int>& prompt = prompt_tokens(s);
    const std::vector<int> session_text(seq.begin() + static_cast<long>(prompt.size()), seq.end());
    SpecSettings ss;
    ss.k = 4;
    ss.sampler = greedy;
    ss.limits.max_tokens = 40;
    ss.limits.eos_id = s.tokenizer().eos_id();
    ss.limits.bos_id = s.tokenizer().bos_id();
    ss.limits.n_ctx = config(s).n_ctx;
    auto r = speculative_decode(target, fd, prompt, ss);
    REQUIRE(r.ok());
    CHECK(r->tokens == session_text);
    CHECK(r->tokens.size() == 40);
    tested += r->tested;
    accepted += r->accepted;
    ++prompts;
  }
  CHECK(prompts == 15);
  const double pass = double(accepted) / tested;
  MESSAGE("greedy: " << accepted << " of " << tested << " tests passed (" << 100 * pass << "%)");
  CHECK(pass > 0.5);
}
