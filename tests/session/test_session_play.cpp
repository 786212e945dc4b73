// Play / tick pacing, "step into" phases, "sample this step n times", and the default model
// lookup.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "session/check.h"
#include "session/default_model.h"
#include "session/histogram.h"
#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"
#include "session/tiny_model.h"

using namespace ts;
using namespace ts::test;

namespace {

Session play_session(float temperature = 1.0f) {
  Session s;
  REQUIRE(s.set_model(tiny_model(64, 9)).ok());
  REQUIRE(s.set_prompt("lo").ok());
  SamplerSettings t;
  stage<Temperature>(t).t = temperature;
  t.seed = 21;
  REQUIRE(s.set_sampler(0, t).ok());
  return s;
}

}  // namespace

TEST_CASE("play advances one step per 1/rate seconds of tick time and stops by itself") {
  Session s = play_session();
  REQUIRE(set_max_tokens(s, 8).ok());
  CHECK(s.tick(1.0) == 0);  // not playing
  CHECK(s.play(10.0).ok());
  CHECK(is_playing(s));
  CHECK(s.tick(0.25) == 2);  // 2.5 steps due
  CHECK(s.cursor() == 1);
  CHECK(s.tick(0.25) == 3);  // 0.5 + 2.5
  CHECK(s.cursor() == 4);
  CHECK(pause(s).ok());
  CHECK_FALSE(is_playing(s));
  CHECK(s.tick(1.0) == 0);
  CHECK(s.cursor() == 4);
  CHECK(s.play(4.0).ok());
  CHECK(s.tick(10.0) == 3);  // only 3 steps left before max tokens
  CHECK_FALSE(is_playing(s));
  CHECK(stop_reason(s, 0) == StopReason::MaxTokens);
  CHECK_FALSE(s.play(4.0).ok());  // nothing left to play
  CHECK_FALSE(is_playing(s));
  CHECK_FALSE(s.play(-1.0).ok());
  CHECK_FALSE(is_playing(s));
  CHECK_FALSE(s.last_error().empty());
  // Playing from a rewound cursor replays the recorded steps.
  REQUIRE(s.seek(1).ok());
  const std::vector<int> ids = path_ids(s, 0);
  CHECK(s.play(2.0).ok());
  CHECK(s.tick(1.0) == 2);
  CHECK(s.cursor() == 3);
  CHECK(path_ids(s, 0) == ids);
}

TEST_CASE("step into walks embed, layers, final norm, logits, stages, draw, append") {
  Session s = play_session();
  const int n_layers = config(s).n_layers;
  // Only the stages that are on get a phase (here temperature; top-k, top-p, min-p and the
  // penalties are off), so every press shows something new.
  const int n_stages = 1;
  const std::vector<PhaseItem> before = phases(s);
  CHECK(static_cast<int>(before.size()) == 1 + 2 * n_layers + 2 + n_stages + 2);

  REQUIRE(step_into(s).ok());  // computes the prefill and shows its first phase
  CHECK(s.cursor() == 0);
  CHECK(s.phase_cursor() == 0);
  const std::vector<PhaseItem> ph = phases(s);
  REQUIRE(ph.size() == before.size());
  CHECK(ph[0].kind == PhaseKind::Embed);
  CHECK(ph[1].kind == PhaseKind::Attention);
  CHECK(ph[1].layer == 0);
  CHECK(ph[2].kind == PhaseKind::Mlp);
  CHECK(ph[2 * n_layers].layer == n_layers - 1);
  CHECK(ph[2 * n_layers + 1].kind == PhaseKind::FinalNorm);
  CHECK(ph[2 * n_layers + 2].kind == PhaseKind::Logits);
  CHECK(ph[2 * n_layers + 3].kind == PhaseKind::SamplerStage);
  const int chain_index = ph[2 * n_layers + 3].stage;  // temperature, last in the default chain
  REQUIRE(chain_index >= 0);
  CHECK(current_step(s)->sampling.stages[chain_index].kind == StageKind::Temperature);
  for (const PhaseItem& p : ph)
    if (p.kind == PhaseKind::SamplerStage)
      CHECK_FALSE(stage_is_off(current_step(s)->sampling.stages[p.stage]));
  CHECK(ph[ph.size() - 2].kind == PhaseKind::Draw);
  CHECK(ph.back().kind == PhaseKind::Append);
  CHECK(ph.back().label.find(current_step(s)->display) != std::string::npos);

  for (size_t i = 1; i < ph.size(); ++i) {
    REQUIRE(step_into(s).ok());
    CHECK(s.phase_cursor() == static_cast<int>(i));
    CHECK(s.cursor() == 0);
  }
  REQUIRE(step_into(s).ok());  // past append: the next iteration
  CHECK(s.cursor() == 1);
  CHECK(s.phase_cursor() == 0);
  CHECK(phase_reset(s).ok());
  CHECK(s.phase_cursor() == 0);
  REQUIRE(s.set_phase(3).ok());
  CHECK(s.phase_cursor() == 3);
  CHECK_FALSE(s.set_phase(static_cast<int>(ph.size())).ok());
  REQUIRE(s.step().ok());
  CHECK(s.phase_cursor() == static_cast<int>(ph.size()) - 1);  // a plain step shows it all
}

TEST_CASE("histogram samples the step's final distribution on a side stream") {
  Session s = play_session(1.0f);
  REQUIRE(s.run_to(2).ok());
  const std::vector<int> ids = path_ids(s, 0);
  CHECK_FALSE(histogram(s, 0).ok());
  Result<Histogram> h = histogram(s, 4000);
  REQUIRE(h.ok());
  CHECK(h->step == 2);
  int total = 0;
  for (size_t i = 0; i < h->ids.size(); ++i) {
    total += h->counts[i];
    if (i) CHECK(h->counts[i] <= h->counts[i - 1]);
    // Each frequency within 6 standard deviations of its probability.
    const double p = h->p[i];
    const double sd = std::sqrt(4000.0 * p * (1 - p)) + 1.0;
    CHECK(std::abs(h->counts[i] - 4000.0 * p) <= 6 * sd);
  }
  CHECK(total == 4000);
  CHECK(h->ids.size() > 1);
  // Deterministic, and the generation is untouched.
  Result<Histogram> again = histogram(s, 4000);
  REQUIRE(again.ok());
  CHECK(again->ids == h->ids);
  CHECK(again->counts == h->counts);
  CHECK(path_ids(s, 0) == ids);

  Session g = play_session(0.0f);
  REQUIRE(g.run_to(1).ok());
  Result<Histogram> gh = histogram(g, 500);
  REQUIRE(gh.ok());
  REQUIRE(gh->ids.size() == 1);
  CHECK(gh->ids[0] == current_step(g)->token);
  CHECK(gh->counts[0] == 500);
}

TEST_CASE("default model lookup searches the documented places and says where it looked") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "ts_default_model_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "models");
  const std::string none = (dir / "nowhere").string();
  Result<std::string> missing = find_default_model(none, (dir / "bin" / "tokenscope").string());
  if (!missing.ok()) {
    CHECK(missing.error().message.find("tales-4m.gguf") != std::string::npos);
    CHECK(missing.error().message.find(none) != std::string::npos);
  }
  { std::ofstream(dir / "models" / "tales-4m.gguf") << "x"; }
  Result<std::string> found = find_default_model(dir.string(), "");
  const std::vector<std::string> c = default_model_candidates(dir.string(), "");
  REQUIRE(found.ok());
  CHECK(std::find(c.begin(), c.end(), found.value()) != c.end());
  // An executable in dir/bin finds dir/models (the executable's parent).
  Result<std::string> by_exe = find_default_model("", (dir / "bin" / "tokenscope").string());
  REQUIRE(by_exe.ok());
  fs::remove_all(dir);
}
