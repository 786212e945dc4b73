// Tests of the sampler-spec text format used by --lanes, lessons and scripts.
#include <doctest/doctest.h>

#include "sampling/sampler_spec.h"

using namespace ts;

TEST_CASE("sampler specs parse every key") {
  auto g = parse_sampler_spec("greedy");
  REQUIRE(g.ok());
  CHECK(stage_or_off<Temperature>(g.value()).t == 0.0f);
  CHECK(g->label == "greedy");

  auto s = parse_sampler_spec(
      "  temp=0.8 top-k=40 top-p=0.9 min-p=0.05 seed=18446744073709551615 rep=1.1 freq=0.2 "
      "presence=0.1 last-n=32 label=mine ");
  REQUIRE(s.ok());
  CHECK(stage_or_off<Temperature>(s.value()).t == doctest::Approx(0.8));
  CHECK(stage_or_off<TopK>(s.value()).k == 40);
  CHECK(stage_or_off<TopP>(s.value()).p == doctest::Approx(0.9));
  CHECK(stage_or_off<MinP>(s.value()).p == doctest::Approx(0.05));
  CHECK(s->seed == 18446744073709551615ull);
  CHECK(stage_or_off<Penalties>(s.value()).repeat == doctest::Approx(1.1));
  CHECK(stage_or_off<Penalties>(s.value()).frequency == doctest::Approx(0.2));
  CHECK(stage_or_off<Penalties>(s.value()).presence == doctest::Approx(0.1));
  CHECK(stage_or_off<Penalties>(s.value()).last_n == 32);
  CHECK(s->label == "mine");

  auto o = parse_sampler_spec("order=temperature,top-p");
  REQUIRE(o.ok());
  REQUIRE(o->chain.size() == 2);
  CHECK(kind_of(o->chain[0]) == StageKind::Temperature);
  CHECK(kind_of(o->chain[1]) == StageKind::TopP);
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
  CHECK(greedy(lanes.value()[0]));
  CHECK(lanes.value()[1].seed == 1);
  CHECK(stage_or_off<TopP>(lanes.value()[2]).p == doctest::Approx(0.9));
  CHECK_FALSE(parse_lane_specs(" ; ").ok());
}

TEST_CASE("describe() output parses back to the same settings") {
  SamplerSettings a;
  stage<Temperature>(a).t = 0.7f;
  stage<TopK>(a).k = 12;
  stage<TopP>(a).p = 0.85f;
  stage<MinP>(a).p = 0.1f;
  stage<Penalties>(a).repeat = 1.2f;
  stage<Penalties>(a).presence = 0.3f;
  a.seed = 99;
  a.chain = {stage_or_off<Temperature>(a), stage_or_off<TopK>(a), stage_or_off<Penalties>(a),
             stage_or_off<TopP>(a), stage_or_off<MinP>(a)};
  auto b = parse_sampler_spec(describe(a));
  REQUIRE(b.ok());
  CHECK(describe(b.value()) == describe(a));
  CHECK(b->chain == a.chain);
  CHECK(b->seed == 99);
}
