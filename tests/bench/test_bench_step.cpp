// bench --step on the hidden "tiny" shape (a smoke run: numbers came out, JSON fields present,
// a bad shape refused; no timing asserted), the 152k shape's vocabulary, and a Session stepped
// with the fast sampler and with the reference sampler: the same tokens and the same records.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/bench_measure.h"
#include "bench/bench_models.h"
#include "bench/bench_roofline.h"
#include "bench/bench_step.h"
#include "cli/cli.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

using namespace ts;

namespace {

struct StepRun {
  int code = 0;
  std::string out, err;
};

StepRun run_step(std::vector<std::string> args) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  StepRun r;
  r.code = cli_run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

bool step_positive(const nlohmann::json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0;
}

// Every step of lane 0 along the path.
std::vector<const Step*> path_steps(const Session& s) {
  std::vector<const Step*> out;
  for (int k = 0; k < path_length(s, 0); ++k) out.push_back(timeline(s, 0).at(k));
  return out;
}

}  // namespace

TEST_CASE("bench --step --json on the tiny shape") {
  const StepRun r = run_step({"bench", "--step", "--shapes", "tiny", "--step-steps", "6",
                              "--step-rounds", "1", "--reference-sampler", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out)["step"];
  CHECK(j["record_level"] == "summary");
  CHECK(j["machine"].get<std::string>().size() > 0);
  CHECK(j["chain"].get<std::string>().find("top-k=40") != std::string::npos);
  REQUIRE(j["shapes"].size() == 1);
  const nlohmann::json& s = j["shapes"][0];
  CHECK(s["ran"] == true);
  CHECK(s["vocab_size"] == 512);
  CHECK(s["decode_steps"] == 6);
  for (const char* k : {"forward_tokens_per_s", "chain_tokens_per_s", "greedy_tokens_per_s",
                        "chain_ratio", "greedy_ratio", "reference_chain_tokens_per_s",
                        "reference_greedy_tokens_per_s", "sampler_us", "reference_sampler_us"}) {
    CHECK_MESSAGE(step_positive(s[k]), k);
  }
}

TEST_CASE("bench --step prints the table; a bad shape is refused") {
  const StepRun r =
      run_step({"bench", "--step", "--shapes", "tiny", "--step-steps", "3", "--step-rounds", "1"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("chain/forward") != std::string::npos);
  CHECK(r.out.find("tiny") != std::string::npos);
  const StepRun bad = run_step({"bench", "--step", "--shapes", "7B"});
  CHECK(bad.code != 0);
  CHECK(bad.err.find("7B") != std::string::npos);
}

TEST_CASE("the 152k bench shape has Qwen2.5's vocabulary") {
  const Result<ModelConfig> c = bench::roofline_shape_config("152k");
  REQUIRE(c.ok());
  CHECK(c->vocab_size == 151936);
  CHECK(c->d_model == 288);
}

TEST_CASE("a session records the same with the fast sampler as with the reference") {
  const ModelConfig c = bench::roofline_shape_config("tiny").value();
  const LoadedModel lm = bench::random_model(c, 3, 0.3f);  // wide logits: varied draws
  SamplerSettings chain = bench::step_bench_chain();
  SamplerSettings greedy;
  stage<Temperature>(greedy).t = 0;
  for (const SamplerSettings& set : {chain, greedy}) {
    std::vector<std::vector<int>> tokens(2);
    std::vector<std::vector<SamplingRecord>> recs(2);
    for (int fast = 0; fast < 2; ++fast) {
      set_sampler_fast_path(fast == 1);
      Session s(SessionOptions{2});
      REQUIRE(s.set_model(lm).ok());
      REQUIRE(set_record_level(s, RecordLevel::Summary).ok());
      REQUIRE(s.set_sampler(0, set).ok());
      REQUIRE(s.set_prompt("Once upon a time").ok());
      REQUIRE(set_max_tokens(s, 40).ok());
      REQUIRE(bench::run_without_eos(s, 30).ok());
      for (const Step* st : path_steps(s)) {
        tokens[fast].push_back(st->token);
        recs[fast].push_back(st->sampling);
      }
    }
    set_sampler_fast_path(true);
    REQUIRE(tokens[0].size() >= 20);
    CHECK(tokens[0] == tokens[1]);
    REQUIRE(recs[0].size() == recs[1].size());
    for (size_t k = 0; k < recs[0].size(); ++k) {
      const SamplingRecord& a = recs[1][k];  // fast
      const SamplingRecord& b = recs[0][k];  // reference
      INFO("step " << k);
      CHECK(a.draw.chosen_id == b.draw.chosen_id);
      CHECK(a.draw.chosen_p == b.draw.chosen_p);
      CHECK(a.draw.cum_lo == b.draw.cum_lo);
      CHECK(a.draw.cum_hi == b.draw.cum_hi);
      REQUIRE(a.stages.size() == b.stages.size());
      for (size_t i = 0; i < a.stages.size(); ++i) {
        CHECK(a.stages[i].n_kept == b.stages[i].n_kept);
        REQUIRE(a.stages[i].top.size() == b.stages[i].top.size());
        for (size_t r = 0; r < a.stages[i].top.size(); ++r) {
          CHECK(a.stages[i].top[r].id == b.stages[i].top[r].id);
          CHECK(a.stages[i].top[r].kept == b.stages[i].top[r].kept);
        }
      }
      REQUIRE(a.raw.size() == b.raw.size());
      for (size_t r = 0; r < a.raw.size(); ++r) CHECK(a.raw[r].id == b.raw[r].id);
    }
  }
}
