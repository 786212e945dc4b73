// Every numeric setting at its limits and beyond: temperature 0 and 1e6, top-k 0 and vocab+1,
// top-p 0, 1 and 2, min-p, seeds 0 and 2^64-1, max tokens 0, stop strings empty or longer than
// the output. Valid values generate (with the invariants holding); invalid ones are refused by
// name and leave the lane's settings and timeline as they were.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "fuzz/harness_session.h"
#include "fuzz/seed_models.h"
#include "sampling/sampler_spec.h"
#include "session/histogram.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts {

namespace {

Session tiny_session() {
  Session s;
  REQUIRE(s.set_model(fuzz::small_loaded("llama", fuzz::small_spm(60, false, " "), 32)).ok());
  REQUIRE(s.set_prompt("the hat").ok());
  return s;
}

struct Setting {
  const char* name;
  void (*apply)(SamplerSettings&, int vocab);
  const char* refused_field;  // nullptr: valid
};

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

const Setting kSettings[] = {
    {"temperature 0", [](SamplerSettings& s, int) { stage<Temperature>(s).t = 0; }, nullptr},
    {"temperature 1e6", [](SamplerSettings& s, int) { stage<Temperature>(s).t = 1e6f; }, nullptr},
    {"temperature 1e-30", [](SamplerSettings& s, int) { stage<Temperature>(s).t = 1e-30f; },
     nullptr},
    {"temperature -1", [](SamplerSettings& s, int) { stage<Temperature>(s).t = -1; },
     "temperature"},
    {"temperature inf", [](SamplerSettings& s, int) { stage<Temperature>(s).t = kInf; },
     "temperature"},
    {"temperature NaN", [](SamplerSettings& s, int) { stage<Temperature>(s).t = kNaN; },
     "temperature"},
    {"top-k 0", [](SamplerSettings& s, int) { stage<TopK>(s).k = 0; }, nullptr},
    {"top-k 1", [](SamplerSettings& s, int) { stage<TopK>(s).k = 1; }, nullptr},
    {"top-k vocab+1", [](SamplerSettings& s, int v) { stage<TopK>(s).k = v + 1; }, nullptr},
    {"top-k INT_MAX", [](SamplerSettings& s, int) { stage<TopK>(s).k = INT32_MAX; }, nullptr},
    {"top-k -1", [](SamplerSettings& s, int) { stage<TopK>(s).k = -1; }, "top_k"},
    {"top-p 1", [](SamplerSettings& s, int) { stage<TopP>(s).p = 1; }, nullptr},
    {"top-p 1e-9", [](SamplerSettings& s, int) { stage<TopP>(s).p = 1e-9f; }, nullptr},
    {"top-p 0", [](SamplerSettings& s, int) { stage<TopP>(s).p = 0; }, "top_p"},
    {"top-p 2", [](SamplerSettings& s, int) { stage<TopP>(s).p = 2; }, "top_p"},
    {"top-p NaN", [](SamplerSettings& s, int) { stage<TopP>(s).p = kNaN; }, "top_p"},
    {"min-p 1", [](SamplerSettings& s, int) { stage<MinP>(s).p = 1; }, nullptr},
    {"min-p 1.5", [](SamplerSettings& s, int) { stage<MinP>(s).p = 1.5f; }, "min_p"},
    {"seed 0", [](SamplerSettings& s, int) { s.seed = 0; }, nullptr},
    {"seed 2^64-1", [](SamplerSettings& s, int) { s.seed = UINT64_MAX; }, nullptr},
    {"repetition penalty 1e6", [](SamplerSettings& s, int) { stage<Penalties>(s).repeat = 1e6f; },
     nullptr},
    {"repetition penalty 0", [](SamplerSettings& s, int) { stage<Penalties>(s).repeat = 0; },
     "repetition_penalty"},
    {"frequency penalty -1e30",
     [](SamplerSettings& s, int) { stage<Penalties>(s).frequency = -1e30f; }, nullptr},
    {"presence penalty inf", [](SamplerSettings& s, int) { stage<Penalties>(s).presence = kInf; },
     "presence_penalty"},
    {"penalty window -1", [](SamplerSettings& s, int) { stage<Penalties>(s).last_n = -1; },
     "penalty_last_n"},
    {"no stages at all", [](SamplerSettings& s, int) { s.chain.clear(); }, nullptr},
    // A stage may repeat since stages carry their own values (top-k 40 then top-k 5).
    {"a stage twice",
     [](SamplerSettings& s, int) {
       s.chain = {TopK{40}, TopK{5}};
     },
     nullptr},
};

}  // namespace

TEST_CASE("settings at their limits: valid ones generate, invalid ones are refused by name") {
  for (const Setting& c : kSettings) {
    INFO("setting: " << std::string(c.name));
    Session s = tiny_session();
    SamplerSettings set;
    stage<Temperature>(set).t = 0.9f;
    stage<TopK>(set).k = 5;
    set.seed = 3;
    REQUIRE(s.set_sampler(0, set).ok());
    REQUIRE(s.run_to(2).ok());
    const std::vector<int> before = sequence(s, 0, false);
    c.apply(set, config(s).vocab_size);
    const Status st = s.set_sampler(0, set);
    if (c.refused_field) {
      REQUIRE_FALSE(st.ok());
      CHECK(st.error().message.find(c.refused_field) != std::string::npos);
      CHECK(st.error().message.find('\n') == std::string::npos);
      CHECK(sequence(s, 0, false) == before);  // unchanged
      CHECK(s.cursor() == 2);
    } else {
      REQUIRE(st.ok());
      REQUIRE(set_max_tokens(s, 20).ok());
      REQUIRE(s.run_to(19).ok());
      CHECK(fuzz::check_session_view(s) == "");
      for (int k = 0; k < path_length(s, 0); ++k) {
        const Step* step = step_at(s, 0, k);
        CHECK((step->token >= 0 && step->token < config(s).vocab_size));
        CHECK(std::isfinite(step->chosen_p));
        CHECK(!step->sampling.final_dist.empty());
      }
    }
  }
}

TEST_CASE("settings at their limits: max tokens, stop strings, lanes") {
  Session s = tiny_session();
  CHECK_FALSE(set_max_tokens(s, 0).ok());
  CHECK_FALSE(set_max_tokens(s, -5).ok());
  CHECK(max_tokens(s) == 256);
  REQUIRE(set_max_tokens(s, 1).ok());
  REQUIRE(s.step().ok());
  CHECK(stop_reason(s, 0) != StopReason::None);  // one token, then the budget stops it
  CHECK_FALSE(s.step().ok());                    // nothing to step, a clean refusal
  REQUIRE(set_max_tokens(s, INT32_MAX).ok());    // the context (32) is the real limit
  REQUIRE(s.run_to(INT32_MAX - 1).ok());
  CHECK(kv_length(s, 0) <= config(s).n_ctx);

  const Status empty_stop = set_stop_strings(s, {"a", ""});
  REQUIRE_FALSE(empty_stop.ok());
  CHECK(empty_stop.error().message.find("empty") != std::string::npos);
  CHECK(stop_strings(s).empty());
  REQUIRE(set_stop_strings(s, {std::string(10000, 'x'), std::string("\0\xFF", 2)}).ok());
  REQUIRE(first(s).ok());
  REQUIRE(s.run_to(40).ok());
  CHECK(fuzz::check_session_view(s) == "");

  CHECK_FALSE(s.seek(-2).ok());
  CHECK_FALSE(s.seek(INT32_MAX).ok());
  CHECK_FALSE(s.run_to(-2).ok());
  CHECK_FALSE(s.force(-1).ok());
  CHECK_FALSE(s.force(config(s).vocab_size).ok());
  CHECK_FALSE(s.force(0, 7).ok());
  CHECK_FALSE(s.switch_branch(-1).ok());
  CHECK_FALSE(s.switch_branch(1 << 30).ok());
  CHECK_FALSE(s.remove_lane(0).ok());  // the last lane stays
  for (int i = 1; i < kMaxLanes; ++i) REQUIRE(s.add_lane(SamplerSettings{}).ok());
  CHECK_FALSE(s.add_lane(SamplerSettings{}).ok());
  CHECK_FALSE(histogram(s, -1).ok());
  CHECK(fuzz::check_session_view(s) == "");
}

TEST_CASE("settings at their limits: sampler specs with odd numbers are refused by name") {
  for (const char* spec : {"temp=-1", "temp=nan", "temp=1e999", "top-k=-3", "top-k=1e30",
                           "top-p=0", "top-p=2", "seed=-1", "seed=18446744073709551616",
                           "top-k=", "=3", "temp=0.5 temp=0.7 bogus"}) {
    INFO("spec: " << std::string(spec));
    Result<SamplerSettings> r = parse_sampler_spec(spec);
    const Status st = r.ok() ? validate(r.value()) : Status(r.error());  // parse, then validate
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().message.find('\n') == std::string::npos);
  }
  Result<SamplerSettings> edge = parse_sampler_spec("temp=1e6 top-k=0 seed=18446744073709551615");
  REQUIRE(edge.ok());
  CHECK(edge->seed == UINT64_MAX);
  CHECK(validate(edge.value()).ok());
}

}  // namespace ts
