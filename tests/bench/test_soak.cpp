// The soak (bench/soak.h) on a tiny in-memory model: a few hundred random commands with every
// invariant checked, resets from a small record budget, replays compared bit for bit; then the
// same on the real llama2.c model from the golden folder, and the soak model lookup.
#include <doctest/doctest.h>

#include "bench/soak.h"
#include "golden.h"
#include "session/path_queries.h"
#include "session/tiny_model.h"

namespace ts {

namespace {

void require_passed(const SoakReport& r) {
  MESSAGE(soak_summary(r));
  for (const std::string& f : r.failures) MESSAGE(f);
  REQUIRE(r.ok());
}

}  // namespace

TEST_CASE("soak: 300 random commands on a tiny model keep every invariant") {
  Session s;
  REQUIRE(s.set_model(test::tiny_model(48)).ok());
  SoakOptions opt;
  opt.iterations = 300;
  opt.seed = 11;
  opt.replay_every = 100;
  opt.record_budget = 256u << 10;  // small: the soak must reset several times
  opt.max_tokens = 24;
  int progress_calls = 0;
  opt.progress_every = 100;
  opt.progress = [&](const SoakReport& r) {
    ++progress_calls;
    CHECK(r.iterations > 0);
  };
  Result<SoakReport> r = run_soak(s, opt);
  REQUIRE(r.ok());
  require_passed(r.value());
  CHECK(r->iterations == 300);
  for (int i = 0; i < kSoakOpCount; ++i) {
    INFO(soak_op_name(static_cast<SoakOp>(i)));
    CHECK(r->ops[i] > 0);
  }
  CHECK(r->replays >= 3 * 3);  // at least 3 rounds over the soak's 3 starting lanes
  CHECK(r->replayed_steps > r->replays);
  CHECK(r->refused > 0);       // some commands are refused on purpose (e.g. back at -1)
  CHECK(r->record_bytes_peak > 0);
  CHECK(r->rss_start > 0);
  CHECK(progress_calls == 2);
  const std::string text = soak_summary(r.value());
  CHECK(text.find("300 commands") != std::string::npos);
  CHECK(text.find("every one held") != std::string::npos);
}

TEST_CASE("soak: the same seed gives the same commands") {
  auto once = [] {
    Session s;
    REQUIRE(s.set_model(test::tiny_model(32, 3)).ok());
    SoakOptions opt;
    opt.iterations = 120;
    opt.seed = 5;
    opt.replay_every = 0;
    Result<SoakReport> r = run_soak(s, opt);
    REQUIRE(r.ok());
    require_passed(r.value());
    return std::make_pair(r->ops, sequence(s, 0, false));
  };
  CHECK(once() == once());
}

TEST_CASE("soak: a session without a model is an error, not a crash") {
  Session s;
  Result<SoakReport> r = run_soak(s, SoakOptions{});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("no model") != std::string::npos);
}

TEST_CASE("soak: 200 commands on the llama2.c model aidreams260K" * doctest::test_suite("golden")) {
  if (!test::have_golden("llama2c/aidreams260K.bin")) return;
  const std::string dir = (test::golden_dir() / "llama2c").string();
  Session s;
  REQUIRE(s.load_model(dir + "/aidreams260K.bin", dir + "/tok512.bin").ok());
  SoakOptions opt;
  opt.iterations = 200;
  opt.replay_every = 100;
  opt.max_tokens = 16;
  Result<SoakReport> r = run_soak(s, opt);
  REQUIRE(r.ok());
  require_passed(r.value());
  CHECK(r->replays > 0);
}

TEST_CASE("soak: model lookup takes the given file, else the default, else the llama2.c one") {
  Result<SoakModel> given = find_soak_model("some.gguf", "tok.bin");
  REQUIRE(given.ok());
  CHECK(given->model == "some.gguf");
  CHECK(given->tokenizer == "tok.bin");
  CHECK(given->note.empty());
  Result<SoakModel> m = find_soak_model("", "", test::source_dir().string());
  if (m.ok()) {
    if (m->note.empty()) {
      CHECK(m->model.find("tales-4m.gguf") != std::string::npos);
    } else {
      CHECK(m->model.find("aidreams260K.bin") != std::string::npos);
      CHECK(m->tokenizer.find("tok512.bin") != std::string::npos);
    }
  } else {
    CHECK(m.error().message.find("tales-4m.gguf") != std::string::npos);
  }
}

}  // namespace ts
