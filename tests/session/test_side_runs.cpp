// Side runs (session/side_runs.h): beam search and speculative decoding as the session's own
// commands, on the shipped story model and its draft. The session's runs must equal the decode
// functions called directly; greedy speculative decoding must write the target's own text; bad
// settings and files are refused with one line, leaving the earlier runs in place.
#include <doctest/doctest.h>

#include <filesystem>

#include "decode/plain_decode.h"
#include "golden.h"
#include "sampling/sampler_spec.h"
#include "session/command.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/side_runs.h"

namespace ts::test {

namespace {

SamplerSettings greedy_settings() {
  Result<SamplerSettings> g = parse_sampler_spec("greedy");
  REQUIRE(g.ok());
  return g.value();
}

std::string shipped(const char* name) { return (source_dir() / "models" / name).string(); }

Status run(Session& s, const char* line) {
  Result<SessionCommand> c = parse_command(line);
  if (!c.ok()) return c.error();
  return apply_command(s, c.value());
}

Session story_session() {
  Session s;
  REQUIRE(s.load_model(shipped("tales-4m.gguf")).ok());
  REQUIRE(s.set_prompt("Once upon a time, there was a little girl named").ok());
  return s;
}

}  // namespace

TEST_CASE("beam: the session's run is beam_search's, beside width 1 (greedy)") {
  Session s = story_session();
  REQUIRE(run(s, "beam 3 alpha 0.5 tokens 6").ok());
  const SideRuns& side = s.side_runs();
  REQUIRE(side.beam.has_value());
  CHECK(side.newest == 0);
  CHECK(side.beam->settings.width == 3);
  CHECK(side.beam->settings.length_penalty == doctest::Approx(0.5));
  CHECK(side.beam->settings.limits.max_tokens == 6);
  CHECK(side_run_current(s, side.beam->prompt));

  Forward fwd(s.loaded()->model, 1);
  Result<BeamResult> direct = beam_search(fwd, prompt_tokens(s), side.beam->settings);
  REQUIRE(direct.ok());
  CHECK(direct->best_tokens == side.beam->result.best_tokens);
  CHECK(direct->nodes.size() == side.beam->result.nodes.size());
  // Width 1 is greedy decoding: the same tokens as a greedy plain decode.
  Result<PlainResult> plain = plain_decode(fwd, prompt_tokens(s), greedy_settings(),
                                           side.beam->settings.limits);
  REQUIRE(plain.ok());
  CHECK(side.beam->greedy.best_tokens == plain->tokens);
  // The beam's best is at least as probable as greedy's by the score it ranks by.
  CHECK(side.beam->result.nodes[side.beam->result.best].score >=
        side.beam->greedy.nodes[side.beam->greedy.best].score - 1e-9);

  // A new prompt leaves the run marked as another prompt's; a new model clears it.
  REQUIRE(s.set_prompt("The dog").ok());
  CHECK_FALSE(side_run_current(s, side.beam->prompt));
  REQUIRE(s.load_model(shipped("tales-4m.gguf")).ok());
  CHECK_FALSE(s.side_runs().beam.has_value());
}

TEST_CASE("speculative: greedy writes the target's own text; the counts add up") {
  Session s = story_session();
  REQUIRE(s.set_sampler(0, greedy_settings()).ok());
  const std::string draft = shipped("tales-draft.gguf");
  REQUIRE(std::filesystem::exists(draft));  // shipped with the source
  REQUIRE(run(s, ("speculate \"" + draft + "\" k 3 tokens 20").c_str()).ok());
  const SideRuns& side = s.side_runs();
  REQUIRE(side.spec.has_value());
  CHECK(side.newest == 1);
  CHECK(side.spec->greedy);
  CHECK(side.spec->draft_name == "tales-draft.gguf");
  const SpecResult& r = side.spec->result;
  CHECK(r.tokens == side.spec->plain_tokens);
  CHECK(r.tokens.size() == 20);
  int accepted = 0, emitted = 0;
  for (const SpecRound& rd : r.rounds) {
    accepted += rd.n_accepted;
    emitted += rd.emitted;
    CHECK(rd.drafts.size() <= 3u);
  }
  CHECK(accepted == r.accepted);
  CHECK(emitted == static_cast<int>(r.tokens.size()));
  CHECK(side.spec->plain_seconds > 0);
  CHECK(side.spec->spec_seconds > 0);
  // The draft stays loaded: a second run without a file uses it.
  REQUIRE(run(s, "speculate k 2 tokens 8").ok());
  CHECK(s.side_runs().spec->settings.k == 2);
  CHECK(s.side_runs().spec->draft_path == draft);
}

TEST_CASE("side runs: bad settings and files are one-line errors, earlier runs stay") {
  Session none;
  CHECK(run(none, "beam 2").error().message == "no model loaded");
  Session s = story_session();
  REQUIRE(run(s, "beam 2 tokens 3").ok());
  const Status wide = run(s, "beam 9");
  REQUIRE_FALSE(wide.ok());
  CHECK(wide.error().message.find("1..8") != std::string::npos);
  CHECK(s.side_runs().beam->settings.width == 2);  // the earlier run is kept
  CHECK_FALSE(parse_command("beam").ok());
  CHECK_FALSE(parse_command("beam 3 gamma 2").ok());
  CHECK_FALSE(parse_command("beam 3 alpha").ok());
  CHECK_FALSE(parse_command("speculate k x").ok());
  const Status missing = run(s, "speculate /nonexistent/draft.gguf");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.find("/nonexistent/draft.gguf") != std::string::npos);
  CHECK(missing.error().message.find('\n') == std::string::npos);
  CHECK_FALSE(run(s, "speculate").ok());  // no draft loaded before
  // A draft with another tokenizer is refused: english-4m's vocabulary is not the stories'.
  const Status other = run(s, ("speculate " + shipped("english-4m.gguf")).c_str());
  REQUIRE_FALSE(other.ok());
  CHECK(other.error().message.find("another tokenizer") != std::string::npos);
  CHECK_FALSE(s.side_runs().spec.has_value());
}

}  // namespace ts::test

namespace ts::test {

TEST_CASE("plain decoding carries mirostat's mu from step to step, as the session does") {
  // A chain whose cut depends on the mu the previous step left: the plain loop (what the
  // speculative run is measured against) must write what the session writes step by step.
  Session s = story_session();
  REQUIRE(run(s, "sampler mirostat-tau=2 mirostat-eta=0.5 temp=1 seed=5").ok());
  REQUIRE(run(s, "max-tokens 16").ok());
  REQUIRE(run(s, "step 16").ok());
  std::vector<int> session_tokens;
  for (int k = 0; k < path_length(s, 0); ++k) session_tokens.push_back(step_at(s, 0, k)->token);
  REQUIRE(session_tokens.size() >= 8);
  DecodeLimits lim;
  lim.max_tokens = 16;
  lim.eos_id = s.tokenizer().eos_id();
  lim.bos_id = s.tokenizer().bos_id();
  lim.n_ctx = config(s).n_ctx;
  Forward fwd(s.loaded()->model, 1);
  Result<PlainResult> plain = plain_decode(fwd, prompt_tokens(s), settings(s, 0), lim);
  REQUIRE(plain.ok());
  const size_t n = std::min(plain->tokens.size(), session_tokens.size());
  CHECK(std::vector<int>(plain->tokens.begin(), plain->tokens.begin() + n) ==
        std::vector<int>(session_tokens.begin(), session_tokens.begin() + n));
}

}  // namespace ts::test
