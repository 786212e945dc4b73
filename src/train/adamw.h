// AdamW (decoupled weight decay) over the flat parameter buffer, global-norm gradient clipping,
// and the learning-rate schedule (linear warm-up, then cosine decay to a floor).
#pragma once
#include <cstddef>
#include <vector>

#include "train/params.h"

namespace ts {

struct AdamWConfig {
  double beta1 = 0.9, beta2 = 0.95, eps = 1e-8;
  double weight_decay = 0.1;  // only tensors with TensorSpec::decay
};

struct AdamState {
  std::vector<float> m, v;  // (layout.total) first and second moments
  long step = 0;            // updates applied so far
};

// One update with learning rate lr; grads are read, not changed.
void adamw_step(const ParamLayout& layout, const AdamWConfig& cfg, double lr,
                std::vector<float>& params, const std::vector<float>& grads, AdamState& state);

// Scales grads so their global L2 norm is at most max_norm; returns the norm BEFORE clipping.
double clip_grad_norm(std::vector<float>& grads, double max_norm);

struct LrSchedule {
  double max_lr = 2e-3, min_lr = 2e-4;
  long warmup_steps = 100, total_steps = 1000;
};
// step counts from 0: warm-up ramps (step+1)/warmup * max_lr; then cosine from max_lr at the end
// of warm-up to min_lr at total_steps; min_lr after that.
double lr_at(const LrSchedule& s, long step);

}  // namespace ts
