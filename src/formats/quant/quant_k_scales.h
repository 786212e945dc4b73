// What Q4_K and Q5_K share: a super-block of 256 values is 8 sub-blocks of 32, each decoded as
// w = d * scale_j * q - dmin * min_j, with the 8 (scale_j, min_j) pairs stored as 6-bit integers
// packed into 12 bytes (ggml's get_scale_min_k4 layout, see quant_k_scales.cpp), and d, dmin fp16.
// Also the reference fit that chooses those numbers and the level of every value.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ts {

constexpr size_t kKSub = 32;         // values per Q4_K / Q5_K sub-block
constexpr size_t kKScaleBytes = 12;  // 8 six-bit scales + 8 six-bit mins

// Unpacks sub-block j's (scale, min), j in 0..7.
void kscale_unpack(const uint8_t* packed, int j, int& scale, int& min);
// Packs 8 scales and 8 mins (each 0..63) into 12 bytes.
void kscale_pack(const int* scales, const int* mins, uint8_t* packed);

// The fit of one super-block x (256 values) to levels 0..max_level (15 for Q4_K, 31 for Q5_K).
struct KAffineFit {
  uint16_t d = 0;     // fp16 scale of the scales
  uint16_t dmin = 0;  // fp16 scale of the mins
  uint8_t packed[kKScaleBytes] = {};
  uint8_t level[256] = {};
};
KAffineFit kquant_fit_affine(const float* x, int max_level);
// The first 16 bytes of a Q4_K / Q5_K super-block: d, dmin (fp16), then the 12 packed bytes.
void put_k_affine_header(uint8_t* block, const KAffineFit& fit);

}  // namespace ts
