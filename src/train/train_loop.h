// The training loop: data-parallel forward/backward on n_threads threads (each thread a slice
// of the batch with its own activations and gradient buffer, summed after), global-norm
// clipping, AdamW with the warm-up + cosine schedule, periodic validation, periodic checkpoints
// through a callback, and a stop flag (Ctrl-C). Reports progress through a callback; never
// prints.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "train/adamw.h"
#include "train/params.h"

namespace ts {

struct TrainConfig {
  ModelConfig model;
  int batch = 16;       // sequences per step (split across threads)
  int seq_len = 256;    // tokens per sequence (<= model.n_ctx)
  long steps = 1000;    // total optimizer steps
  LrSchedule lr;        // lr.total_steps is set from steps
  AdamWConfig adamw;
  double clip = 1.0;    // global gradient-norm limit
  uint64_t seed = 1234;
  int n_threads = 2;
  int eval_every = 250;      // steps between validation passes (and at the end)
  int eval_windows = 16;     // validation windows of seq_len tokens
  double checkpoint_every_s = 240;  // seconds between checkpoints
};

struct TrainState {
  ParamLayout layout;
  std::vector<float> params;  // (layout.total)
  AdamState adam;
  long step = 0;              // optimizer steps done
  double tokens_seen = 0;
  double seconds = 0;         // training wall time so far (across resumes)
  double last_train_loss = 0;
  double last_val_loss = std::numeric_limits<double>::quiet_NaN();  // NaN until evaluated
};

// A fresh state: layout for cfg.model, parameters initialised from cfg.seed.
TrainState init_train_state(const TrainConfig& cfg);

// One step's progress, for the trainer's progress line (not session.h's Progress).
struct TrainProgress {
  long step, total_steps;
  double train_loss;      // smoothed (EMA) training loss
  double val_loss;        // latest validation loss (NaN before the first)
  double lr, grad_norm;
  double tokens_per_s;    // measured since this run started
  double eta_s;
  bool evaluated;         // val_loss was computed at this step
};

struct TrainHooks {
  std::function<void(const TrainProgress&)> on_progress;  // every step
  std::function<void(const TrainState&)> on_checkpoint;    // every checkpoint_every_s
  const std::atomic<bool>* stop = nullptr;                 // set -> return after this step
};

// Runs from state.step to cfg.steps (or until *hooks.stop). Returns true if it reached the end.
bool train(const TrainConfig& cfg, std::span<const int> train_tokens,
           std::span<const int> val_tokens, TrainState& state, const TrainHooks& hooks);

// Mean validation loss over the first cfg.eval_windows windows of val_tokens.
double evaluate(const TrainConfig& cfg, const TrainState& state, std::span<const int> val_tokens);

}  // namespace ts
