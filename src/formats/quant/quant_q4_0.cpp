// Q4_0: blocks of 32 values, an fp16 scale d then 16 bytes; byte j holds value j in its low
// nibble and value j + 16 in its high nibble, each an unsigned level q in 0..15 standing for
// (q - 8) * d. The quantiser is ggml's reference rule: d = -m / 8 where m is the value of largest
// magnitude (so m itself lands exactly on level 0), levels rounded to nearest and clamped to 15.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/f16.h"
#include "formats/quant/quant.h"
#include "engine/quant/quant_blocks.h"

namespace ts {

float signed_peak(const float* v, size_t n) {
  float peak = 0.0f;
  for (size_t j = 0; j < n; ++j) {
    if (std::fabs(v[j]) > std::fabs(peak)) peak = v[j];
  }
  return peak;
}

std::vector<uint8_t> quantize_q4_0(std::span<const float> x) {
  const size_t nb = x.size() / kQ4_0Block;
  std::vector<uint8_t> out(nb * kQ4_0Bytes, 0);
  for (size_t b = 0; b < nb; ++b) {
    const float* v = x.data() + b * kQ4_0Block;  // (32)
    const uint16_t dh = f32_to_f16(signed_peak(v, kQ4_0Block) / -8.0f);
    const float d = f16_to_f32(dh);
    const float inv = d != 0.0f ? 1.0f / d : 0.0f;
    uint8_t* blk = out.data() + b * kQ4_0Bytes;
    std::memcpy(blk, &dh, 2);
    auto level = [&](float value) {
      const float q = std::round(value * inv) + 8.0f;
      return static_cast<uint8_t>(std::clamp(q, 0.0f, 15.0f));
    };
    for (size_t j = 0; j < kQ4_0Block / 2; ++j) {
      blk[2 + j] = static_cast<uint8_t>(level(v[j]) | (level(v[j + 16]) << 4));
    }
  }
  return out;
}

void dequantize_q4_0(const uint8_t* blocks, size_t n, float* out) {
  for (size_t b = 0; b < n / kQ4_0Block; ++b) {
    decode_q4_0_block(blocks + b * kQ4_0Bytes, out + b * kQ4_0Block);
  }
}

}  // namespace ts
