// End-to-end training on a tiny corpus: the loss must fall by a clear margin in a few hundred
// steps; AdamW, clipping and the schedule by hand; checkpoints round-trip and resuming gives the
// same parameters as training straight through.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "train/adamw.h"
#include "train/checkpoint.h"
#include "train/train_loop.h"

using namespace ts;

namespace {

// A tiny "language": repeated phrases over a 16-token vocabulary, with a little variety.
std::vector<int> tiny_stream(size_t n, uint64_t seed = 1) {
  const std::vector<std::vector<int>> phrases = {{1, 2, 3, 4}, {5, 6, 7}, {1, 2, 8, 9, 10}, {11, 12, 13, 14, 15}};
  std::vector<int> s;
  uint64_t x = seed;
  while (s.size() < n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    for (int t : phrases[(x >> 33) % phrases.size()]) s.push_back(t);
    s.push_back(0);
  }
  s.resize(n);
  return s;
}

TrainConfig tiny_train_config(long steps) {
  TrainConfig c;
  c.model.n_layers = 1;
  c.model.n_heads = 2;
  c.model.n_kv_heads = 2;
  c.model.d_model = 16;
  c.model.d_ff = 32;
  c.model.vocab_size = 16;
  c.model.n_ctx = 16;
  c.batch = 4;
  c.seq_len = 16;
  c.steps = steps;
  c.lr.max_lr = 1e-2;
  c.lr.min_lr = 1e-3;
  c.lr.warmup_steps = 10;
  c.n_threads = 2;
  c.eval_every = 1000000;
  c.eval_windows = 8;
  return c;
}

}  // namespace

TEST_CASE("a few hundred steps on a tiny corpus lower the loss clearly") {
  const std::vector<int> train_s = tiny_stream(4000), val_s = tiny_stream(600, 99);
  TrainConfig cfg = tiny_train_config(300);
  TrainState st = init_train_state(cfg);
  const double before = evaluate(cfg, st, val_s);
  CHECK(before == doctest::Approx(std::log(16.0)).epsilon(0.05));
  const bool done = train(cfg, train_s, val_s, st, {});
  CHECK(done);
  CHECK(st.step == 300);
  const double after = evaluate(cfg, st, val_s);
  MESSAGE("validation loss " << before << " -> " << after);
  CHECK(after < before - 1.2);
  CHECK(st.tokens_seen == doctest::Approx(300.0 * 4 * 16));
}

TEST_CASE("the stop flag ends training after the current step") {
  const std::vector<int> s = tiny_stream(2000);
  TrainConfig cfg = tiny_train_config(100);
  TrainState st = init_train_state(cfg);
  std::atomic<bool> stop{false};
  TrainHooks hooks;
  hooks.stop = &stop;
  hooks.on_progress = [&](const TrainProgress& p) {
    if (p.step == 7) stop = true;
  };
  CHECK_FALSE(train(cfg, s, s, st, hooks));
  CHECK(st.step == 7);
}

TEST_CASE("checkpoint round-trip, and resume equals training straight through") {
  const std::vector<int> s = tiny_stream(3000);
  TrainConfig cfg = tiny_train_config(40);
  cfg.n_threads = 1;
  TrainState straight = init_train_state(cfg);
  REQUIRE(train(cfg, s, s, straight, {}));

  TrainState first = init_train_state(cfg);
  std::atomic<bool> stop{false};
  TrainHooks hooks;
  hooks.stop = &stop;
  hooks.on_progress = [&](const TrainProgress& p) {
    if (p.step == 15) stop = true;
  };
  REQUIRE_FALSE(train(cfg, s, s, first, hooks));
  Checkpoint ck;
  ck.config = cfg;
  ck.state = first;
  ck.tokenizer.tokens = {"a", "b"};
  ck.tokenizer.merges = {"a b"};
  ck.tokenizer.eos_id = 1;
  ck.info["command"] = "tokenscope train --out x.gguf";
  const std::string path = "test_train_roundtrip.ckpt";
  REQUIRE(save_checkpoint(path, ck).ok());
  auto loaded = load_checkpoint(path);
  REQUIRE(loaded.ok());
  Checkpoint& r = loaded.value();
  CHECK(r.state.step == 15);
  CHECK(r.state.params == first.params);
  CHECK(r.state.adam.m == first.adam.m);
  CHECK(r.state.adam.v == first.adam.v);
  CHECK(r.tokenizer.tokens == ck.tokenizer.tokens);
  CHECK(r.tokenizer.eos_id == 1);
  CHECK(r.info.at("command") == ck.info.at("command"));
  CHECK(r.config.model.d_ff == 32);
  CHECK(r.config.lr.max_lr == cfg.lr.max_lr);
  CHECK(r.config.n_threads == 2);  // not stored: the resuming machine decides
  r.config.n_threads = 1;           // same split as the straight run, so the same bits
  REQUIRE(train(r.config, s, s, r.state, {}));
  CHECK(r.state.step == 40);
  CHECK(r.state.params == straight.params);  // bit for bit: same batches, same schedule
  std::remove(path.c_str());

  // A truncated file is an error, not a crash.
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite("TSCKPT01\x03", 1, 9, f);
    std::fclose(f);
  }
  CHECK_FALSE(load_checkpoint(path).ok());
  std::remove(path.c_str());
  CHECK_FALSE(load_checkpoint("no_such_file.ckpt").ok());
}

TEST_CASE("learning-rate schedule: warm-up then cosine to the floor") {
  LrSchedule s{1.0, 0.1, 10, 110};
  CHECK(lr_at(s, 0) == doctest::Approx(0.1));
  CHECK(lr_at(s, 9) == doctest::Approx(1.0));
  CHECK(lr_at(s, 10) == doctest::Approx(1.0));
  CHECK(lr_at(s, 60) == doctest::Approx(0.55));  // halfway down the cosine
  CHECK(lr_at(s, 110) == doctest::Approx(0.1));
  CHECK(lr_at(s, 500) == doctest::Approx(0.1));
  CHECK(lr_at(s, 30) > lr_at(s, 31));
}

TEST_CASE("AdamW: first step moves each weight by lr against its gradient's sign; decay only on matrices") {
  ModelConfig c;
  c.n_layers = 1;
  c.n_heads = 1;
  c.n_kv_heads = 1;
  c.d_model = 2;
  c.d_ff = 2;
  c.vocab_size = 3;
  c.n_ctx = 2;
  const ParamLayout L = make_param_layout(c);
  std::vector<float> p(L.total, 1.0f), g(L.total, 0.0f);
  g[0] = 0.5f;   // token_embd: decayed
  g[1] = -2.0f;
  const size_t gain = L.layer(0, ParamLayout::AttnNorm).offset;  // not decayed
  g[gain] = 3.0f;
  AdamState st;
  AdamWConfig cfg;
  cfg.weight_decay = 0.1;
  adamw_step(L, cfg, 0.01, p, g, st);
  CHECK(p[0] == doctest::Approx(1.0 * (1 - 0.001) - 0.01).epsilon(1e-4));
  CHECK(p[1] == doctest::Approx(1.0 * (1 - 0.001) + 0.01).epsilon(1e-4));
  CHECK(p[gain] == doctest::Approx(1.0 - 0.01).epsilon(1e-4));
  CHECK(p[2] == doctest::Approx(1.0 * (1 - 0.001)).epsilon(1e-6));  // zero gradient: decay only
  CHECK(p[gain + 1] == 1.0f);                                       // zero gradient, no decay
  CHECK(st.step == 1);
}

TEST_CASE("gradient clipping scales to the limit and reports the norm before") {
  std::vector<float> g = {3.0f, 4.0f};
  CHECK(clip_grad_norm(g, 1.0) == doctest::Approx(5.0));
  CHECK(g[0] == doctest::Approx(0.6));
  CHECK(g[1] == doctest::Approx(0.8));
  std::vector<float> small = {0.3f, 0.4f};
  clip_grad_norm(small, 1.0);
  CHECK(small[1] == 0.4f);
}
