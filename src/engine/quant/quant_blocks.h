// The ggml block layouts the engine computes with directly (qmat.h): how one block of each type
// turns back into fp32. The reader (formats/) decodes whole tensors with these same functions,
// so a value means the same thing on both paths. Byte layouts follow ggml exactly:
//   Q8_0  32 values,  34 bytes: fp16 d, 32 int8 q                        w = d * q
//   Q4_0  32 values,  18 bytes: fp16 d, 16 bytes of nibbles               w = d * (q - 8)
//         (byte l: value l in the low nibble, value l + 16 in the high one)
//   Q4_K 256 values, 144 bytes: fp16 d, fp16 dmin, 12 bytes of 6-bit (scale, min) pairs for 8
//         sub-blocks of 32, 128 bytes of nibbles in 4 runs of 32 (run r: sub-block 2r low,
//         2r + 1 high)                                                   w = d*sc_j*q - dmin*m_j
//   Q5_K 256 values, 176 bytes: like Q4_K with 32 bytes of fifth bits (bit j of byte l is
//         sub-block j's value l) between the scales and the nibbles
//   Q6_K 256 values, 210 bytes: 128 bytes of low nibbles, 64 bytes of 2-bit highs, 16 int8
//         scales (one per 16 values), fp16 d                             w = d*sc_g*(q - 32)
#pragma once
#include <cstddef>
#include <cstdint>

namespace ts {

constexpr int kQ8_0Values = 32, kQ8_0BlockBytes = 34;
constexpr int kQ4_0Values = 32, kQ4_0BlockBytes = 18;
constexpr int kKValues = 256;  // values per K-quant super-block
constexpr int kQ4_KBlockBytes = 144, kQ5_KBlockBytes = 176, kQ6_KBlockBytes = 210;

// Offsets inside a Q5_K / Q6_K super-block.
constexpr int kQ5KScalesAt = 4, kQ5KHighAt = 16, kQ5KLowAt = 48;
constexpr int kQ6KHighAt = 128, kQ6KScalesAt = 192, kQ6KDAt = 208;

// Sub-block j's (scale, min), j in 0..7, from the 12 packed bytes of a Q4_K / Q5_K super-block:
//   j < 4:  sc = s[j] & 63,                          m = s[j + 4] & 63
//   j >= 4: sc = (s[j + 4] & 15) | (s[j - 4] >> 6) << 4,  m = (s[j + 4] >> 4) | (s[j] >> 6) << 4
void k_scale_min(const uint8_t* packed, int j, int& scale, int& min);

// fp16 word at p (unaligned).
float half_at(const uint8_t* p);

// One block into y (its value count, above).
void decode_q8_0_block(const uint8_t* blk, float* y);
void decode_q4_0_block(const uint8_t* blk, float* y);
void decode_q4_k_block(const uint8_t* blk, float* y);
void decode_q5_k_block(const uint8_t* blk, float* y);
void decode_q6_k_block(const uint8_t* blk, float* y);

}  // namespace ts
