// Small AVX2 helpers shared by the decode's dot products (quant_dot.cpp) and the prefill's tiles
// (quant_tile.cpp): an unaligned 32-byte load, a block's fp16 scale by the F16C instruction, and
// the levels of a Q4_K / Q5_K run and of a Q6_K half super-block. Only where the compiler targets
// AVX2 and F16C.
#pragma once
#if defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "engine/quant/quant_blocks.h"

namespace ts::qsimd {

inline __m256i load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

// The fp16 word at p (what half_at gives).
inline float half(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return _cvtsh_ss(h);
}

// Half h (0 or 1) of a Q6_K super-block w: its 128 levels (0..63, before the -32 offset) as four
// vectors of 32, lev[g] = values 128 h + 32 g .. + 31 (low nibbles from bytes 64 h .. + 63, two
// high bits each from bytes kQ6KHighAt + 32 h .. + 31).
inline void q6k_levels(const uint8_t* w, int h, __m256i lev[4]) {
  const __m256i m15 = _mm256_set1_epi8(15), m3 = _mm256_set1_epi8(3);
  const __m256i l0 = load32(w + 64 * h), l1 = load32(w + 64 * h + 32);
  const __m256i hh = load32(w + kQ6KHighAt + 32 * h);
  lev[0] =
      _mm256_or_si256(_mm256_and_si256(l0, m15), _mm256_slli_epi16(_mm256_and_si256(hh, m3), 4));
  lev[1] = _mm256_or_si256(_mm256_and_si256(l1, m15),
                           _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hh, 2), m3), 4));
  lev[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), m15),
                           _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hh, 4), m3), 4));
  lev[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), m15),
                           _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hh, 6), m3), 4));
}

// Run r (0..3) of a Q4_K / Q5_K super-block's levels: lo = sub-block 2r, hi = sub-block 2r + 1,
// 32 levels each (0..15, or 0..31 with the fifth bits: bit 2r and 2r + 1 of each byte of
// hbits, the block's 32 bytes at kQ5KHighAt). qs: the block's 128 bytes of nibbles.
inline void k_affine_levels(const uint8_t* qs, __m256i hbits, bool five, int r, __m256i& lo,
                            __m256i& hi) {
  const __m256i m15 = _mm256_set1_epi8(15), sixteen = _mm256_set1_epi8(16);
  const __m256i raw = load32(qs + 32 * r);
  lo = _mm256_and_si256(raw, m15);
  hi = _mm256_and_si256(_mm256_srli_epi16(raw, 4), m15);
  if (five) {
    const __m256i b0 = _mm256_set1_epi8(static_cast<char>(1 << (2 * r)));
    const __m256i b1 = _mm256_set1_epi8(static_cast<char>(1 << (2 * r + 1)));
    lo = _mm256_or_si256(
        lo, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(hbits, b0), b0), sixteen));
    hi = _mm256_or_si256(
        hi, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(hbits, b1), b1), sixteen));
  }
}

}  // namespace ts::qsimd
#endif
