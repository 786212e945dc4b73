// Tests of the sampler-spec text format used by --lanes, lessons and scripts.
#include <doctest/doctest.h>

#include "sampling/sampler_spec.h"

using namespace ts;

TEST_CASE("sampler specs parse every key") {
  auto g = parse_sampler_spec("greedy");
  REQUIRE(g.ok());
  CHECK(g->temperature == 0.0f);
  CHECK(g->label == "greedy");

  auto s = parse_sampler_spec(
      "  temp=0.8 top-k=40 top-p=0.9 min-p=0.05 seed=18446744073709551615 rep=1.1 freq=0.2 "
      "presence=0.1 last-n=32 label=mine ");
  REQUIRE(s.ok());
  CHECK(s->temperature == doctest::Approx(0.8));
  CHECK(s->top_k == 40);
  CHECK(s->top_p == doctest::Approx(0.9));
  CHECK(s->min_p == doctest::Approx(0.05));
  CHECK(s->seed == 18446744073709551615ull);
  CHECK(s->repetition_penalty == doctest::Approx(1.1));
  CHECK(s->frequency_penalty == doctest::Approx(0.2));
  CHECK(s->presence_penalty == doctest::Approx(0.1));
  CHECK(s->penalty_last_n == 32);
  CHECK(s->label == "mine");

  auto o = parse_sampler_spec("order=temperature,top-p");
  REQUIRE(o.ok());
  REQUIRE(o->order.size() == 2);
  CHECK(o->order[0] == StageKind::Temperature);
  CHECK(o->order[1] == StageKind::TopP);
}

TEST_CASE("bad sampler specs name the problem") {
  CHECK_FALSE(parse_sampler_spec("temp=abc").ok());
  CHECK(parse_sampler_spec("temp=abc").error().message.find("temp") != std::string::npos);
  CHECK_FALSE(parse_sampler_spec("top-k=1.5").ok());
  CHECK_FALSE(parse_sampler_spec("seed=-1").ok());
  CHECK_FALSE(parse_sampler_spec("wobble=3").ok());
  CHECK(parse_sampler_spec("wobble=3").error().message.find("wobble") != std::string::npos);
  CHECK_FALSE(parse_sampler_spec("hot").ok());
  CHECK_FALSE(parse_sampler_spec("order=top-k,sideways").ok());
}

TEST_CASE("lane specs split on semicolons") {
  auto lanes = parse_lane_specs("greedy; temp=0.8 seed=1 ;top-p=0.9;");
  REQUIRE(lanes.ok());
  REQUIRE(lanes->size() == 3);
  CHECK(lanes.value()[0].greedy());
  CHECK(lanes.value()[1].seed == 1);
  CHECK(lanes.value()[2].top_p == doctest::Approx(0.9));
  CHECK_FALSE(parse_lane_specs(" ; ").ok());
}

TEST_CASE("describe() output parses back to the same settings") {
  SamplerSettings a;
  a.temperature = 0.7f;
  a.top_k = 12;
  a.top_p = 0.85f;
  a.min_p = 0.1f;
  a.repetition_penalty = 1.2f;
  a.presence_penalty = 0.3f;
  a.seed = 99;
  a.order = {StageKind::Temperature, StageKind::TopK, StageKind::Penalties, StageKind::TopP,
             StageKind::MinP};
  auto b = parse_sampler_spec(describe(a));
  REQUIRE(b.ok());
  CHECK(describe(b.value()) == describe(a));
  CHECK(b->order == a.order);
  CHECK(b->seed == 99);
}
