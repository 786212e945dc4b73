// Q4_K: super-blocks of 256 values in 144 bytes: fp16 d, fp16 dmin, 12 bytes of packed 6-bit
// (scale, min) pairs for the 8 sub-blocks of 32 (quant_k_scales.h), then 128 bytes of 4-bit
// levels. The levels come in 4 runs of 32 bytes; run r holds sub-block 2r in the low nibbles and
// sub-block 2r + 1 in the high nibbles, value l of each in byte l. Value = d*scale*q - dmin*min.
#include <cstring>

#include "base/f16.h"
#include "formats/quant/quant.h"
#include "formats/quant/quant_k_scales.h"
#include "engine/quant/quant_blocks.h"

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
    put_k_affine_header(blk, fit);
    uint8_t* qs = blk + kQ4KLevels + kKScaleBytes;  // (128)
    for (size_t i = 0; i < kQK; ++i) {
      const size_t run = i / 64, high = (i / 32) % 2, l = i % 32;
      qs[run * 32 + l] |= static_cast<uint8_t>(fit.level[i] << (4 * high));
    }
  }
  return out;
}

void dequantize_q4_k(const uint8_t* blocks, size_t n, float* out) {
  for (size_t b = 0; b < n / kQK; ++b) decode_q4_k_block(blocks + b * kQ4_KBytes, out + b * kQK);
}

}  // namespace ts
