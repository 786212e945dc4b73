// Q6_K: super-blocks of 256 values in 210 bytes: ql (128 bytes of low nibbles), qh (64 bytes of
// high 2-bit pairs), 16 int8 scales (one per 16 values), fp16 d. Level q is 6 bits (0..63) and
// value i = d * scales[i / 16] * (q - 32). The super-block is two halves of 128 values; in half
// h, value 32g + l (g in 0..3, l in 0..31) takes its low 4 bits from ql[64h + l + 32(g % 2)]
// (low nibble for g < 2, high nibble otherwise) and its top 2 bits from bits 2g, 2g + 1 of
// qh[32h + l].
//
// Reference quantiser: per 16 values a step s = amax / 31 (so levels -31..31 suffice); d is the
// largest step over 127 (fp16) and each int8 scale is rounded up so no value is clipped.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/f16.h"
#include "formats/quant/quant.h"
#include "engine/quant/quant_blocks.h"

namespace ts {

namespace {

// Where value i (0..255) of a super-block keeps its bits.
struct Q6Place {
  size_t low_byte;   // index into ql
  int low_shift;     // 0 or 4
  size_t high_byte;  // index into qh
  int high_shift;    // 0, 2, 4 or 6
};

Q6Place q6_place(size_t i) {
  const size_t h = i / 128, g = (i % 128) / 32, l = i % 32;
  return {64 * h + l + 32 * (g % 2), g < 2 ? 0 : 4, 32 * h + l, static_cast<int>(2 * g)};
}

}  // namespace

std::vector<uint8_t> quantize_q6_k(std::span<const float> x) {
  const size_t nb = x.size() / kQK;
  std::vector<uint8_t> out(nb * kQ6_KBytes, 0);
  for (size_t b = 0; b < nb; ++b) {
    const float* v = x.data() + b * kQK;  // (256)
    float step[16];
    float max_step = 0.0f;
    for (size_t g = 0; g < 16; ++g) {
      float amax = 0.0f;
      for (size_t i = 0; i < 16; ++i) amax = std::max(amax, std::fabs(v[16 * g + i]));
      step[g] = amax / 31.0f;
      max_step = std::max(max_step, step[g]);
    }
    const uint16_t dh = f32_to_f16(max_step / 127.0f);
    const float d = f16_to_f32(dh);
    uint8_t* blk = out.data() + b * kQ6_KBytes;
    std::memcpy(blk + kQ6KDAt, &dh, 2);
    for (size_t g = 0; g < 16; ++g) {
      const int sc = d > 0.0f && step[g] > 0.0f
                         ? std::clamp(static_cast<int>(std::ceil(step[g] / d - 1e-4f)), 0, 127)
                         : 0;
      const auto sc8 = static_cast<int8_t>(sc);
      std::memcpy(blk + kQ6KScalesAt + g, &sc8, 1);
      const float s = d * static_cast<float>(sc);
      for (size_t i = 16 * g; i < 16 * g + 16; ++i) {
        const float q = s > 0.0f ? std::clamp(std::round(v[i] / s), -32.0f, 31.0f) : 0.0f;
        const auto level = static_cast<uint8_t>(static_cast<int>(q) + 32);
        const Q6Place p = q6_place(i);
        blk[p.low_byte] |= static_cast<uint8_t>((level & 15) << p.low_shift);
        blk[kQ6KHighAt + p.high_byte] |= static_cast<uint8_t>((level >> 4) << p.high_shift);
      }
    }
  }
  return out;
}

void dequantize_q6_k(const uint8_t* blocks, size_t n, float* out) {
  for (size_t b = 0; b < n / kQK; ++b) decode_q6_k_block(blocks + b * kQ6_KBytes, out + b * kQK);
}

}  // namespace ts
