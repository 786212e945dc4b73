// The vector quantized dot products (quant_dot.h): one weight row against one activation row,
// one kernel per block type and instruction set.
//   AVX-512 (F, BW, VL, VNNI; VBMI used where present). Q8_0 and Q4_0, 64 levels a vector: their
//   levels go unsigned (Q8_0 + 128, Q4_0's nibbles as stored) into `dpbusd` with the signed
//   activation, two blocks a vector; the offset is taken off in int32 from the activation's
//   16-value sums, then each block is scaled into float accumulators. The K-quants pair `maddubs`
//   (int16) with `dpwssd`, which applies their small integer scales while adding to int32, so a
//   256-value super-block is converted to float once; the offsets of Q4_K/Q5_K (mins) and Q6_K
//   (-32) use the activation's 16-value sums. Q4_K/Q5_K run 256 bits wide: a 512-bit op costs two
//   256-bit ones on the CPUs measured (Zen 4), and the wide form needed a copy of each run for its
//   high nibbles. A decode row is short (a few super-blocks), so its sums are kept in several
//   independent registers: the row's latency, not the ops' throughput, is what bounds it.
//   Tried and dropped: several weight rows per call sharing the activation's loads. Faster with
//   the weights in cache, but from memory (a decode's case) the interleaved streams of 2 or 4
//   rows read at 8-13 GB/s where one row's stream reads at 15-21 (one thread, 110M shape).
//   AVX2: 32 weight levels at a time are multiplied with 32 activation levels by `maddubs`
//   (unsigned x signed bytes, pairs summed to int16; no pair can saturate here: levels are at
//   most 63, or a signed byte made positive by `sign` against an activation of at most 127),
//   widened to 8 int32 lanes of 4 products each, and scaled into a float accumulator once per
//   block (Q8_0, Q4_0) or, with the K-quants' small integer scales applied inside `madd`, once
//   per 256-value super-block.
// Without either, the plain loops are used.
#include "engine/quant/quant_dot.h"

#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_simd.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && \
    defined(__AVX512VNNI__) && defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>
#define TS_QDOT_AVX512 1
#elif defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>
#define TS_QDOT_AVX2 1
#endif

namespace ts {

#if defined(TS_QDOT_AVX512)
namespace {

inline __m512i load64(const void* p) { return _mm512_loadu_si512(p); }
using qsimd::load32;
inline __m128i load16(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }

using qsimd::half;

// Horizontal sums in a fixed order (halves added, then 4, 2, 1 lanes).
inline float hsum4(__m128 v) {
  v = _mm_add_ps(v, _mm_movehl_ps(v, v));
  v = _mm_add_ss(v, _mm_movehdup_ps(v));
  return _mm_cvtss_f32(v);
}
inline float hsum8(__m256 v) {
  return hsum4(_mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1)));
}
inline float hsum16(__m512 v) {
  const __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
  return hsum8(_mm256_add_ps(_mm512_castps512_ps256(v), hi));
}
inline int hsum_i32(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
  return _mm_cvtsi128_si32(s);
}

// Lanes 0-7 = s[2k], lanes 8-15 = s[2k + 1] (the scales of a pair of 32-value blocks).
inline __m512 pair_scales(__m128 s, int k) {
  const __m512i idx = _mm512_setr_epi32(2 * k, 2 * k, 2 * k, 2 * k, 2 * k, 2 * k, 2 * k, 2 * k,
                                        2 * k + 1, 2 * k + 1, 2 * k + 1, 2 * k + 1, 2 * k + 1,
                                        2 * k + 1, 2 * k + 1, 2 * k + 1);
  return _mm512_permutexvar_ps(idx, _mm512_castps128_ps512(s));
}

// Permutation indices as constant vectors.
struct alignas(64) Index8 {
  int8_t v[64];
};
struct alignas(64) Index16 {
  int16_t v[32];
};
// Q4_0's nibble bytes of a block pair in 16-byte lanes [b, b, b', b'], b at byte `first` and b'
// at `second` of the 64 loaded.
constexpr Index8 q4_0_nibbles(int first, int second) {
  Index8 r{};
  for (int j = 0; j < 64; ++j) r.v[j] = static_cast<int8_t>((j < 32 ? first : second) + j % 16);
  return r;
}
constexpr Index8 kQ4_0Nibbles[2] = {q4_0_nibbles(2, 20), q4_0_nibbles(30, 48)};
// int16 lane m of the result = lane base + m / per of the source (the scale of each lane).
constexpr Index16 scale_lanes(int base, int per) {
  Index16 r{};
  for (int m = 0; m < 32; ++m) r.v[m] = static_cast<int16_t>(base + m / per);
  return r;
}
constexpr Index16 kQ6ScaleLanes[4] = {scale_lanes(0, 8), scale_lanes(4, 8), scale_lanes(8, 8),
                                      scale_lanes(12, 8)};

// Q8_0: the 32 int8 levels made unsigned by adding 128 (x ^ 0x80), corrected by -128 Σx.
struct Q8_0Blocks {
  static constexpr int kBytes = kQ8_0BlockBytes;
  static constexpr int kOffset = 128;
  // The fp16 scales of 4 consecutive blocks (bytes 0, 34, 68, 102) in the low 4 int16 lanes.
  static __m128i scales4(const uint8_t* blk) {
    const __m512i idx = _mm512_setr_epi32(17 << 16, (32 + 19) << 16 | (32 + 2), 0, 0, 0, 0, 0, 0, 0,
                                          0, 0, 0, 0, 0, 0, 0);
    return _mm512_castsi512_si128(_mm512_permutex2var_epi16(load64(blk), idx, load64(blk + 64)));
  }
  // The unsigned levels of blocks 2k and 2k + 1 of a group of 4, in order.
  static __m512i levels2(const uint8_t* blk, int k) {
    const uint8_t* p = blk + 2 * kBytes * k;
    const __m512i v = _mm512_inserti64x4(_mm512_castsi256_si512(load32(p + 2)), load32(p + 36), 1);
    return _mm512_xor_si512(v, _mm512_set1_epi8(static_cast<char>(0x80)));
  }
  static __m256i levels1(const uint8_t* blk) {
    return _mm256_xor_si256(load32(blk + 2), _mm256_set1_epi8(static_cast<char>(0x80)));
  }
};

// Q4_0: the nibbles 0..15 as they are, corrected by -8 Σx.
struct Q4_0Blocks {
  static constexpr int kBytes = kQ4_0BlockBytes;
  static constexpr int kOffset = 8;
  // Bytes 0, 18, 36, 54: int16 lanes 0, 9, 18, 27 of the group's first 64 bytes.
  static __m128i scales4(const uint8_t* blk) {
    const __m512i idx =
        _mm512_setr_epi32(9 << 16, 27 << 16 | 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    return _mm512_castsi512_si128(_mm512_permutexvar_epi16(idx, load64(blk)));
  }
  // Blocks 2k, 2k + 1: each block's 16 bytes twice ([b, b, b', b'] by 16-byte lanes), the second
  // copy shifted down by 4, then masked: values 0-15 and 16-31 of each block in order.
  static __m512i levels2(const uint8_t* blk, int k) {
#if defined(__AVX512VBMI__)
    // One 64-byte load holds both blocks' nibbles: bytes 2-17 and 20-35 of the group (k = 0),
    // or bytes 38-53 and 56-71, read from offset 8 so the load stays inside the group (k = 1).
    const __m512i v =
        _mm512_permutexvar_epi8(_mm512_load_si512(kQ4_0Nibbles[k].v), load64(blk + 8 * k));
#else
    const uint8_t* p = blk + 2 * kBytes * k;
    const __m256i two =
        _mm256_inserti128_si256(_mm256_castsi128_si256(load16(p + 2)), load16(p + 20), 1);
    const __m512i v = _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 1, 0, 1, 2, 3, 2, 3),
                                               _mm512_castsi256_si512(two));
#endif
    return _mm512_and_si512(_mm512_mask_srli_epi16(v, 0xFF00FF00u, v, 4), _mm512_set1_epi8(15));
  }
  static __m256i levels1(const uint8_t* blk) {
    const __m128i raw = load16(blk + 2);
    return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(raw, 4), raw), _mm256_set1_epi8(15));
  }
};

// Blocks of 32 values with a float scale each (Q8_0, Q4_0). Per group of 4 blocks: 2 dpbusd of
// 64 unsigned levels by 64 activation levels (two blocks each), the offset's correction
// (-kOffset Σx of each 16 values) taken off in int32 before anything is rounded, then each lane
// scaled by its block's scale into two float accumulators; one horizontal sum at the end. (Taking
// the correction off in float instead, after scaling, cancelled two large products and lost
// about 1e-2 of a logit against the plain loops.)
template <class B>
float dot_blocks32(const uint8_t* w, int cols, const QActRow& x) {
  __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
  const int nb = cols / 32;
  int b = 0;
  for (; b + 4 <= nb; b += 4) {
    const uint8_t* blk = w + static_cast<size_t>(b) * B::kBytes;
    const __m128 s = _mm_mul_ps(_mm_cvtph_ps(B::scales4(blk)), _mm_loadu_ps(x.d + b));
    // kOffset Σx of each 16 values of the 4 blocks, exact in int32: elements 0-3 go to lanes
    // 0, 4, 8, 12 of the first product (its lanes 4j..4j+3 hold those 16 values), 4-7 of the second
    const __m256i c = _mm256_mullo_epi32(_mm256_cvtepi16_epi32(load16(x.sum16 + 2 * b)),
                                         _mm256_set1_epi32(B::kOffset));
    const __m512i c0 = _mm512_maskz_expand_epi32(0x1111, _mm512_castsi256_si512(c));
    const __m512i c1 = _mm512_maskz_expand_epi32(
        0x1111, _mm512_castsi256_si512(_mm256_permute2x128_si256(c, c, 1)));
    const __m512i p0 = _mm512_sub_epi32(
        _mm512_dpbusd_epi32(_mm512_setzero_si512(), B::levels2(blk, 0), load64(x.q + 32 * b)), c0);
    const __m512i p1 = _mm512_sub_epi32(
        _mm512_dpbusd_epi32(_mm512_setzero_si512(), B::levels2(blk, 1), load64(x.q + 32 * b + 64)),
        c1);
    acc0 = _mm512_fmadd_ps(pair_scales(s, 0), _mm512_cvtepi32_ps(p0), acc0);
    acc1 = _mm512_fmadd_ps(pair_scales(s, 1), _mm512_cvtepi32_ps(p1), acc1);
  }
  float tail = 0.0f;
  for (; b < nb; ++b) {  // the last 1-3 blocks, one at a time
    const uint8_t* blk = w + static_cast<size_t>(b) * B::kBytes;
    const __m256i p =
        _mm256_dpbusd_epi32(_mm256_setzero_si256(), B::levels1(blk), load32(x.q + 32 * b));
    const int dot = hsum_i32(p) - B::kOffset * (x.sum16[2 * b] + x.sum16[2 * b + 1]);
    tail += half(blk) * x.d[b] * static_cast<float>(dot);
  }
  return hsum16(_mm512_add_ps(acc0, acc1)) + tail;
}

// The 8 six-bit scales (bytes 0-7) and mins (bytes 8-15) of a Q4_K / Q5_K super-block from its
// 12 packed bytes at p (16 bytes are read), four at a time in 32-bit lanes (the layout of
// k_scale_min): with words u0, u1, u2, scales 0-3 = u0 & 63, mins 0-3 = u1 & 63, scales 4-7 =
// (u2 & 15) | (u0 >> 6) << 4, mins 4-7 = (u2 >> 4 & 15) | (u1 >> 6) << 4 (per byte).
inline __m128i unpack_scales(const uint8_t* p) {
  const __m128i v = load16(p);
  const __m128i low = _mm_and_si128(v, _mm_set1_epi8(63));  // [sc 0-3, mn 0-3]
  const __m128i top = _mm_and_si128(_mm_srli_epi32(v, 2), _mm_set1_epi8(0x30));
  const __m128i u2 = _mm_srlv_epi32(_mm_shuffle_epi32(v, 0xAA), _mm_setr_epi32(0, 4, 0, 0));
  // (u2 & 15) | top: [sc 4-7, mn 4-7]
  const __m128i high = _mm_ternarylogic_epi32(u2, _mm_set1_epi8(15), top, 0xEA);
  return _mm_unpacklo_epi32(low, high);
}

// v shifted left by s bits (right by -s) in 16-bit lanes.
template <int s>
inline __m256i shift16(__m256i v) {
  if constexpr (s > 0) return _mm256_slli_epi16(v, s);
  if constexpr (s < 0) return _mm256_srli_epi16(v, -s);
  return v;
}

// Q4_K and Q5_K (kFive: the fifth bits at kQ5KHighAt), 256 bits at a time: on this class of CPU
// a 512-bit op costs two 256-bit ones, so the narrower form wastes less (no copy of each run for
// its high nibbles). Per run r of 32 bytes: the low nibbles (sub-block 2r) and the high ones
// (2r + 1), each `maddubs` with its 32 activation levels (int16 pairs, at most 2 * 31 * 127),
// then `dpwssd` with the sub-block's 6-bit scale (in both halves of every int32 lane) adds them
// to the super-block's int32 sums, converted once; the mins' term (-dmin * Σ_j m_j Σx_j) goes
// into the same float accumulator.
template <bool kFive>
float dot_k_affine(const uint8_t* w, int cols, const QActRow& x) {
  constexpr int kBytes = kFive ? kQ5_KBlockBytes : kQ4_KBlockBytes;
  const __m256i m15 = _mm256_set1_epi8(15), bit4 = _mm256_set1_epi8(16);
  __m256 acc = _mm256_setzero_ps(), accm = _mm256_setzero_ps();
  for (int sb = 0; sb < cols / kKValues; ++sb) {
    const int8_t* xq = x.q + kKValues * sb;
    const uint8_t* blk = w + static_cast<size_t>(sb) * kBytes;
    const __m128i scmn = unpack_scales(blk + 4);
    const __m256i sc32 = _mm256_cvtepu8_epi32(scmn);
    const __m256i scw = _mm256_or_si256(sc32, _mm256_slli_epi32(sc32, 16));
    const uint8_t* qs = kFive ? blk + kQ5KLowAt : blk + 16;
    const __m256i hb = kFive ? load32(blk + kQ5KHighAt) : m15;
    // one int32 sum per run: four short chains instead of one long one (a row of a few
    // super-blocks is bound by latency more than by throughput)
    __m256i sumi[4];
    auto step = [&]<int r>() {
      const __m256i raw = load32(qs + 32 * r);
      __m256i lo = _mm256_and_si256(raw, m15);
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(raw, 4), m15);
      if constexpr (kFive) {  // bit 2r of the fifth bits to bit 4 of lo, bit 2r + 1 to hi's
        lo = _mm256_ternarylogic_epi32(lo, shift16<4 - 2 * r>(hb), bit4, 0xF8);
        hi = _mm256_ternarylogic_epi32(hi, shift16<3 - 2 * r>(hb), bit4, 0xF8);
      }
      const __m256i s0 = _mm256_permutexvar_epi32(_mm256_set1_epi32(2 * r), scw);
      const __m256i s1 = _mm256_permutexvar_epi32(_mm256_set1_epi32(2 * r + 1), scw);
      sumi[r] = _mm256_madd_epi16(_mm256_maddubs_epi16(lo, load32(xq + 64 * r)), s0);
      sumi[r] =
          _mm256_dpwssd_epi32(sumi[r], _mm256_maddubs_epi16(hi, load32(xq + 64 * r + 32)), s1);
    };
    step.template operator()<0>();
    step.template operator()<1>();
    step.template operator()<2>();
    step.template operator()<3>();
    const __m256i sum4 =
        _mm256_add_epi32(_mm256_add_epi32(sumi[0], sumi[1]), _mm256_add_epi32(sumi[2], sumi[3]));
    uint32_t dd_bits;
    __builtin_memcpy(&dd_bits, blk, 4);
    // (d * dx, dmin * dx)
    const __m128 dd = _mm_mul_ps(_mm_cvtph_ps(_mm_cvtsi32_si128(static_cast<int>(dd_bits))),
                                 _mm_set1_ps(x.d[sb]));
    acc = _mm256_fmadd_ps(_mm256_broadcastss_ps(dd), _mm256_cvtepi32_ps(sum4), acc);
    // m_j times the sum of sub-block j's levels (its two 16-value sums), in 8 int32 lanes
    const __m256i m = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_unpackhi_epi8(scmn, scmn)),
                                        load32(x.sum16 + 16 * sb));
    accm = _mm256_fmadd_ps(_mm256_broadcastss_ps(_mm_movehdup_ps(dd)), _mm256_cvtepi32_ps(m), accm);
  }
  return hsum8(_mm256_sub_ps(acc, accm));
}

// Q6_K. Per half h of a super-block: the 64 bytes of low nibbles give groups 0, 1 (& 15) and
// 2, 3 (>> 4); the 32 bytes of high bits, in both halves of a vector, are moved to bits 4-5 by a
// shift per 64-bit lane (4 / 2 for groups 0 / 1, 0 / 2 for 2 / 3) and merged in by one
// ternary-logic op. `maddubs` (at most 2 * 63 * 127), `dpwssd` with the int8 scales per 16
// values, and the -32 offset (32 Σ_g sc_g Σx_g) taken off in int32 before one conversion.
float dot_q6_k(const uint8_t* w, int cols, const QActRow& x) {
  const __m512i m15 = _mm512_set1_epi8(15), m48 = _mm512_set1_epi8(0x30);
  const __m512i shl = _mm512_setr_epi64(4, 4, 4, 4, 2, 2, 2, 2);
  const __m512i shr = _mm512_setr_epi64(0, 0, 0, 0, 2, 2, 2, 2);
  __m512 acc = _mm512_setzero_ps();
  for (int sb = 0; sb < cols / kKValues; ++sb) {
    const int8_t* xq = x.q + kKValues * sb;
    const uint8_t* blk = w + static_cast<size_t>(sb) * kQ6_KBlockBytes;
    const __m256i sc16 = _mm256_cvtepi8_epi16(load16(blk + kQ6KScalesAt));
    const __m512i sc = _mm512_castsi256_si512(sc16);
    __m512i sumi = _mm512_setzero_si512();
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      const __m512i ql = load64(blk + 64 * h);
      const __m512i hh = _mm512_broadcast_i64x4(load32(blk + kQ6KHighAt + 32 * h));
      // a | (b & c): the low nibble (high bits clear) with bits 4-5 of the shifted high bits
      const __m512i lev01 = _mm512_ternarylogic_epi32(_mm512_and_si512(ql, m15),
                                                      _mm512_sllv_epi64(hh, shl), m48, 0xF8);
      const __m512i lev23 = _mm512_ternarylogic_epi32(
          _mm512_and_si512(_mm512_srli_epi16(ql, 4), m15), _mm512_srlv_epi64(hh, shr), m48, 0xF8);
      sumi = _mm512_dpwssd_epi32(sumi, _mm512_maddubs_epi16(lev01, load64(xq + 128 * h)),
                                 _mm512_permutexvar_epi16(load64(kQ6ScaleLanes[2 * h].v), sc));
      sumi = _mm512_dpwssd_epi32(sumi, _mm512_maddubs_epi16(lev23, load64(xq + 128 * h + 64)),
                                 _mm512_permutexvar_epi16(load64(kQ6ScaleLanes[2 * h + 1].v), sc));
    }
    const __m256i o = _mm256_slli_epi32(_mm256_madd_epi16(sc16, load32(x.sum16 + 16 * sb)), 5);
    sumi = _mm512_sub_epi32(sumi, _mm512_zextsi256_si512(o));  // - 32 Σ_g sc_g Σx_g
    const float ddx = half(blk + kQ6KDAt) * x.d[sb];
    acc = _mm512_fmadd_ps(_mm512_set1_ps(ddx), _mm512_cvtepi32_ps(sumi), acc);
  }
  return hsum16(acc);
}

}  // namespace

float qdot_row(QType t, const uint8_t* w_row, int cols, const QActRow& x) {
  switch (t) {
    case QType::Q8_0:
      return dot_blocks32<Q8_0Blocks>(w_row, cols, x);
    case QType::Q4_0:
      return dot_blocks32<Q4_0Blocks>(w_row, cols, x);
    case QType::Q4_K:
      return dot_k_affine<false>(w_row, cols, x);
    case QType::Q5_K:
      return dot_k_affine<true>(w_row, cols, x);
    case QType::Q6_K:
      return dot_q6_k(w_row, cols, x);
  }
  return 0.0f;
}

const char* qdot_kernels() { return "AVX-512 VNNI"; }

#elif defined(TS_QDOT_AVX2)
namespace {

using qsimd::load32;

using qsimd::half;

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
      __m256i lo, hi;
      qsimd::k_affine_levels(qs, hbits, five, r, lo, hi);
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
  __m256 acc = _mm256_setzero_ps();
  float offset = 0.0f;
  for (int sb = 0; sb < cols / kKValues; ++sb, w += kQ6_KBlockBytes) {
    const auto* sc = reinterpret_cast<const int8_t*>(w + kQ6KScalesAt);
    const int8_t* xq = x.q + kKValues * sb;
    const int16_t* xs = x.sum16 + 16 * sb;
    __m256i sumi = _mm256_setzero_si256();
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      __m256i lev[4];
      qsimd::q6k_levels(w, h, lev);
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

const char* qdot_kernels() { return "AVX2"; }

#else

float qdot_row(QType t, const uint8_t* w_row, int cols, const QActRow& x) {
  return qdot_row_scalar(t, w_row, cols, x);
}

const char* qdot_kernels() { return "none (plain loops)"; }

#endif

// Rows one after another: one sequential stream of weights (see the header comment).
void qdot_rows(QType t, const uint8_t* w, size_t row_bytes, int n, int cols, const QActRow& x,
               float* y) {
  for (int i = 0; i < n; ++i) y[i] = qdot_row(t, w + i * row_bytes, cols, x);
}

}  // namespace ts
