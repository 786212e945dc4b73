// Q4_1, Q5_0 and Q5_1: blocks of 32 values, laid out like Q4_0 (byte j of the 16 nibble bytes
// holds value j in its low nibble and value j + 16 in its high nibble), with
//   Q4_1 20 bytes: fp16 d, fp16 m, nibbles                      value = q * d + m, q in 0..15
//   Q5_0 22 bytes: fp16 d, 4 bytes qh, nibbles                  value = (q - 16) * d
//   Q5_1 24 bytes: fp16 d, fp16 m, 4 bytes qh, nibbles          value = q * d + m
// For the 5-bit types qh is a little-endian uint32 whose bit i is the fifth bit (16) of value i,
// i in 0..31 (so value j + 16's bit is bit j + 16). The quantisers follow ggml's reference
// rules: Q5_0 like Q4_0 (d = -peak / 16, the value of largest magnitude on level 0); Q4_1 and
// Q5_1 map the block's minimum to m and its range onto the levels, d = (max - min) / (levels).
// Levels are computed from the fp16-rounded d and m actually stored, rounded to nearest, clamped.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/f16.h"
#include "formats/quant/quant.h"

namespace ts {

namespace {

constexpr size_t kLegacyHalf = kQ4_0Block / 2;  // 16 nibble bytes, 16 values per nibble half

// The stored (fp16) scale and offset of an affine block: min -> m, max -> top level.
struct LegacyAffine {
  uint16_t dh, mh;
  float d, m, inv;
};

LegacyAffine legacy_affine_fit(const float* v, float top_level) {
  float lo = v[0], hi = v[0];
  for (size_t j = 1; j < kQ4_0Block; ++j) {
    lo = std::min(lo, v[j]);
    hi = std::max(hi, v[j]);
  }
  LegacyAffine a{};
  a.dh = f32_to_f16((hi - lo) / top_level);
  a.mh = f32_to_f16(lo);
  a.d = f16_to_f32(a.dh);
  a.m = f16_to_f32(a.mh);
  a.inv = a.d != 0.0f ? 1.0f / a.d : 0.0f;
  return a;
}

uint8_t legacy_level(float scaled, float top_level) {
  return static_cast<uint8_t>(std::clamp(std::round(scaled), 0.0f, top_level));
}

// Writes 32 levels (0..31) as nibbles at qs and, when qh is not null, fifth bits at qh.
void legacy_pack(const uint8_t* level, uint8_t* qh, uint8_t* qs) {
  uint32_t high = 0;
  for (size_t j = 0; j < kLegacyHalf; ++j) {
    qs[j] = static_cast<uint8_t>((level[j] & 15) | ((level[j + kLegacyHalf] & 15) << 4));
  }
  for (size_t i = 0; i < kQ4_0Block; ++i) high |= static_cast<uint32_t>(level[i] >> 4) << i;
  if (qh) std::memcpy(qh, &high, 4);
}

// Reads 32 levels back (fifth bits only when qh is not null).
void legacy_unpack(const uint8_t* qh, const uint8_t* qs, int* level) {
  uint32_t high = 0;
  if (qh) std::memcpy(&high, qh, 4);
  for (size_t j = 0; j < kLegacyHalf; ++j) {
    level[j] = (qs[j] & 15) | static_cast<int>(((high >> j) & 1) << 4);
    level[j + kLegacyHalf] = (qs[j] >> 4) | static_cast<int>(((high >> (j + 16)) & 1) << 4);
  }
}

// Q4_1 and Q5_1 share everything but the level count and the qh field.
std::vector<uint8_t> quantize_affine_legacy(std::span<const float> x, size_t block_bytes,
                                            bool five_bit) {
  const float top = five_bit ? 31.0f : 15.0f;
  const size_t nb = x.size() / kQ4_0Block;
  std::vector<uint8_t> out(nb * block_bytes, 0);
  for (size_t b = 0; b < nb; ++b) {
    const float* v = x.data() + b * kQ4_0Block;  // (32)
    const LegacyAffine a = legacy_affine_fit(v, top);
    uint8_t level[kQ4_0Block];
    for (size_t j = 0; j < kQ4_0Block; ++j) level[j] = legacy_level((v[j] - a.m) * a.inv, top);
    uint8_t* blk = out.data() + b * block_bytes;
    std::memcpy(blk, &a.dh, 2);
    std::memcpy(blk + 2, &a.mh, 2);
    legacy_pack(level, five_bit ? blk + 4 : nullptr, blk + (five_bit ? 8 : 4));
  }
  return out;
}

void dequantize_affine_legacy(const uint8_t* blocks, size_t n, float* out, size_t block_bytes,
                              bool five_bit) {
  for (size_t b = 0; b < n / kQ4_0Block; ++b) {
    const uint8_t* blk = blocks + b * block_bytes;
    uint16_t dh, mh;
    std::memcpy(&dh, blk, 2);
    std::memcpy(&mh, blk + 2, 2);
    const float d = f16_to_f32(dh), m = f16_to_f32(mh);
    int level[kQ4_0Block];
    legacy_unpack(five_bit ? blk + 4 : nullptr, blk + (five_bit ? 8 : 4), level);
    float* y = out + b * kQ4_0Block;
    for (size_t j = 0; j < kQ4_0Block; ++j) y[j] = static_cast<float>(level[j]) * d + m;
  }
}

}  // namespace

std::vector<uint8_t> quantize_q4_1(std::span<const float> x) {
  return quantize_affine_legacy(x, kQ4_1Bytes, false);
}

void dequantize_q4_1(const uint8_t* blocks, size_t n, float* out) {
  dequantize_affine_legacy(blocks, n, out, kQ4_1Bytes, false);
}

std::vector<uint8_t> quantize_q5_1(std::span<const float> x) {
  return quantize_affine_legacy(x, kQ5_1Bytes, true);
}

void dequantize_q5_1(const uint8_t* blocks, size_t n, float* out) {
  dequantize_affine_legacy(blocks, n, out, kQ5_1Bytes, true);
}

std::vector<uint8_t> quantize_q5_0(std::span<const float> x) {
  const size_t nb = x.size() / kQ4_0Block;
  std::vector<uint8_t> out(nb * kQ5_0Bytes, 0);
  for (size_t b = 0; b < nb; ++b) {
    const float* v = x.data() + b * kQ4_0Block;  // (32)
    const uint16_t dh = f32_to_f16(signed_peak(v, kQ4_0Block) / -16.0f);
    const float d = f16_to_f32(dh);
    const float inv = d != 0.0f ? 1.0f / d : 0.0f;
    uint8_t level[kQ4_0Block];
    for (size_t j = 0; j < kQ4_0Block; ++j)
      level[j] = legacy_level(std::round(v[j] * inv) + 16.0f, 31.0f);
    uint8_t* blk = out.data() + b * kQ5_0Bytes;
    std::memcpy(blk, &dh, 2);
    legacy_pack(level, blk + 2, blk + 6);
  }
  return out;
}

void dequantize_q5_0(const uint8_t* blocks, size_t n, float* out) {
  for (size_t b = 0; b < n / kQ4_0Block; ++b) {
    const uint8_t* blk = blocks + b * kQ5_0Bytes;
    uint16_t dh;
    std::memcpy(&dh, blk, 2);
    const float d = f16_to_f32(dh);
    int level[kQ4_0Block];
    legacy_unpack(blk + 2, blk + 6, level);
    float* y = out + b * kQ4_0Block;
    for (size_t j = 0; j < kQ4_0Block; ++j) y[j] = static_cast<float>(level[j] - 16) * d;
  }
}

}  // namespace ts
