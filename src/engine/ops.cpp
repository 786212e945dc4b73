// Element-wise and per-vector operations (see ops.h). Sums are accumulated in double: these
// loops are a tiny part of the cost and the reference must not drift from the fast path.
#include "engine/ops.h"

#include <algorithm>

namespace ts {

void rmsnorm(std::span<const float> x, std::span<const float> gain, float eps,
             std::span<float> out) {
  double ss = 0.0;
  for (float v : x) ss += static_cast<double>(v) * v;
  const float scale = static_cast<float>(1.0 / std::sqrt(ss / x.size() + eps));
  for (size_t i = 0; i < x.size(); ++i) out[i] = x[i] * scale * gain[i];
}

void layernorm(std::span<const float> x, std::span<const float> gain,
               std::span<const float> bias, float eps, std::span<float> out) {
  double sum = 0.0;
  for (float v : x) sum += v;
  const double mean = sum / x.size();
  double var = 0.0;
  for (float v : x) var += (v - mean) * (v - mean);
  var /= x.size();
  const double inv = 1.0 / std::sqrt(var + eps);
  for (size_t i = 0; i < x.size(); ++i) {
    out[i] = static_cast<float>((x[i] - mean) * inv) * gain[i] + bias[i];
  }
}

void rope_angles(int pos, int head_dim, float theta, std::span<float> cos_out,
                 std::span<float> sin_out) {
  for (int i = 0; i < head_dim / 2; ++i) {
    const double freq = std::pow(static_cast<double>(theta), -2.0 * i / head_dim);
    const double angle = pos * freq;
    cos_out[i] = static_cast<float>(std::cos(angle));
    sin_out[i] = static_cast<float>(std::sin(angle));
  }
}

void rope_adjacent(std::span<float> v, int head_dim, std::span<const float> cos,
                   std::span<const float> sin) {
  for (size_t h = 0; h + head_dim <= v.size(); h += head_dim) {
    float* head = v.data() + h;
    for (int i = 0; i < head_dim / 2; ++i) {
      const float a = head[2 * i], b = head[2 * i + 1];
      head[2 * i] = a * cos[i] - b * sin[i];
      head[2 * i + 1] = a * sin[i] + b * cos[i];
    }
  }
}

void rope_neox(std::span<float> v, int head_dim, std::span<const float> cos,
               std::span<const float> sin) {
  const int half = head_dim / 2;
  for (size_t h = 0; h + head_dim <= v.size(); h += head_dim) {
    float* head = v.data() + h;
    for (int i = 0; i < half; ++i) {
      const float a = head[i], b = head[i + half];
      head[i] = a * cos[i] - b * sin[i];
      head[i + half] = a * sin[i] + b * cos[i];
    }
  }
}

void softmax(std::span<float> x) {
  if (x.empty()) return;
  const float mx = *std::max_element(x.begin(), x.end());
  double sum = 0.0;
  for (float& v : x) {
    v = std::exp(v - mx);
    sum += v;
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (float& v : x) v *= inv;
}

}  // namespace ts
