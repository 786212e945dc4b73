// The trainer's output is what the engine runs: a trained tiny model written as GGUF, read back
// with load_model_file, gives the same logits in the engine's reference forward as in the
// trainer's own forward, and its tokenizer survives the trip.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine/forward.h"
#include "formats/model_file.h"
#include "tokenizer/bpe_trainer.h"
#include "train/model_grad.h"
#include "train/story_gen.h"
#include "train/train_loop.h"

using namespace ts;

TEST_CASE("a trained model exported as GGUF runs in the engine with the trainer's logits") {
  const std::string text = generate_stories(11, 0, 40, "<|endoftext|>");
  auto tokd = train_bpe(text, 300);
  REQUIRE(tokd.ok());
  auto tok = Tokenizer::create(tokd.value());
  REQUIRE(tok.ok());
  const std::vector<int> stream = tok->encode(text, false);

  TrainConfig cfg;
  cfg.model.n_layers = 2;
  cfg.model.n_heads = 2;
  cfg.model.n_kv_heads = 2;
  cfg.model.d_model = 16;
  cfg.model.d_ff = 24;
  cfg.model.vocab_size = tok->vocab_size();
  cfg.model.n_ctx = 32;
  cfg.model.name = "export-test";
  cfg.batch = 2;
  cfg.seq_len = 32;
  cfg.steps = 20;
  cfg.eval_every = 1000;
  TrainState st = init_train_state(cfg);
  REQUIRE(train(cfg, stream, stream, st, {}));

  const std::string path = "test_train_export.gguf";
  const Model m = to_model(st.layout, st.params);
  REQUIRE(save_gguf_model(path, m, tokd.value(), {{"general.description", "test"}}).ok());
  auto loaded = load_model_file(path);
  REQUIRE(loaded.ok());
  std::remove(path.c_str());
  const Model& lm = loaded->model;
  CHECK(lm.config.n_layers == 2);
  CHECK(lm.config.d_ff == 24);
  CHECK(lm.config.n_ctx == 32);
  CHECK(lm.weights.output.size() == 0);  // tied
  CHECK(loaded->tokenizer.tokens == tokd->tokens);
  CHECK(loaded->tokenizer.merges == tokd->merges);
  CHECK(loaded->tokenizer.eos_id == tokd->eos_id);

  const std::vector<int> ids(stream.begin(), stream.begin() + 20);  // (20)
  const Mat engine = reference_forward(lm, ids);                   // (20, vocab_size)
  Workspace<float> ws;
  const std::vector<int> no_targets(ids.size(), -1);
  model_forward_backward<float>(st.layout, st.params.data(), nullptr, ids, no_targets, 1,
                                static_cast<int>(ids.size()), ws);
  REQUIRE(engine.rows() == ws.logits.rows());
  REQUIRE(engine.cols() == ws.logits.cols());
  const float diff = (engine - ws.logits).cwiseAbs().maxCoeff();
  MESSAGE("max |engine - trainer| logit difference " << diff);
  CHECK(diff < 1e-3f);
  CHECK(ws.logits.cwiseAbs().maxCoeff() > 0.01f);  // the comparison is not between zeros
}
