// The training loop: per step, each thread computes the gradient of its slice of the batch;
// the slices' gradients are averaged, clipped, and applied with AdamW.
#include "train/train_loop.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "train/dataset.h"
#include "train/model_grad.h"

namespace ts {

TrainState init_train_state(const TrainConfig& cfg) {
  TrainState s;
  s.layout = make_param_layout(cfg.model);
  init_params(s.layout, cfg.seed, s.params);
  return s;
}

namespace {

// Rows [first, first+count) of a (batch*seq_len) token batch, as sequences.
std::span<const int> rows(const std::vector<int>& v, int first, int count, int seq_len) {
  return std::span<const int>(v).subspan(static_cast<size_t>(first) * seq_len,
                                         static_cast<size_t>(count) * seq_len);
}

// Splits `batch` sequences over n workers: worker w gets [starts[w], starts[w+1]).
std::vector<int> split(int batch, int n) {
  std::vector<int> starts(static_cast<size_t>(n) + 1);
  for (int w = 0; w <= n; ++w) starts[static_cast<size_t>(w)] = batch * w / n;
  return starts;
}

}  // namespace

double evaluate(const TrainConfig& cfg, const TrainState& state, std::span<const int> val) {
  const int windows = validation_windows(val, cfg.seq_len, cfg.eval_windows);
  if (windows == 0) return std::numeric_limits<double>::quiet_NaN();
  const int n = std::max(1, std::min(cfg.n_threads, windows));
  const std::vector<int> starts = split(windows, n);
  std::vector<double> loss_sum(static_cast<size_t>(n), 0.0), count(static_cast<size_t>(n), 0.0);
  auto work = [&](int w) {
    Workspace<float> ws;
    std::vector<int> tokens, targets;
    for (int i = starts[static_cast<size_t>(w)]; i < starts[static_cast<size_t>(w) + 1]; ++i) {
      validation_batch(val, cfg.seq_len, i, 1, tokens, targets);
      const double c = static_cast<double>(std::count_if(targets.begin(), targets.end(), [](int t) { return t >= 0; }));
      const double l = model_forward_backward<float>(state.layout, state.params.data(), nullptr,
                                                     tokens, targets, 1, cfg.seq_len, ws);
      loss_sum[static_cast<size_t>(w)] += l * c;
      count[static_cast<size_t>(w)] += c;
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < n; ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  double ls = 0, cs = 0;
  for (int w = 0; w < n; ++w) ls += loss_sum[static_cast<size_t>(w)], cs += count[static_cast<size_t>(w)];
  return cs > 0 ? ls / cs : std::numeric_limits<double>::quiet_NaN();
}

bool train(const TrainConfig& cfg_in, std::span<const int> train_tokens,
           std::span<const int> val_tokens, TrainState& state, const TrainHooks& hooks) {
  TrainConfig cfg = cfg_in;
  cfg.lr.total_steps = cfg.steps;
  const int n = std::max(1, std::min(cfg.n_threads, cfg.batch));
  const std::vector<int> starts = split(cfg.batch, n);
  std::vector<Workspace<float>> ws(static_cast<size_t>(n));
  std::vector<std::vector<float>> grads(static_cast<size_t>(n));  // (n) x (layout.total)
  std::vector<double> losses(static_cast<size_t>(n));
  std::vector<int> tokens, targets;  // (batch*seq_len)
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto last_ckpt = t0;
  auto last_tick = t0;
  const long first_step = state.step;
  double ema = state.last_train_loss;
  const double tokens_per_step = static_cast<double>(cfg.batch) * cfg.seq_len;

  while (state.step < cfg.steps) {
    sample_batch(train_tokens, cfg.batch, cfg.seq_len, cfg.seed, state.step, tokens, targets);
    auto work = [&](int w) {
      const size_t wi = static_cast<size_t>(w);
      grads[wi].assign(state.layout.total, 0.0f);
      const int b0 = starts[wi], nb = starts[wi + 1] - b0;
      losses[wi] = model_forward_backward<float>(state.layout, state.params.data(), grads[wi].data(),
                                                 rows(tokens, b0, nb, cfg.seq_len),
                                                 rows(targets, b0, nb, cfg.seq_len), nb,
                                                 cfg.seq_len, ws[wi]);
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < n; ++w) pool.emplace_back(work, w);
    work(0);
    for (std::thread& t : pool) t.join();
    // Each slice's gradient is of its own mean loss: weight by its share of the batch.
    double loss = 0;
    std::vector<float>& g = grads[0];
    const float w0 = static_cast<float>(starts[1] - starts[0]) / static_cast<float>(cfg.batch);
    for (float& x : g) x *= w0;
    loss += losses[0] * w0;
    for (int w = 1; w < n; ++w) {
      const float ww = static_cast<float>(starts[static_cast<size_t>(w) + 1] - starts[static_cast<size_t>(w)]) /
                       static_cast<float>(cfg.batch);
      const std::vector<float>& gw = grads[static_cast<size_t>(w)];
      for (size_t i = 0; i < g.size(); ++i) g[i] += ww * gw[i];
      loss += losses[static_cast<size_t>(w)] * ww;
    }
    const double gnorm = clip_grad_norm(g, cfg.clip);
    const double lr = lr_at(cfg.lr, state.step);
    adamw_step(state.layout, cfg.adamw, lr, state.params, g, state.adam);
    state.step += 1;
    state.tokens_seen += tokens_per_step;
    const auto now = Clock::now();
    state.seconds += std::chrono::duration<double>(now - last_tick).count();
    last_tick = now;
    ema = (state.step == 1 || ema == 0) ? loss : 0.95 * ema + 0.05 * loss;
    state.last_train_loss = ema;

    TrainProgress p{};
    p.step = state.step;
    p.total_steps = cfg.steps;
    p.train_loss = ema;
    p.val_loss = state.last_val_loss;
    p.lr = lr;
    p.grad_norm = gnorm;
    const double elapsed = std::chrono::duration<double>(now - t0).count();
    const double done = static_cast<double>(state.step - first_step);
    p.tokens_per_s = elapsed > 0 ? done * tokens_per_step / elapsed : 0;
    p.eta_s = done > 0 ? elapsed / done * static_cast<double>(cfg.steps - state.step) : 0;
    p.evaluated = false;
    if (state.step % cfg.eval_every == 0 || state.step == cfg.steps) {
      state.last_val_loss = evaluate(cfg, state, val_tokens);
      p.val_loss = state.last_val_loss;
      p.evaluated = true;
    }
    if (hooks.on_progress) hooks.on_progress(p);
    const bool stopping = hooks.stop && hooks.stop->load();
    if (hooks.on_checkpoint && !stopping && state.step < cfg.steps &&
        std::chrono::duration<double>(now - last_ckpt).count() >= cfg.checkpoint_every_s) {
      hooks.on_checkpoint(state);
      last_ckpt = Clock::now();
    }
    if (stopping) return false;
  }
  return true;
}

}  // namespace ts
