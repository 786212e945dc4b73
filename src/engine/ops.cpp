// Element-wise and per-vector operations (see ops.h). The forward pass and the reference share
// them. Reductions that a long prefill does millions of times (RMSNorm's sum of squares, softmax)
// run on SIMD packets from the start of the vector in a fixed order, so their bits never depend
// on the buffer's alignment; LayerNorm's sums stay in double.
#include "engine/ops.h"

#include <algorithm>

#include "base/tensor.h"  // Eigen, with GCC 12's false AVX-512 warnings silenced

namespace ts {

namespace {

namespace ei = Eigen::internal;
using OpsPacket = ei::packet_traits<float>::type;
constexpr int kOpsLanes = ei::packet_traits<float>::size;

// x[i] = f(x[i]) packet by packet with unaligned loads, the last partial packet through a padded
// copy: every element goes through the same packet code, so a result depends only on the element
// (not on the buffer's alignment, as Eigen's own loops would after peeling a scalar head).
template <class F>
void apply_packets(float* x, int n, F f) {
  int i = 0;
  for (; i + kOpsLanes <= n; i += kOpsLanes) ei::pstoreu(x + i, f(ei::ploadu<OpsPacket>(x + i), i));
  if (i < n) {
    alignas(64) float pad[kOpsLanes] = {};
    std::copy(x + i, x + n, pad);
    ei::pstoreu(pad, f(ei::ploadu<OpsPacket>(pad), i));
    std::copy(pad, pad + (n - i), x + i);
  }
}

// Σ x[i]², packet lanes from the start in a fixed order, then the tail: the same bits wherever
// the vector sits in memory.
float sum_squares(const float* x, int n) {
  OpsPacket acc = ei::pset1<OpsPacket>(0.0f);
  int i = 0;
  for (; i + kOpsLanes <= n; i += kOpsLanes) {
    const OpsPacket v = ei::ploadu<OpsPacket>(x + i);
    acc = ei::pmadd(v, v, acc);
  }
  float s = ei::predux(acc);
  for (; i < n; ++i) s += x[i] * x[i];
  return s;
}

}  // namespace

void rmsnorm(std::span<const float> x, std::span<const float> gain, float eps,
             std::span<float> out) {
  const int n = static_cast<int>(x.size());
  const double ss = sum_squares(x.data(), n);
  const float scale = static_cast<float>(1.0 / std::sqrt(ss / n + eps));
  using A = Eigen::Map<const Eigen::ArrayXf>;  // element-wise: the same bits at any alignment
  Eigen::Map<Eigen::ArrayXf>(out.data(), n) = A(x.data(), n) * scale * A(gain.data(), n);
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

void norm_by_kind(NormKind kind, std::span<const float> x, std::span<const float> gain,
                  std::span<const float> bias, float eps, std::span<float> out) {
  if (kind == NormKind::Layer) {
    layernorm(x, gain, bias, eps, out);
  } else {
    rmsnorm(x, gain, eps, out);
  }
}

void rope_angles(int pos, int n_rot, float theta, std::span<float> cos_out,
                 std::span<float> sin_out) {
  for (int i = 0; i < n_rot / 2; ++i) {
    const double freq = std::pow(static_cast<double>(theta), -2.0 * i / n_rot);
    const double angle = pos * freq;
    cos_out[i] = static_cast<float>(std::cos(angle));
    sin_out[i] = static_cast<float>(std::sin(angle));
  }
}

void rope_adjacent(std::span<float> v, int head_dim, int n_rot, std::span<const float> cos,
                   std::span<const float> sin) {
  for (size_t h = 0; h + head_dim <= v.size(); h += head_dim) {
    float* head = v.data() + h;
    for (int i = 0; i < n_rot / 2; ++i) {
      const float a = head[2 * i], b = head[2 * i + 1];
      head[2 * i] = a * cos[i] - b * sin[i];
      head[2 * i + 1] = a * sin[i] + b * cos[i];
    }
  }
}

void rope_neox(std::span<float> v, int head_dim, int n_rot, std::span<const float> cos,
               std::span<const float> sin) {
  const int half = n_rot / 2;
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
  const int n = static_cast<int>(x.size());
  OpsPacket pm = ei::pset1<OpsPacket>(x[0]);
  int j = 0;
  for (; j + kOpsLanes <= n; j += kOpsLanes) pm = ei::pmax(pm, ei::ploadu<OpsPacket>(x.data() + j));
  float mx = ei::predux_max(pm);  // max is exact: any order gives the same value
  for (; j < n; ++j) mx = std::max(mx, x[j]);
  const OpsPacket pmx = ei::pset1<OpsPacket>(mx);
  apply_packets(x.data(), n, [&](OpsPacket p, int) { return ei::pexp(ei::psub(p, pmx)); });
  // The sum: packet lanes in a fixed order, then the tail (positive terms, so float is enough).
  OpsPacket acc = ei::pset1<OpsPacket>(0.0f);
  int i = 0;
  for (; i + kOpsLanes <= n; i += kOpsLanes) acc = ei::padd(acc, ei::ploadu<OpsPacket>(x.data() + i));
  double sum = ei::predux(acc);
  for (; i < n; ++i) sum += x[i];
  const OpsPacket inv = ei::pset1<OpsPacket>(static_cast<float>(1.0 / sum));
  apply_packets(x.data(), n, [&](OpsPacket p, int) { return ei::pmul(p, inv); });
}

void silu_mul(std::span<float> g, std::span<const float> u) {
  const OpsPacket one = ei::pset1<OpsPacket>(1.0f);
  apply_packets(g.data(), static_cast<int>(g.size()), [&](OpsPacket a, int i) {
    OpsPacket ui;
    if (i + kOpsLanes <= static_cast<int>(u.size())) {
      ui = ei::ploadu<OpsPacket>(u.data() + i);
    } else {  // the padded last packet
      alignas(64) float ub[kOpsLanes] = {};
      std::copy(u.begin() + i, u.end(), ub);
      ui = ei::pload<OpsPacket>(ub);
    }
    const OpsPacket e = ei::pexp(ei::pnegate(a));
    return ei::pmul(ei::pdiv(a, ei::padd(one, e)), ui);
  });
}

}  // namespace ts
