// The vector quantized dot products (quant_dot.h), AVX2: 32 weight levels at a time are
// multiplied with 32 activation levels by `maddubs` (unsigned x signed bytes, pairs summed to
// int16; no pair can saturate here: levels are at most 63, or a signed byte made positive by
// `sign` against an activation of at most 127), widened to 8 int32 lanes of 4 products each, and
// scaled into a float accumulator once per block (Q8_0, Q4_0) or, with the K-quants' small
// integer scales applied inside `madd`, once per 256-value super-block. The offsets of Q4_K/Q5_K
// (mins) and Q6_K (-32) use the activation's 16-value sums. Without AVX2 the plain loops are used.
#include "engine/quant/quant_dot.h"

#include "engine/quant/quant_blocks.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>
#define TS_QDOT_AVX2 1
#endif

namespace ts {

#ifdef TS_QDOT_AVX2
namespace {

inline __m256i load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

inline float half(const uint8_t* p) {
  uint16_t h;
  __builtin_memcpy(&h, p, 2);
  return _cvtsh_ss(h);
}

// 8 int32 lanes, lane i = Σ u[4i..4i+3] * s[4i..4i+3] (u unsigned, s signed bytes): one VNNI
// instruction where the CPU has it, else maddubs (pairs to int16) and madd (to int32).
inline __m256i dot_us(__m256i u, __m256i s) {
#if defined(__AVXVNNI__)
  return _mm256_dpbusd_avx_epi32(_mm256_setzero_si256(), u, s);
#elif defined(__AVX512VNNI__) && defined(__AVX512VL__)
  return _mm256_dpbusd_epi32(_mm256_setzero_si256(), u, s);
#else
  return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1));
#endif
}
// The same for two signed byte vectors: |a| times b with a's sign.
inline __m256i dot_ss(__m256i a, __m256i b) {
  return dot_us(_mm256_sign_epi8(a, a), _mm256_sign_epi8(b, a));
}

inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Blocks of 32 with a float scale each (Q8_0, Q4_0): `levels(w)` gives a block's 32 signed
// levels. Four accumulators, one per block of a group of four, so consecutive blocks' FMAs do not
// wait on each other.
template <int kBytes, class Levels>
float dot_blocks32(const uint8_t* w, int cols, const QActRow& x, Levels levels) {
  __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                   _mm256_setzero_ps()};
  const int nb = cols / 32;
  int b = 0;
  for (; b + 4 <= nb; b += 4) {
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      const uint8_t* blk = w + (b + k) * kBytes;
      const __m256 p = _mm256_cvtepi32_ps(dot_ss(levels(blk), load32(x.q + 32 * (b + k))));
      acc[k] = _mm256_fmadd_ps(_mm256_set1_ps(half(blk) * x.d[b + k]), p, acc[k]);
    }
  }
  for (; b < nb; ++b) {
    const uint8_t* blk = w + b * kBytes;
    const __m256 p = _mm256_cvtepi32_ps(dot_ss(levels(blk), load32(x.q + 32 * b)));
    acc[0] = _mm256_fmadd_ps(_mm256_set1_ps(half(blk) * x.d[b]), p, acc[0]);
  }
  return hsum(_mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3])));
}

float dot_q8_0(const uint8_t* w, int cols, const QActRow& x) {
  return dot_blocks32<kQ8_0BlockBytes>(w, cols, x,
                                       [](const uint8_t* blk) { return load32(blk + 2); });
}

float dot_q4_0(const uint8_t* w, int cols, const QActRow& x) {
  return dot_blocks32<kQ4_0BlockBytes>(w, cols, x, [](const uint8_t* blk) {
    const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(blk + 2));
    // values 0..15 (low nibbles) in the low half, 16..31 (high nibbles) in the high half
    const __m256i v = _mm256_set_m128i(_mm_srli_epi16(raw, 4), raw);
    return _mm256_sub_epi8(_mm256_and_si256(v, _mm256_set1_epi8(15)), _mm256_set1_epi8(8));
  });
}

// The 8 six-bit scales and mins of a Q4_K / Q5_K super-block from its 12 packed bytes, four at
// a time in 32-bit words (the layout of k_scale_min), as 8 int16 each.
inline void unpack_scales(const uint8_t* packed, __m128i& sc, __m128i& mn) {
  uint32_t u[3];
  __builtin_memcpy(u, packed, 12);
  const uint32_t lo6 = 0x3f3f3f3f, lo4 = 0x0f0f0f0f, top2 = 0x03030303;
  const uint32_t s0 = u[0] & lo6, m0 = u[1] & lo6;
  const uint32_t s1 = (u[2] & lo4) | (((u[0] >> 6) & top2) << 4);
  const uint32_t m1 = ((u[2] >> 4) & lo4) | (((u[1] >> 6) & top2) << 4);
  sc = _mm_cvtepu8_epi16(_mm_setr_epi32(static_cast<int>(s0), static_cast<int>(s1), 0, 0));
  mn = _mm_cvtepu8_epi16(_mm_setr_epi32(static_cast<int>(m0), static_cast<int>(m1), 0, 0));
}

// int16 lane j of v in all 16 lanes (j a constant once the caller's loop is unrolled).
inline __m256i broadcast_lane16(__m256i v, int j) {
  return _mm256_shuffle_epi8(v, _mm256_set1_epi16(static_cast<short>(0x0100 + 0x0202 * j)));
}

// Q4_K and Q5_K (five: the fifth bits at kQ5KHighAt). The 6-bit scales multiply the int16 pair
// sums inside `madd`, so a super-block is summed in int32 and converted once.
float dot_k_affine(const uint8_t* w, int cols, const QActRow& x, bool five) {
  const int bytes = five ? kQ5_KBlockBytes : kQ4_KBlockBytes;
  const __m256i m15 = _mm256_set1_epi8(15), sixteen = _mm256_set1_epi8(16);
  __m256 acc = _mm256_setzero_ps();
  float offset = 0.0f;
  for (int sb = 0; sb < cols / kKValues; ++sb, w += bytes) {
    __m128i sc, mn;
    unpack_scales(w + 4, sc, mn);
    const __m256i sc2 = _mm256_broadcastsi128_si256(sc);  // the 8 scales in both halves
    const uint8_t* qs = five ? w + kQ5KLowAt : w + 16;
    const int8_t* xq = x.q + kKValues * sb;
    const int16_t* xs = x.sum16 + 16 * sb;
    const __m256i hbits = five ? load32(w + kQ5KHighAt) : _mm256_setzero_si256();
    __m256i sumi = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (int r = 0; r < 4; ++r) {
      const __m256i raw = load32(qs + 32 * r);
      __m256i lo = _mm256_and_si256(raw, m15);
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(raw, 4), m15);
      if (five) {
        const __m256i b0 = _mm256_set1_epi8(static_cast<char>(1 << (2 * r)));
        const __m256i b1 = _mm256_set1_epi8(static_cast<char>(1 << (2 * r + 1)));
        lo = _mm256_or_si256(
            lo, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(hbits, b0), b0), sixteen));
        hi = _mm256_or_si256(
            hi, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(hbits, b1), b1), sixteen));
      }
      const __m256i p0 = _mm256_madd_epi16(_mm256_maddubs_epi16(lo, load32(xq + 64 * r)),
                                           broadcast_lane16(sc2, 2 * r));
      const __m256i p1 = _mm256_madd_epi16(_mm256_maddubs_epi16(hi, load32(xq + 64 * r + 32)),
                                           broadcast_lane16(sc2, 2 * r + 1));
      sumi = _mm256_add_epi32(sumi, _mm256_add_epi32(p0, p1));
    }
    // Σ_j m_j (sum of sub-block j's 32 levels): pairs of 16-value sums, then one madd.
    const __m128i sub = _mm_hadd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(xs)),
                                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(xs + 8)));
    __m128i m4 = _mm_madd_epi16(mn, sub);  // (4) int32
    m4 = _mm_add_epi32(m4, _mm_unpackhi_epi64(m4, m4));
    m4 = _mm_add_epi32(m4, _mm_shuffle_epi32(m4, 1));
    const int summ = _mm_cvtsi128_si32(m4);
    const float dx = x.d[sb];
    acc = _mm256_fmadd_ps(_mm256_set1_ps(half(w) * dx), _mm256_cvtepi32_ps(sumi), acc);
    offset += half(w + 2) * dx * static_cast<float>(summ);
  }
  return hsum(acc) - offset;
}

float dot_q6_k(const uint8_t* w, int cols, const QActRow& x) {
  const __m256i m15 = _mm256_set1_epi8(15), m3 = _mm256_set1_epi8(3);
  __m256 acc = _mm256_setzero_ps();
  float offset = 0.0f;
  for (int sb = 0; sb < cols / kKValues; ++sb, w += kQ6_KBlockBytes) {
    const auto* sc = reinterpret_cast<const int8_t*>(w + kQ6KScalesAt);
    const int8_t* xq = x.q + kKValues * sb;
    const int16_t* xs = x.sum16 + 16 * sb;
    __m256i sumi = _mm256_setzero_si256();
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      const __m256i l0 = load32(w + 64 * h), l1 = load32(w + 64 * h + 32);
      const __m256i hh = load32(w + kQ6KHighAt + 32 * h);
      const __m256i lev[4] = {
          _mm256_or_si256(_mm256_and_si256(l0, m15),
                          _mm256_slli_epi16(_mm256_and_si256(hh, m3), 4)),
          _mm256_or_si256(_mm256_and_si256(l1, m15),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hh, 2), m3), 4)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), m15),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hh, 4), m3), 4)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), m15),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hh, 6), m3), 4))};
      for (int g = 0; g < 4; ++g) {
        const int s = 8 * h + 2 * g;  // the scales of the two 16-value halves
        // int16 lanes 0..7 hold bytes 0..15 (scale s), lanes 8..15 bytes 16..31 (scale s + 1)
        const __m256i scale = _mm256_set_m128i(_mm_set1_epi16(sc[s + 1]), _mm_set1_epi16(sc[s]));
        const __m256i p =
            _mm256_maddubs_epi16(lev[g], load32(xq + 128 * h + 32 * g));  // (16) int16
        sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, scale));
      }
    }
    // Σ_g sc_g * (sum of group g's 16 levels), for the -32 offset: one madd over the 16 groups.
    const __m256i sc16 =
        _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sc)));
    const __m256i prod = _mm256_madd_epi16(sc16, load32(xs));  // (8) int32
    __m128i o4 = _mm_add_epi32(_mm256_castsi256_si128(prod), _mm256_extracti128_si256(prod, 1));
    o4 = _mm_add_epi32(o4, _mm_unpackhi_epi64(o4, o4));
    o4 = _mm_add_epi32(o4, _mm_shuffle_epi32(o4, 1));
    const int off = _mm_cvtsi128_si32(o4);
    const float ddx = half(w + kQ6KDAt) * x.d[sb];
    acc = _mm256_fmadd_ps(_mm256_set1_ps(ddx), _mm256_cvtepi32_ps(sumi), acc);
    offset += 32.0f * ddx * static_cast<float>(off);
  }
  return hsum(acc) - offset;
}

}  // namespace

float qdot_row(QType t, const uint8_t* w_row, int cols, const QActRow& x) {
  switch (t) {
    case QType::Q8_0:
      return dot_q8_0(w_row, cols, x);
    case QType::Q4_0:
      return dot_q4_0(w_row, cols, x);
    case QType::Q4_K:
      return dot_k_affine(w_row, cols, x, false);
    case QType::Q5_K:
      return dot_k_affine(w_row, cols, x, true);
    case QType::Q6_K:
      return dot_q6_k(w_row, cols, x);
  }
  return 0.0f;
}

bool qdot_vectorised() { return true; }

#else

float qdot_row(QType t, const uint8_t* w_row, int cols, const QActRow& x) {
  return qdot_row_scalar(t, w_row, cols, x);
}

bool qdot_vectorised() { return false; }

#endif

}  // namespace ts
