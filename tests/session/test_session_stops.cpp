// Stop conditions per lane (EOS, a stop string spanning tokens, the token budget, a full
// context), stepping after every lane stopped, prompt handling (empty, too long, invalid UTF-8)
// and settings validation that leaves the session unchanged.
#include <doctest/doctest.h>

#include "base/utf8.h"
#include "session/check.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"
#include "session/tiny_model.h"

using namespace ts;
using namespace ts::test;

namespace {

Session stops_session(int n_ctx = 64, bool add_bos = true) {
  Session s;
  REQUIRE(s.set_model(tiny_model(n_ctx, 5, add_bos)).ok());
  REQUIRE(s.set_prompt("the").ok());
  SamplerSettings t;
  stage<Temperature>(t).t = 1.0f;
  t.seed = 3;
  REQUIRE(s.set_sampler(0, t).ok());
  return s;
}

int id_of(const Session& s, const char* piece) {
  const int id = s.tokenizer().find(piece);
  REQUIRE(id >= 0);
  return id;
}

}  // namespace

TEST_CASE("EOS stops a lane; stepping when every lane stopped says so") {
  Session s = stops_session();
  REQUIRE(s.run_to(3).ok());
  REQUIRE(s.force(s.tokenizer().eos_id()).ok());
  CHECK(stop_reason(s, 0) == StopReason::Eos);
  CHECK(all_stopped(s));
  CHECK_FALSE(can_step(s));
  const int len = path_length(s, 0);
  const Status st = s.step();
  CHECK_FALSE(st.ok());
  CHECK(st.error().message.find("stopped") != std::string::npos);
  CHECK(st.error().message.find("eos") != std::string::npos);
  CHECK(path_length(s, 0) == len);
  // Rewinding one step makes stepping possible again (onto the recorded EOS).
  REQUIRE(back(s).ok());
  CHECK(can_step(s));
  REQUIRE(s.step().ok());
  CHECK(stop_reason(s, 0) == StopReason::Eos);
}

TEST_CASE("a stop string split across tokens stops the lane") {
  Session s = stops_session();
  REQUIRE(set_stop_strings(s, {"hel", "xyz"}).ok());
  REQUIRE(s.run_to(0).ok());
  REQUIRE(s.force(id_of(s, "x")).ok());
  CHECK(stop_reason(s, 0) == StopReason::None);
  REQUIRE(s.step().ok());
  REQUIRE(s.force(id_of(s, "h")).ok());
  REQUIRE(s.step().ok());
  REQUIRE(s.force(id_of(s, "e")).ok());
  CHECK(stop_reason(s, 0) == StopReason::None);
  REQUIRE(s.step().ok());
  REQUIRE(s.force(id_of(s, "lo")).ok());  // "h" + "e" + "lo" contains "hel"
  CHECK(stop_reason(s, 0) == StopReason::StopString);
  CHECK_FALSE(s.step().ok());
  // The prompt does not count: "the" holds "he" but a stop string "th" only matches output.
  REQUIRE(set_stop_strings(s, {"th"}).ok());
  CHECK(s.cursor() == 3);  // recomputed to the same cursor with the forced tokens
  CHECK(generated_text(s) == "xhelo");
  CHECK(stop_reason(s, 0) == StopReason::None);
  CHECK_FALSE(set_stop_strings(s, {""}).ok());
  CHECK(stop_strings(s) == std::vector<std::string>{"th"});
}

TEST_CASE("max tokens and a full context stop the lane") {
  Session s = stops_session();
  REQUIRE(set_max_tokens(s, 4).ok());
  REQUIRE(s.run_to(50).ok());
  CHECK(s.cursor() == 3);
  CHECK(path_length(s, 0) == 4);
  CHECK(stop_reason(s, 0) == StopReason::MaxTokens);
  CHECK(step_at(s, 0, 2)->stop == StopReason::None);
  // Raising the budget lets the lane go on, with the same first tokens.
  const std::vector<int> first = path_ids(s, 0);
  REQUIRE(set_max_tokens(s, 6).ok());
  CHECK(stop_reason(s, 0) == StopReason::None);
  REQUIRE(s.run_to(50).ok());
  CHECK(path_length(s, 0) == 6);
  CHECK(std::equal(first.begin(), first.end(), path_ids(s, 0).begin()));
  CHECK_FALSE(set_max_tokens(s, 0).ok());
  CHECK(max_tokens(s) == 6);

  Session c = stops_session(12);
  REQUIRE(set_max_tokens(c, 1000).ok());
  const int n_prompt = static_cast<int>(prompt_tokens(c).size());
  REQUIRE(c.run_to(1000).ok());
  CHECK(stop_reason(c, 0) == StopReason::ContextFull);
  CHECK(current_step(c)->position == 11);
  CHECK(path_length(c, 0) == 12 - n_prompt);
  CHECK(kv_length(c, 0) == 11);
  check_kv_invariant(c, 0);
}

TEST_CASE("one lane stopping does not stop the others") {
  Session s = stops_session();
  SamplerSettings g;
  stage<Temperature>(g).t = 0.0f;
  g.label = "greedy";
  REQUIRE(s.add_lane(g).ok());
  REQUIRE(s.run_to(2).ok());
  REQUIRE(s.force(s.tokenizer().eos_id(), 0).ok());
  REQUIRE(s.step().ok());
  REQUIRE(s.step().ok());
  CHECK(s.cursor() == 4);
  CHECK(path_length(s, 0) == 3);
  CHECK(path_length(s, 1) == 5);
  CHECK(stop_reason(s, 0) == StopReason::Eos);
  CHECK(current_step(s, 0) == step_at(s, 0, 2));
  CHECK(stop_reason(s, 1) == StopReason::None);
  check_kv_invariant(s, 0);
  check_kv_invariant(s, 1);
}

TEST_CASE("prompt handling: BOS alone, no BOS, too long, invalid UTF-8") {
  Session s = stops_session();
  REQUIRE(s.set_prompt("").ok());
  CHECK(prompt_tokens(s) == std::vector<int>{1});
  REQUIRE(s.step().ok());
  CHECK(current_step(s)->forward->n_positions == 1);

  Session nb = stops_session(64, false);
  CHECK(prompt_tokens(nb).front() != 1);
  const std::vector<int> before = prompt_tokens(nb);
  const Status e = nb.set_prompt("");
  CHECK_FALSE(e.ok());
  CHECK(e.error().message.find("empty") != std::string::npos);
  CHECK(prompt_text(nb) == "the");
  CHECK(prompt_tokens(nb) == before);

  Session lg = stops_session(16);
  REQUIRE(lg.set_prompt(std::string(40, 'q')).ok());  // 40 tokens + BOS into n_ctx 16
  CHECK(prompt_tokens(lg).size() == 15);
  CHECK(prompt_tokens(lg).front() == 1);
  CHECK(prompt_cut(lg) == 41 - 15);
  REQUIRE(lg.step().ok());
  CHECK(stop_reason(lg, 0) == StopReason::ContextFull);

  Session bad = stops_session();
  REQUIRE(bad.set_prompt("a\xff\xfe").ok());
  const std::vector<PathToken> toks = path_tokens(bad, 0);
  REQUIRE(toks.size() == 4);
  CHECK(toks[2].piece == "\xff");
  for (const PathToken& t : toks) CHECK(utf8_valid(t.display));
}

TEST_CASE("invalid settings are rejected and leave the session unchanged") {
  Session s = stops_session();
  REQUIRE(s.run_to(5).ok());
  const std::vector<int> ids = path_ids(s, 0);
  const SamplerSettings keep = settings(s, 0);
  SamplerSettings bad = keep;
  stage<TopP>(bad).p = 1.5f;
  CHECK_FALSE(s.set_sampler(0, bad).ok());
  CHECK(s.last_error().find("top") != std::string::npos);
  bad = keep;
  stage<Temperature>(bad).t = -1.0f;
  CHECK_FALSE(s.set_sampler(0, bad).ok());
  CHECK_FALSE(s.add_lane(bad).ok());
  CHECK_FALSE(s.set_sampler(3, keep).ok());
  CHECK(lane_count(s) == 1);
  CHECK(stage_or_off<TopP>(settings(s, 0)).p == stage_or_off<TopP>(keep).p);
  CHECK(stage_or_off<Temperature>(settings(s, 0)).t == stage_or_off<Temperature>(keep).t);
  CHECK(s.cursor() == 5);
  CHECK(path_ids(s, 0) == ids);

  const std::string name = config(s).name;
  CHECK_FALSE(s.load_model("/nonexistent/model.gguf").ok());
  CHECK_FALSE(s.last_error().empty());
  CHECK(has_model(s));
  CHECK(config(s).name == name);
  CHECK(s.cursor() == 5);
  CHECK(path_ids(s, 0) == ids);
  CHECK(prompt_text(s) == "the");

  LoadedModel broken = tiny_model();
  broken.model.weights.layers[1].wq.resize(3, 3);
  CHECK_FALSE(s.set_model(std::move(broken)).ok());
  LoadedModel no_tok = tiny_model();
  no_tok.tokenizer.tokens.clear();
  CHECK_FALSE(s.set_model(std::move(no_tok)).ok());
  CHECK(s.cursor() == 5);
  CHECK(path_ids(s, 0) == ids);
  REQUIRE(s.step().ok());  // still usable
  CHECK(s.last_error().empty());
}
