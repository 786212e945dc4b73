// Block decoders of the quantized types the engine computes with (see quant_blocks.h).
#include "engine/quant/quant_blocks.h"

#include <cstring>

#include "base/f16.h"

namespace ts {

void k_scale_min(const uint8_t* packed, int j, int& scale, int& min) {
  if (j < 4) {
    scale = packed[j] & 63;
    min = packed[j + 4] & 63;
  } else {
    scale = (packed[j + 4] & 15) | ((packed[j - 4] >> 6) << 4);
    min = (packed[j + 4] >> 4) | ((packed[j] >> 6) << 4);
  }
}

float half_at(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return f16_to_f32(h);
}

void decode_q8_0_block(const uint8_t* blk, float* y) {
  const float d = half_at(blk);
  for (int j = 0; j < kQ8_0Values; ++j) {
    y[j] = d * static_cast<float>(static_cast<int8_t>(blk[2 + j]));
  }
}

void decode_q4_0_block(const uint8_t* blk, float* y) {
  const float d = half_at(blk);
  for (int j = 0; j < kQ4_0Values / 2; ++j) {
    const uint8_t byte = blk[2 + j];
    y[j] = static_cast<float>(static_cast<int>(byte & 0x0F) - 8) * d;
    y[j + 16] = static_cast<float>(static_cast<int>(byte >> 4) - 8) * d;
  }
}

namespace {

// Q4_K and Q5_K: qh (32 bytes of fifth bits) is nullptr for Q4_K.
void decode_k_affine(const uint8_t* blk, const uint8_t* packed, const uint8_t* qs,
                     const uint8_t* qh, float* y) {
  const float d = half_at(blk), dmin = half_at(blk + 2);
  for (int j = 0; j < 8; ++j) {  // sub-block j: values 32j .. 32j + 31
    int sc, mn;
    k_scale_min(packed, j, sc, mn);
    const float s = d * static_cast<float>(sc), m = dmin * static_cast<float>(mn);
    const uint8_t* run = qs + (j / 2) * 32;
    const int shift = 4 * (j % 2);
    for (int l = 0; l < 32; ++l) {
      int q = (run[l] >> shift) & 15;
      if (qh) q |= ((qh[l] >> j) & 1) << 4;
      y[j * 32 + l] = s * static_cast<float>(q) - m;
    }
  }
}

}  // namespace

void decode_q4_k_block(const uint8_t* blk, float* y) {
  decode_k_affine(blk, blk + 4, blk + 16, nullptr, y);
}

void decode_q5_k_block(const uint8_t* blk, float* y) {
  decode_k_affine(blk, blk + kQ5KScalesAt, blk + kQ5KLowAt, blk + kQ5KHighAt, y);
}

void decode_q6_k_block(const uint8_t* blk, float* y) {
  const float d = half_at(blk + kQ6KDAt);
  for (int i = 0; i < kKValues; ++i) {
    const int h = i / 128, g = (i % 128) / 32, l = i % 32;
    const int low = (blk[64 * h + l + 32 * (g % 2)] >> (g < 2 ? 0 : 4)) & 15;
    const int high = (blk[kQ6KHighAt + 32 * h + l] >> (2 * g)) & 3;
    const auto sc = static_cast<int8_t>(blk[kQ6KScalesAt + i / 16]);
    y[i] = d * static_cast<float>(sc) * static_cast<float>((low | (high << 4)) - 32);
  }
}

}  // namespace ts
