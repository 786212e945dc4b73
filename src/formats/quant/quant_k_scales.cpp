// The 6-bit scale/min packing of Q4_K and Q5_K, and their reference fit.
//
// Packing (12 bytes s[0..11], pairs (sc_j, m_j) for j = 0..7):
//   j < 4:  sc_j = s[j] & 63, m_j = s[j + 4] & 63
//   j >= 4: sc_j = (s[j + 4] & 15) | (s[j - 4] >> 6) << 4
//           m_j  = (s[j + 4] >> 4) | (s[j] >> 6) << 4
// i.e. bytes 0..3 carry the first four scales plus the top bits of the last four scales, bytes
// 4..7 the same for mins, bytes 8..11 the low nibbles of the last four scale/min pairs.
//
// Fit: per sub-block, the offset is -min(0, smallest value) and the step covers the range up to
// the largest value in max_level levels; d and dmin are the largest step and offset over 63
// (then rounded to fp16), and each 6-bit integer is rounded *up* so that the stored step and
// offset still cover the sub-block's range (no value is clipped; each one is off by at most
// half a stored step). Levels are then rounded to nearest against the stored numbers.
#include "formats/quant/quant_k_scales.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/f16.h"
#include "engine/quant/quant_blocks.h"

namespace ts {

void kscale_unpack(const uint8_t* packed, int j, int& scale, int& min) {
  k_scale_min(packed, j, scale, min);
}

void kscale_pack(const int* scales, const int* mins, uint8_t* packed) {
  for (int j = 0; j < 4; ++j) {
    const int hi_s = scales[j + 4], hi_m = mins[j + 4];
    packed[j] = static_cast<uint8_t>((scales[j] & 63) | ((hi_s >> 4) << 6));
    packed[j + 4] = static_cast<uint8_t>((mins[j] & 63) | ((hi_m >> 4) << 6));
    packed[j + 8] = static_cast<uint8_t>((hi_s & 15) | ((hi_m & 15) << 4));
  }
}

namespace {

// The smallest integer k in 0..63 with k * unit >= need (a hair of slack for fp16 rounding).
int kscale_ceil6(float need, float unit) {
  if (unit <= 0.0f || need <= 0.0f) return 0;
  return std::clamp(static_cast<int>(std::ceil(need / unit - 1e-4f)), 0, 63);
}

}  // namespace

KAffineFit kquant_fit_affine(const float* x, int max_level) {
  KAffineFit fit;
  constexpr int kSubs = 8;
  float offset[kSubs], top[kSubs];
  float max_offset = 0.0f;
  for (int j = 0; j < kSubs; ++j) {
    const float* v = x + j * kKSub;
    float lo = 0.0f, hi = v[0];
    for (size_t i = 0; i < kKSub; ++i) {
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    }
    offset[j] = -lo;  // >= 0
    top[j] = hi;
    max_offset = std::max(max_offset, offset[j]);
  }
  fit.dmin = f32_to_f16(max_offset / 63.0f);
  const float dmin = f16_to_f32(fit.dmin);
  int mins[kSubs], scales[kSubs];
  float step[kSubs];
  float max_step = 0.0f;
  for (int j = 0; j < kSubs; ++j) {
    mins[j] = kscale_ceil6(offset[j], dmin);
    const float stored_offset = dmin * static_cast<float>(mins[j]);
    step[j] = std::max(0.0f, top[j] + stored_offset) / static_cast<float>(max_level);
    max_step = std::max(max_step, step[j]);
  }
  fit.d = f32_to_f16(max_step / 63.0f);
  const float d = f16_to_f32(fit.d);
  for (int j = 0; j < kSubs; ++j) {
    scales[j] = kscale_ceil6(step[j], d);
    const float s = d * static_cast<float>(scales[j]);
    const float m = dmin * static_cast<float>(mins[j]);
    for (size_t i = 0; i < kKSub; ++i) {
      const float q = s > 0.0f ? std::round((x[j * kKSub + i] + m) / s) : 0.0f;
      fit.level[j * kKSub + i] =
          static_cast<uint8_t>(std::clamp(q, 0.0f, static_cast<float>(max_level)));
    }
  }
  kscale_pack(scales, mins, fit.packed);
  return fit;
}

void put_k_affine_header(uint8_t* block, const KAffineFit& fit) {
  std::memcpy(block, &fit.d, 2);
  std::memcpy(block + 2, &fit.dmin, 2);
  std::memcpy(block + 4, fit.packed, kKScaleBytes);
}

}  // namespace ts
