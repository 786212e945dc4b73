// Q4_K: super-blocks of 256 values in 144 bytes: fp16 d, fp16 dmin, 12 bytes of packed 6-bit
// (scale, min) pairs for the 8 sub-blocks of 32 (quant_k_scales.h), then 128 bytes of 4-bit
// levels. The levels come in 4 runs of 32 bytes; run r holds sub-block 2r in the low nibbles and
// sub-block 2r + 1 in the high nibbles, value l of each in byte l. Value = d*scale*q - dmin*min.
#include <cstring>

#include "base/f16.h"
#include "formats/quant.h"
#include "formats/quant_k_scales.h"

namespace ts {

namespace {

constexpr size_t kQ4KLevels = 4;  // offset of the packed scales: after d and dmin

}  // namespace

std::vector<uint8_t> quantize_q4_k(std::span<const float> x) {
  const size_t nb = x.size() / kQK;
  std::vector<uint8_t> out(nb * kQ4_KBytes, 0);
  for (size_t b = 0; b < nb; ++b) {
    const KAffineFit fit = kquant_fit_affine(x.data() + b * kQK, 15);
    uint8_t* blk = out.data() + b * kQ4_KBytes;
    std::memcpy(blk, &fit.d, 2);
    std::memcpy(blk + 2, &fit.dmin, 2);
    std::memcpy(blk + kQ4KLevels, fit.packed, kKScaleBytes);
    uint8_t* qs = blk + kQ4KLevels + kKScaleBytes;  // (128)
    for (size_t i = 0; i < kQK; ++i) {
      const size_t run = i / 64, high = (i / 32) % 2, l = i % 32;
      qs[run * 32 + l] |= static_cast<uint8_t>(fit.level[i] << (4 * high));
    }
  }
  return out;
}

void dequantize_q4_k(const uint8_t* blocks, size_t n, float* out) {
  for (size_t b = 0; b < n / kQK; ++b) {
    const uint8_t* blk = blocks + b * kQ4_KBytes;
    uint16_t dh, mh;
    std::memcpy(&dh, blk, 2);
    std::memcpy(&mh, blk + 2, 2);
    const float d = f16_to_f32(dh), dmin = f16_to_f32(mh);
    const uint8_t* packed = blk + kQ4KLevels;
    const uint8_t* qs = packed + kKScaleBytes;
    float* y = out + b * kQK;
    for (int j = 0; j < 8; ++j) {  // sub-block j: values 32j .. 32j + 31
      int sc, mn;
      kscale_unpack(packed, j, sc, mn);
      const float s = d * static_cast<float>(sc), m = dmin * static_cast<float>(mn);
      const uint8_t* run = qs + (j / 2) * 32;
      const int shift = 4 * (j % 2);
      for (size_t l = 0; l < kKSub; ++l) {
        y[j * kKSub + l] = s * static_cast<float>((run[l] >> shift) & 15) - m;
      }
    }
  }
}

}  // namespace ts
