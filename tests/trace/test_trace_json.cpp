// Trace JSON: a session's run written and read back gives the same trace (every field, bytes
// that are not UTF-8 included); malformed input is refused with its line or its field path.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>

#include "session/check.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"
#include "session/tiny_model.h"
#include "trace/trace_json.h"

using namespace ts;
using namespace ts::test;

namespace {

Trace sample_trace(RecordLevel level) {
  Session s;
  REQUIRE(s.set_model(tiny_model(64, 4)).ok());
  REQUIRE(set_record_level(s, level).ok());
  REQUIRE(s.set_prompt("the \xff").ok());
  REQUIRE(set_stop_strings(s, {"\xfe\xff", "lol"}).ok());
  SamplerSettings a;
  a.label = "T=0.9";
  stage<Temperature>(a).t = 0.9f;
  stage<TopK>(a).k = 40;
  stage<TopP>(a).p = 0.95f;
  a.seed = 18446744073709551615ull;
  REQUIRE(s.set_sampler(0, a).ok());
  SamplerSettings g;
  g.label = "greedy";
  stage<Temperature>(g).t = 0.0f;
  REQUIRE(s.add_lane(g).ok());
  REQUIRE(s.run_to(6).ok());
  REQUIRE(s.seek(2).ok());
  REQUIRE(s.force(3 + 0xE2).ok());  // a lone byte piece: not valid UTF-8 on its own
  REQUIRE(s.step().ok());
  return make_trace(s);
}

}  // namespace

TEST_CASE("trace JSON round trip") {
  for (RecordLevel level : {RecordLevel::Full, RecordLevel::Summary, RecordLevel::Off}) {
    const Trace t = sample_trace(level);
    REQUIRE(t.lanes.size() == 2);
    const std::string text = trace_to_json(t);
    Result<Trace> back = parse_trace_json(text);
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
    const Trace& r = back.value();
    CHECK(trace_to_json(r) == text);  // every field survives
    CHECK(r.prompt == "the \xff");
    CHECK(r.stop_strings == t.stop_strings);
    CHECK(r.prompt_tokens == t.prompt_tokens);
    CHECK(r.prompt_pieces == t.prompt_pieces);
    CHECK(!t.pieces.empty());  // every candidate's piece, for reading without the model
    CHECK(r.pieces == t.pieces);
    CHECK(r.config.n_layers == 2);
    CHECK(r.record_level == level);
    CHECK(r.cursor == 3);
    CHECK(r.lanes[0].settings.seed == 18446744073709551615ull);
    CHECK(r.lanes[0].settings.chain == t.lanes[0].settings.chain);
    REQUIRE(r.lanes[0].steps.size() == t.lanes[0].steps.size());
    for (size_t k = 0; k < t.lanes[0].steps.size(); ++k) {
      const TraceStep& a = t.lanes[0].steps[k];
      const TraceStep& b = r.lanes[0].steps[k];
      CHECK(a.token == b.token);
      CHECK(a.forced == b.forced);
      CHECK(a.piece == b.piece);
      CHECK(a.stop == b.stop);
      check_same_forward(a.forward, b.forward);
      CHECK(a.forward.cost.seconds == b.forward.cost.seconds);
      CHECK(same_candidates(a.sampling.final_dist, b.sampling.final_dist));
      CHECK(a.sampling.draw.u == b.sampling.draw.u);
    }
    CHECK(r.lanes[0].steps[2].forced);
    CHECK(r.lanes[0].steps[2].piece == "\xE2");
    if (level == RecordLevel::Full) CHECK(r.lanes[0].steps[1].forward.attention.size() == 2);
  }
}

TEST_CASE("trace JSON file write and read") {
  const Trace t = sample_trace(RecordLevel::Summary);
  const std::string path =
      (std::filesystem::temp_directory_path() / "ts_trace_roundtrip.json").string();
  REQUIRE(write_trace_json(t, path).ok());
  Result<Trace> r = read_trace_json(path);
  REQUIRE(r.ok());
  CHECK(trace_to_json(r.value()) == trace_to_json(t));
  std::remove(path.c_str());
  CHECK_FALSE(read_trace_json(path).ok());
  CHECK_FALSE(write_trace_json(t, "/nonexistent/dir/x.json").ok());
}

TEST_CASE("malformed trace JSON gives the line or the field") {
  const std::string good = trace_to_json(sample_trace(RecordLevel::Summary), -1);

  Result<Trace> trunc = parse_trace_json(good.substr(0, good.size() / 2));
  REQUIRE_FALSE(trunc.ok());
  CHECK(trunc.error().message.find("line") != std::string::npos);

  Result<Trace> syntax = parse_trace_json("{\n  \"format\": \"tokenscope-trace\",\n  oops\n}");
  REQUIRE_FALSE(syntax.ok());
  CHECK(syntax.error().message.find("line 3") != std::string::npos);

  CHECK_FALSE(parse_trace_json("").ok());
  CHECK_FALSE(parse_trace_json("[]").ok());

  auto mutate = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    return parse_trace_json(s);
  };
  Result<Trace> wrong_type = mutate("\"token\":", "\"token\":\"x\",\"was\":");
  REQUIRE_FALSE(wrong_type.ok());
  CHECK(wrong_type.error().message.find("lanes[0].steps[0].token") != std::string::npos);

  Result<Trace> missing = mutate("\"sampled_token\":", "\"renamed\":");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.find("lanes[0].steps[0].sampled_token") != std::string::npos);
  CHECK(missing.error().message.find("missing") != std::string::npos);

  Result<Trace> bad_enum = mutate("\"record_level\":\"summary\"", "\"record_level\":\"most\"");
  REQUIRE_FALSE(bad_enum.ok());
  CHECK(bad_enum.error().message.find("settings.record_level") != std::string::npos);

  Result<Trace> version = mutate("\"version\":1", "\"version\":99");
  REQUIRE_FALSE(version.ok());
  CHECK(version.error().message.find("version") != std::string::npos);

  Result<Trace> bad_hex = mutate("{\"hex\":\"", "{\"hex\":\"zz");
  REQUIRE_FALSE(bad_hex.ok());
  CHECK(bad_hex.error().message.find("hex") != std::string::npos);
}

#include "trace/trace_replay.h"

TEST_CASE("trace replay: a trace opened again gives the same run, forced tokens and cursor") {
  Session a;
  REQUIRE(a.set_model(tiny_model(64, 4)).ok());
  REQUIRE(a.set_prompt("the cat").ok());
  SamplerSettings t;
  t.label = "T=0.9";
  stage<Temperature>(t).t = 0.9f;
  stage<TopK>(t).k = 20;
  t.seed = 77;
  REQUIRE(a.set_sampler(0, t).ok());
  SamplerSettings g;
  g.label = "greedy";
  stage<Temperature>(g).t = 0.0f;
  REQUIRE(a.add_lane(g).ok());
  REQUIRE(a.run_to(3).ok());
  const Step* st = current_step(a, 1);
  REQUIRE(st != nullptr);
  const int other = st->sampling.raw[1].id;
  REQUIRE(a.force(other, 1).ok());
  REQUIRE(a.run_to(7).ok());
  REQUIRE(a.seek(5).ok());
  Result<Trace> back = parse_trace_json(trace_to_json(make_trace(a)));
  REQUIRE(back.ok());

  Session b;
  REQUIRE(b.set_model(tiny_model(64, 4)).ok());
  const Status r = replay_trace(b, back.value());
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  CHECK(b.cursor() == a.cursor());
  CHECK(lane_count(b) == 2);
  for (int lane = 0; lane < 2; ++lane) {
    CHECK(sequence(b, lane, false) == sequence(a, lane, false));
    for (int k = 0; k < path_length(a, lane); ++k) {
      CHECK(step_at(b, lane, k)->forced == step_at(a, lane, k)->forced);
      CHECK(step_at(b, lane, k)->chosen_p == step_at(a, lane, k)->chosen_p);
    }
  }
  CHECK(step_at(b, 1, 3)->forced);

  // A trace whose tokens were changed is caught, with the place named.
  Trace bad = back.value();
  bad.lanes[0].steps[4].token = (bad.lanes[0].steps[4].token + 1) % 64;
  Session c;
  REQUIRE(c.set_model(tiny_model(64, 4)).ok());
  const Status rb = replay_trace(c, bad);
  REQUIRE_FALSE(rb.ok());
  CHECK(rb.error().message.find("lane 0 step 4") != std::string::npos);

  // Without the model file: an error that says what is missing.
  Trace gone = back.value();
  gone.model_path = "/nonexistent/tokenscope-model.gguf";
  Session d;
  const Status rg = replay_trace(d, gone);
  REQUIRE_FALSE(rg.ok());
  CHECK(rg.error().message.find("is not here") != std::string::npos);
}

TEST_CASE("trace replay: a sampler changed mid-run is recorded per step and replayed exactly") {
  Session a;
  REQUIRE(a.set_model(tiny_model(64, 4)).ok());
  REQUIRE(a.set_prompt("the cat").ok());
  SamplerSettings hot;
  hot.label = "T=1.5";
  stage<Temperature>(hot).t = 1.5f;
  hot.seed = 5;
  REQUIRE(a.set_sampler(0, hot).ok());
  REQUIRE(a.run_to(3).ok());
  SamplerSettings g;
  g.label = "greedy";
  stage<Temperature>(g).t = 0.0f;
  REQUIRE(a.branch_sampler(0, g).ok());  // step 3 chosen again, greedily, then onwards
  REQUIRE(a.run_to(6).ok());
  const Trace t = make_trace(a);
  REQUIRE(t.lanes[0].steps.size() == 7);
  CHECK(t.lanes[0].steps[2].has_sampler);  // the hot sampler's steps say so
  CHECK(t.lanes[0].steps[2].sampler.label == "T=1.5");
  CHECK_FALSE(t.lanes[0].steps[3].has_sampler);  // the lane's own (greedy) settings
  Result<Trace> back = parse_trace_json(trace_to_json(t));
  REQUIRE(back.ok());
  CHECK(back.value().lanes[0].steps[2].has_sampler);
  CHECK(stage_or_off<Temperature>(back.value().lanes[0].steps[2].sampler).t == 1.5f);
  Session b;
  REQUIRE(b.set_model(tiny_model(64, 4)).ok());
  const Status r = replay_trace(b, back.value());
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  CHECK(sequence(b, 0, false) == sequence(a, 0, false));
  CHECK(settings(b, 0).label == "greedy");
  CHECK(b.cursor() == a.cursor());
}

#include <regex>

TEST_CASE(
    "trace JSON: a chain with a repeated stage round-trips; traces without a chain still read") {
  Session s;
  REQUIRE(s.set_model(tiny_model(64, 4)).ok());
  REQUIRE(s.set_prompt("the cat").ok());
  SamplerSettings rep;
  rep.label = "top-k twice";
  rep.chain = {Penalties{1.1f, 0, 0, 16}, TopK{40}, TopK{5}, Temperature{0.8f}};
  REQUIRE(s.set_sampler(0, rep).ok());
  SamplerSettings g;
  g.label = "greedy first";
  g.chain = {Temperature{0}, TopP{0.9f}};
  REQUIRE(s.add_lane(g).ok());
  REQUIRE(s.run_to(3).ok());
  const Trace t = make_trace(s);
  const std::string text = trace_to_json(t, -1);
  CHECK(text.find("\"kind\":\"penalties\",\"last_n\":16") != std::string::npos);
  CHECK(text.find("{\"k\":5,\"kind\":\"top-k\"}") != std::string::npos);
  Result<Trace> back = parse_trace_json(text);
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  CHECK(back.value().lanes[0].settings.chain == rep.chain);
  CHECK(back.value().lanes[1].settings.chain == g.chain);
  CHECK(trace_to_json(back.value(), -1) == text);
  REQUIRE(back.value().lanes[0].steps.size() == 4);
  CHECK(back.value().lanes[0].steps[1].sampling.stages.size() == 4);
  CHECK(back.value().lanes[0].steps[1].sampling.stages[2].name == "top-k 5");

  // Without "chain" (a trace written before it): the flat fields give the chain, exact when
  // no stage repeats, the first of each kind otherwise.
  const std::string old = std::regex_replace(text, std::regex("\"chain\":\\[[^\\]]*\\],"), "");
  REQUIRE(old.find("\"chain\"") == std::string::npos);
  Result<Trace> flat = parse_trace_json(old);
  REQUIRE_MESSAGE(flat.ok(), (flat.ok() ? "" : flat.error().message));
  CHECK(flat.value().lanes[1].settings.chain == g.chain);
  CHECK(flat.value().lanes[0].settings.chain ==
        std::vector<Stage>{Penalties{1.1f, 0, 0, 16}, TopK{40}, Temperature{0.8f}});

  // A damaged chain is refused with the field named.
  auto mutate = [&](const std::string& from, const std::string& to) {
    std::string m = text;
    const size_t at = m.find(from);
    REQUIRE(at != std::string::npos);
    m.replace(at, from.size(), to);
    return parse_trace_json(m);
  };
  Result<Trace> bad_kind = mutate("\"kind\":\"top-p\"", "\"kind\":\"sideways\"");
  REQUIRE_FALSE(bad_kind.ok());
  CHECK(bad_kind.error().message.find("lanes[1].sampler.chain[1].kind") != std::string::npos);
  Result<Trace> bad_value = mutate("{\"k\":5,", "{\"k\":\"five\",");
  REQUIRE_FALSE(bad_value.ok());
  CHECK(bad_value.error().message.find("lanes[0].sampler.chain[2].k") != std::string::npos);
  Result<Trace> not_array = mutate("\"chain\":[", "\"chain\":7,\"x\":[");
  REQUIRE_FALSE(not_array.ok());
  CHECK(not_array.error().message.find("chain: expected an array") != std::string::npos);
}

TEST_CASE(
    "trace JSON: the model's family comes back from its row; a part-turning RoPE keeps its width") {
  const Trace t = sample_trace(RecordLevel::Off);
  Trace s = t;
  REQUIRE(set_family(s.config, "stablelm"));  // LayerNorm, NeoX RoPE on a quarter of each head
  s.config.rope_dims = 2;
  const std::string text = trace_to_json(s);
  CHECK(text.find("\"rope_dims\"") != std::string::npos);
  CHECK(trace_to_json(t).find("\"rope_dims\"") == std::string::npos);  // whole heads: not written
  Result<Trace> back = parse_trace_json(text);
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  CHECK(back->config.norm == NormKind::Layer);
  CHECK(back->config.mlp == MlpKind::SwiGlu);
  CHECK(back->config.rope_dims == 2);
  CHECK(trace_to_json(back.value()) == text);
  // A family this build does not run is refused by its field.
  std::string other = text;
  const size_t at = other.find("\"stablelm\"");
  REQUIRE(at != std::string::npos);
  other.replace(at, 10, "\"mamba\"");
  Result<Trace> refused = parse_trace_json(other);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("architecture") != std::string::npos);
}
