// AdamW update, gradient clipping and the warm-up + cosine schedule.
#include "train/adamw.h"

#include <cmath>
#include <algorithm>
#include <numbers>

namespace ts {

void adamw_step(const ParamLayout& layout, const AdamWConfig& cfg, double lr,
                std::vector<float>& params, const std::vector<float>& grads, AdamState& state) {
  if (state.m.size() != params.size()) {
    state.m.assign(params.size(), 0.0f);
    state.v.assign(params.size(), 0.0f);
  }
  state.step += 1;
  const double bc1 = 1.0 - std::pow(cfg.beta1, static_cast<double>(state.step));
  const double bc2 = 1.0 - std::pow(cfg.beta2, static_cast<double>(state.step));
  const float b1 = static_cast<float>(cfg.beta1), b2 = static_cast<float>(cfg.beta2);
  const float step_size = static_cast<float>(lr / bc1);
  const float inv_sqrt_bc2 = static_cast<float>(1.0 / std::sqrt(bc2));
  const float eps = static_cast<float>(cfg.eps);
  for (const TensorSpec& s : layout.tensors) {
    const float decay = s.decay ? static_cast<float>(1.0 - lr * cfg.weight_decay) : 1.0f;
    for (size_t i = s.offset; i < s.offset + s.size(); ++i) {
      const float gr = grads[i];
      float& m = state.m[i];
      float& v = state.v[i];
      m = b1 * m + (1.0f - b1) * gr;
      v = b2 * v + (1.0f - b2) * gr * gr;
      params[i] = params[i] * decay - step_size * m / (std::sqrt(v) * inv_sqrt_bc2 + eps);
    }
  }
}

double clip_grad_norm(std::vector<float>& grads, double max_norm) {
  double sq = 0;
  for (float g : grads) sq += static_cast<double>(g) * g;
  const double norm = std::sqrt(sq);
  if (norm > max_norm && norm > 0) {
    const float s = static_cast<float>(max_norm / norm);
    for (float& g : grads) g *= s;
  }
  return norm;
}

double lr_at(const LrSchedule& s, long step) {
  if (step < s.warmup_steps) {
    return s.max_lr * static_cast<double>(step + 1) / static_cast<double>(s.warmup_steps);
  }
  if (step >= s.total_steps) return s.min_lr;
  const double span = static_cast<double>(std::max(1L, s.total_steps - s.warmup_steps));
  const double t = static_cast<double>(step - s.warmup_steps) / span;  // 0 -> 1
  return s.min_lr + 0.5 * (s.max_lr - s.min_lr) * (1.0 + std::cos(std::numbers::pi * t));
}

}  // namespace ts
