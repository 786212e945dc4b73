// Q5_K: super-blocks of 256 values in 176 bytes: fp16 d, fp16 dmin, 12 bytes of packed 6-bit
// (scale, min) pairs (quant_k_scales.h), 32 bytes qh of fifth bits, 128 bytes of low nibbles.
// The nibbles are laid out as in Q4_K (run r of 32 bytes: sub-block 2r low, 2r + 1 high); the
// fifth bit of value l of sub-block j is bit j of qh[l]. Level q = nibble + 16 * bit, in 0..31;
// value = d*scale*q - dmin*min.
#include <cstring>

#include "base/f16.h"
#include "formats/quant/quant.h"
#include "formats/quant/quant_k_scales.h"
#include "engine/quant/quant_blocks.h"

namespace ts {

std::vector<uint8_t> quantize_q5_k(std::span<const float> x) {
  const size_t nb = x.size() / kQK;
  std::vector<uint8_t> out(nb * kQ5_KBytes, 0);
  for (size_t b = 0; b < nb; ++b) {
    const KAffineFit fit = kquant_fit_affine(x.data() + b * kQK, 31);
    uint8_t* blk = out.data() + b * kQ5_KBytes;
    put_k_affine_header(blk, fit);
    uint8_t* qh = blk + kQ5KHighAt;
    uint8_t* qs = blk + kQ5KLowAt;
    for (size_t i = 0; i < kQK; ++i) {
      const size_t j = i / 32, l = i % 32;
      const uint8_t q = fit.level[i];
      qs[(j / 2) * 32 + l] |= static_cast<uint8_t>((q & 15) << (4 * (j % 2)));
      qh[l] |= static_cast<uint8_t>((q >> 4) << j);
    }
  }
  return out;
}

void dequantize_q5_k(const uint8_t* blocks, size_t n, float* out) {
  for (size_t b = 0; b < n / kQK; ++b) decode_q5_k_block(blocks + b * kQ5_KBytes, out + b * kQK);
}

}  // namespace ts
