// The integer tile kernels of the quantized prefill (quant_tile.h). Three kernel kinds share one
// unpacked weight form (a signed level per byte, per weight row):
//   Blocks32 (Q8_0: the int8 q; Q4_0: q - 8), a float scale d per 32 values:
//     y = Σ_b d_b * dx_b * (Σ u w - 128 Σ w)                    over the 32 values of block b
//   KAffine (Q4_K, Q5_K: q 0..15 / 0..31), per 256-value super-block d, dmin, and per 32-value
//   sub-block j a 6-bit scale sc_j and min m_j:
//     y = Σ_sb dx * (d * (Σ_j sc_j Σ u w - 128 Σ_j sc_j Σ w) - dmin * Σ_j m_j S_j)
//   KSix (Q6_K: q - 32), per super-block d, per 16-value group g an int8 scale sc_g:
//     y = Σ_sb dx * d * (Σ_g sc_g Σ u w - 128 Σ_g sc_g Σ w)
// with u = x_level + 128 (the packed activation), S_j the activation's level sum over sub-block
// j, and the 128 terms constants of the weight row computed while unpacking. The integer sums
// are exact; the float steps per (row, token) are the same wherever the pair lands.
#include "engine/quant/quant_tile.h"

#include <algorithm>
#include <cstring>

#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_simd.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VNNI__) && \
    defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>
#define TS_QTILE_AVX512 1
#endif

namespace ts {

void qtile_prepare(QTileActivation& a, int rows, int cols, int block) {
  a.rows = rows;
  a.cols = cols;
  a.block = block;
  a.groups = (rows + kTileTokens - 1) / kTileTokens;
  const size_t g = static_cast<size_t>(a.groups);
  a.q.resize(g * static_cast<size_t>(cols) * kTileTokens);
  a.d.resize(g * static_cast<size_t>(cols / block) * kTileTokens);
  a.sums.resize(block == kKValues ? g * static_cast<size_t>(cols / 64) * kTileTokens : 0);
}

#ifdef TS_QTILE_AVX512

bool qtile_available() { return true; }

namespace {

enum class Kind { Blocks32, KAffine, KSix };

Kind kind_of(QType t) {
  switch (t) {
    case QType::Q8_0:
    case QType::Q4_0:
      return Kind::Blocks32;
    case QType::Q4_K:
    case QType::Q5_K:
      return Kind::KAffine;
    case QType::Q6_K:
      break;
  }
  return Kind::KSix;
}

// ---- activation packing ---------------------------------------------------------------------

// Token row v (cols values) quantized like quantize_activation: per block amax, d = amax / 127,
// level = round-to-nearest-even(v * (1 / d)) (what lrint does in the default rounding mode).
// Levels go to lv (cols int8), the scales to d[b * 16] (the token's lane).
void quantize_row(const float* v, int cols, int block, int8_t* lv, float* d) {
  for (int b = 0; b < cols / block; ++b) {
    const float* x = v + static_cast<size_t>(block) * b;
    __m512 m = _mm512_setzero_ps();
    for (int i = 0; i < block; i += 16) m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_loadu_ps(x + i)));
    const float amax = _mm512_reduce_max_ps(m);
    const float db = amax / 127.0f, id = db > 0.0f ? 1.0f / db : 0.0f;
    d[static_cast<size_t>(b) * kTileTokens] = db;
    const __m512 vid = _mm512_set1_ps(id);
    for (int i = 0; i < block; i += 16) {
      const __m512i q = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(x + i), vid));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(lv + static_cast<size_t>(block) * b + i),
                       _mm512_cvtepi32_epi8(q));
    }
  }
}

// Σ of 32 signed bytes.
inline int sum_i8x32(__m256i v) {
  const __m256i s =
      _mm256_sad_epu8(_mm256_xor_si256(v, _mm256_set1_epi8(static_cast<char>(0x80))),
                      _mm256_setzero_si256());  // 4 u64 sums of 8 (levels + 128)
  __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
  t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
  return _mm_cvtsi128_si32(t) - 32 * 128;
}

// Σ of the first and of the last 16 of 32 signed bytes.
inline void sum_i8x16x2(__m256i v, int& first, int& last) {
  const __m256i s =
      _mm256_sad_epu8(_mm256_xor_si256(v, _mm256_set1_epi8(static_cast<char>(0x80))),
                      _mm256_setzero_si256());
  alignas(32) int64_t e[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(e), s);
  first = static_cast<int>(e[0] + e[1]) - 16 * 128;
  last = static_cast<int>(e[2] + e[3]) - 16 * 128;
}

using qsimd::load32;

using qsimd::half;

}  // namespace

void qtile_pack(const float* x, int ldx, QTileActivation& a, int g_begin, int g_end) {
  const int cols = a.cols, nb = cols / a.block, k4 = cols / 4;
  thread_local std::vector<int8_t> lv;  // (cols) one token's levels
  lv.resize(static_cast<size_t>(cols));
  for (int g = g_begin; g < g_end; ++g) {
    auto* qg = reinterpret_cast<uint32_t*>(a.q.data()) +
               static_cast<size_t>(g) * k4 * kTileTokens;                  // (k4, 16)
    float* dg = a.d.data() + static_cast<size_t>(g) * nb * kTileTokens;    // (nb, 16)
    int32_t* sg = a.sums.empty() ? nullptr
                                 : a.sums.data() + static_cast<size_t>(g) * (cols / 64) *
                                                       kTileTokens;       // (cols / 64, 16)
    for (int lane = 0; lane < kTileTokens; ++lane) {
      const int t = g * kTileTokens + lane;
      if (t < a.rows) {
        quantize_row(x + static_cast<size_t>(t) * ldx, cols, a.block, lv.data(), dg + lane);
      } else {
        std::fill(lv.begin(), lv.end(), int8_t{0});
        for (int b = 0; b < nb; ++b) dg[static_cast<size_t>(b) * kTileTokens + lane] = 0.0f;
      }
      const uint8_t* src = reinterpret_cast<const uint8_t*>(lv.data());
      for (int k = 0; k < k4; ++k) {
        uint32_t w;
        std::memcpy(&w, src + 4 * k, 4);
        qg[static_cast<size_t>(k) * kTileTokens + lane] = w ^ 0x80808080u;
      }
      if (sg) {
        for (int p = 0; p < cols / 64; ++p) {
          const int s0 = sum_i8x32(load32(lv.data() + 64 * p));
          const int s1 = sum_i8x32(load32(lv.data() + 64 * p + 32));
          sg[static_cast<size_t>(p) * kTileTokens + lane] =
              static_cast<int32_t>((static_cast<uint32_t>(s0) & 0xffffu) |
                                   (static_cast<uint32_t>(s1) << 16));
        }
      }
    }
  }
}

namespace {

// ---- weight unpacking -----------------------------------------------------------------------

// Up to kPanelRows weight rows unpacked. Per row: cols signed levels; per block (32 values for
// Blocks32, 256 for the K-quants) the float scale, the 128-constant; for the K-quants the integer
// scale of every group (32 values, 16 for Q6_K); for KAffine dmin and the mins as int16 pairs.
constexpr int kPanelRows = 32;

struct Panel {
  int cols = 0, blocks = 0, groups = 0;  // per row: blocks of the float scale, groups of sc
  std::vector<int8_t> q;                 // (rows, cols)
  std::vector<int32_t> corr;             // (rows, blocks) 128 Σ sc Σ level
  std::vector<float> d;                  // (rows, blocks)
  std::vector<float> dmin;               // (rows, blocks)      KAffine
  std::vector<int32_t> sc;               // (rows, groups)      KAffine, KSix
  std::vector<int32_t> mins;             // (rows, blocks, 4)   KAffine: (m_2i, m_2i+1) pairs
};

void size_panel(Panel& p, Kind kind, int cols) {
  p.cols = cols;
  p.blocks = kind == Kind::Blocks32 ? cols / 32 : cols / kKValues;
  p.groups = kind == Kind::KSix ? cols / 16 : cols / 32;
  const size_t r = kPanelRows;
  p.q.resize(r * cols);
  p.corr.resize(r * p.blocks);
  p.d.resize(r * p.blocks);
  p.dmin.resize(r * p.blocks);
  p.sc.resize(r * p.groups);
  p.mins.resize(r * p.blocks * 4);
}

void unpack_q8_0(const uint8_t* w, Panel& p, int pr) {
  int8_t* q = p.q.data() + static_cast<size_t>(pr) * p.cols;
  for (int b = 0; b < p.blocks; ++b, w += kQ8_0BlockBytes, q += 32) {
    const __m256i v = load32(w + 2);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q), v);
    p.d[static_cast<size_t>(pr) * p.blocks + b] = half(w);
    p.corr[static_cast<size_t>(pr) * p.blocks + b] = 128 * sum_i8x32(v);
  }
}

void unpack_q4_0(const uint8_t* w, Panel& p, int pr) {
  int8_t* q = p.q.data() + static_cast<size_t>(pr) * p.cols;
  for (int b = 0; b < p.blocks; ++b, w += kQ4_0BlockBytes, q += 32) {
    const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 2));
    const __m256i v = _mm256_sub_epi8(
        _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(raw, 4), raw), _mm256_set1_epi8(15)),
        _mm256_set1_epi8(8));  // values 0..15 low nibbles, 16..31 high nibbles, minus 8
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q), v);
    p.d[static_cast<size_t>(pr) * p.blocks + b] = half(w);
    p.corr[static_cast<size_t>(pr) * p.blocks + b] = 128 * sum_i8x32(v);
  }
}

// The 8 six-bit scales and the 8 mins of a Q4_K / Q5_K super-block from its 12 packed bytes,
// four at a time in 32-bit words (k_scale_min's layout): scales as bytes, mins as bytes.
inline void k_scales_mins(const uint8_t* packed, uint64_t& scales, uint64_t& mins) {
  uint32_t u[3];
  std::memcpy(u, packed, 12);
  const uint32_t lo6 = 0x3f3f3f3f, lo4 = 0x0f0f0f0f, top2 = 0x03030303;
  const uint32_t s0 = u[0] & lo6, m0 = u[1] & lo6;
  const uint32_t s1 = (u[2] & lo4) | (((u[0] >> 6) & top2) << 4);
  const uint32_t m1 = ((u[2] >> 4) & lo4) | (((u[1] >> 6) & top2) << 4);
  scales = s0 | static_cast<uint64_t>(s1) << 32;
  mins = m0 | static_cast<uint64_t>(m1) << 32;
}

// Q4_K and Q5_K (five: the fifth bits).
void unpack_k_affine(const uint8_t* w, Panel& p, int pr, bool five) {
  const int bytes = five ? kQ5_KBlockBytes : kQ4_KBlockBytes;
  int8_t* q = p.q.data() + static_cast<size_t>(pr) * p.cols;
  for (int sb = 0; sb < p.blocks; ++sb, w += bytes, q += kKValues) {
    const size_t at = static_cast<size_t>(pr) * p.blocks + sb;
    uint64_t scales, mins;
    k_scales_mins(w + 4, scales, mins);
    const __m128i sc8 = _mm_cvtsi64_si128(static_cast<long long>(scales));  // (8) u8
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(p.sc.data() + static_cast<size_t>(pr) * p.groups + 8 * sb),
        _mm256_cvtepu8_epi32(sc8));
    // The mins as 8 int16: 4 words (m_2i low, m_2i+1 high).
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p.mins.data() + at * 4),
                     _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(mins))));
    const uint8_t* qs = five ? w + kQ5KLowAt : w + 16;
    const __m256i hbits = five ? load32(w + kQ5KHighAt) : _mm256_setzero_si256();
    // Σ_j sc_j Σ level: maddubs pairs (at most 2 * 63 * 31) summed over the 8 sub-blocks in int16
    // lanes (at most 8 * 3906 < 32768).
    __m256i wsum = _mm256_setzero_si256();
    for (int r = 0; r < 4; ++r) {
      __m256i lo, hi;
      qsimd::k_affine_levels(qs, hbits, five, r, lo, hi);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + 64 * r), lo);       // sub-block 2r
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + 64 * r + 32), hi);  // sub-block 2r + 1
      const auto s_lo = static_cast<char>((scales >> (16 * r)) & 0xff);
      const auto s_hi = static_cast<char>((scales >> (16 * r + 8)) & 0xff);
      wsum = _mm256_add_epi16(wsum, _mm256_maddubs_epi16(lo, _mm256_set1_epi8(s_lo)));
      wsum = _mm256_add_epi16(wsum, _mm256_maddubs_epi16(hi, _mm256_set1_epi8(s_hi)));
    }
    const __m256i w32 = _mm256_madd_epi16(wsum, _mm256_set1_epi16(1));  // (8) int32
    __m128i t = _mm_add_epi32(_mm256_castsi256_si128(w32), _mm256_extracti128_si256(w32, 1));
    t = _mm_add_epi32(t, _mm_unpackhi_epi64(t, t));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 1));
    p.corr[at] = 128 * _mm_cvtsi128_si32(t);
    p.d[at] = half(w);
    p.dmin[at] = half(w + 2);
  }
}

void unpack_q6_k(const uint8_t* w, Panel& p, int pr) {
  int8_t* q = p.q.data() + static_cast<size_t>(pr) * p.cols;
  const __m256i k32 = _mm256_set1_epi8(32);
  for (int sb = 0; sb < p.blocks; ++sb, w += kQ6_KBlockBytes, q += kKValues) {
    const size_t at = static_cast<size_t>(pr) * p.blocks + sb;
    int32_t* sc = p.sc.data() + static_cast<size_t>(pr) * p.groups + 16 * sb;
    for (int g = 0; g < 16; ++g) sc[g] = static_cast<int8_t>(w[kQ6KScalesAt + g]);
    int corr = 0;
    for (int h = 0; h < 2; ++h) {
      __m256i lev[4];
      qsimd::q6k_levels(w, h, lev);
      for (int g = 0; g < 4; ++g) {  // values 128 h + 32 g .. + 31: groups 8 h + 2 g, + 1
        const __m256i v = _mm256_sub_epi8(lev[g], k32);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + 128 * h + 32 * g), v);
        int s0, s1;
        sum_i8x16x2(v, s0, s1);
        corr += sc[8 * h + 2 * g] * s0 + sc[8 * h + 2 * g + 1] * s1;
      }
    }
    p.corr[at] = 128 * corr;
    p.d[at] = half(w + kQ6KDAt);
  }
}

void unpack_rows(const QMat& w, int r0, int n, Panel& p) {
  for (int i = 0; i < n; ++i) {
    const uint8_t* row = w.row(r0 + i);
    switch (w.type) {
      case QType::Q8_0:
        unpack_q8_0(row, p, i);
        break;
      case QType::Q4_0:
        unpack_q4_0(row, p, i);
        break;
      case QType::Q4_K:
        unpack_k_affine(row, p, i, false);
        break;
      case QType::Q5_K:
        unpack_k_affine(row, p, i, true);
        break;
      case QType::Q6_K:
        unpack_q6_k(row, p, i);
        break;
    }
  }
}

// ---- kernels --------------------------------------------------------------------------------

// R weight rows (panel rows pr ..) x TV token groups (tg0 ..): out[(r * TV + tv) * 16 + lane].
constexpr int kMaxR = 4, kMaxTV = 3;

inline int32_t load_i32(const int8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline __m512i dpbusd(__m512i acc, __m512i u, __m512i s) { return _mm512_dpbusd_epi32(acc, u, s); }

template <int R, int TV>
void kernel_blocks32(const Panel& p, int pr, const QTileActivation& a, int tg0, float* out) {
  const int cols = p.cols, nb = p.blocks;
  const uint8_t* ap[TV];
  const float* dx[TV];
  for (int tv = 0; tv < TV; ++tv) {
    ap[tv] = a.q.data() + static_cast<size_t>(tg0 + tv) * cols * kTileTokens;
    dx[tv] = a.d.data() + static_cast<size_t>(tg0 + tv) * nb * kTileTokens;
  }
  const int8_t* wq[R];
  const int32_t* corr[R];
  const float* wd[R];
  for (int r = 0; r < R; ++r) {
    wq[r] = p.q.data() + static_cast<size_t>(pr + r) * cols;
    corr[r] = p.corr.data() + static_cast<size_t>(pr + r) * nb;
    wd[r] = p.d.data() + static_cast<size_t>(pr + r) * nb;
  }
  __m512 acc[R][TV];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int tv = 0; tv < TV; ++tv) acc[r][tv] = _mm512_setzero_ps();
  }
  for (int b = 0; b < nb; ++b) {
    __m512i P[R][TV];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
      for (int tv = 0; tv < TV; ++tv) P[r][tv] = _mm512_setzero_si512();
    }
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      __m512i A[TV];
#pragma GCC unroll 4
      for (int tv = 0; tv < TV; ++tv) A[tv] = _mm512_loadu_si512(ap[tv] + (8 * b + k) * 64);
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) {
        const __m512i wv = _mm512_set1_epi32(load_i32(wq[r] + 32 * b + 4 * k));
#pragma GCC unroll 4
        for (int tv = 0; tv < TV; ++tv) P[r][tv] = dpbusd(P[r][tv], A[tv], wv);
      }
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const __m512i c = _mm512_set1_epi32(corr[r][b]);
      const __m512 dw = _mm512_set1_ps(wd[r][b]);
#pragma GCC unroll 4
      for (int tv = 0; tv < TV; ++tv) {
        const __m512 f = _mm512_cvtepi32_ps(_mm512_sub_epi32(P[r][tv], c));
        const __m512 s = _mm512_mul_ps(dw, _mm512_loadu_ps(dx[tv] + 16 * b));
        acc[r][tv] = _mm512_fmadd_ps(f, s, acc[r][tv]);
      }
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int tv = 0; tv < TV; ++tv) _mm512_storeu_ps(out + (r * TV + tv) * 16, acc[r][tv]);
  }
}

// The K-quants: kSix for Q6_K (groups of 16, no mins), else Q4_K / Q5_K (groups of 32, mins).
// The float accumulators live in `out` (touched once per super-block), the integer ones in
// registers.
template <int R, int TV, bool kSix>
void kernel_k(const Panel& p, int pr, const QTileActivation& a, int tg0, float* out) {
  constexpr int kGroup = kSix ? 16 : 32, kGroups = kKValues / kGroup, kSteps = kGroup / 4;
  const int cols = p.cols, nsb = p.blocks;
  const uint8_t* ap[TV];
  const float* dx[TV];
  const int32_t* xs[TV];
  for (int tv = 0; tv < TV; ++tv) {
    ap[tv] = a.q.data() + static_cast<size_t>(tg0 + tv) * cols * kTileTokens;
    dx[tv] = a.d.data() + static_cast<size_t>(tg0 + tv) * nsb * kTileTokens;
    xs[tv] = kSix ? nullptr : a.sums.data() + static_cast<size_t>(tg0 + tv) * (cols / 64) * kTileTokens;
  }
  const int8_t* wq[R];
  const int32_t* sc[R];
  const size_t at0 = static_cast<size_t>(pr) * nsb;
  for (int r = 0; r < R; ++r) {
    wq[r] = p.q.data() + static_cast<size_t>(pr + r) * cols;
    sc[r] = p.sc.data() + static_cast<size_t>(pr + r) * p.groups;
  }
  for (int i = 0; i < R * TV * 16; ++i) out[i] = 0.0f;
  for (int sb = 0; sb < nsb; ++sb) {
    __m512i S[R][TV];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
      for (int tv = 0; tv < TV; ++tv) S[r][tv] = _mm512_setzero_si512();
    }
    for (int g = 0; g < kGroups; ++g) {
      const int v0 = kKValues * sb + kGroup * g;  // first value of the group
      __m512i P[R][TV];
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
        for (int tv = 0; tv < TV; ++tv) P[r][tv] = _mm512_setzero_si512();
      }
#pragma GCC unroll 8
      for (int k = 0; k < kSteps; ++k) {
        __m512i A[TV];
#pragma GCC unroll 4
        for (int tv = 0; tv < TV; ++tv) A[tv] = _mm512_loadu_si512(ap[tv] + (v0 / 4 + k) * 64);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) {
          const __m512i wv = _mm512_set1_epi32(load_i32(wq[r] + v0 + 4 * k));
#pragma GCC unroll 4
          for (int tv = 0; tv < TV; ++tv) P[r][tv] = dpbusd(P[r][tv], A[tv], wv);
        }
      }
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) {
        const __m512i s = _mm512_set1_epi32(sc[r][kGroups * sb + g]);
#pragma GCC unroll 4
        for (int tv = 0; tv < TV; ++tv) {
          S[r][tv] = _mm512_add_epi32(S[r][tv], _mm512_mullo_epi32(P[r][tv], s));
        }
      }
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const size_t at = at0 + static_cast<size_t>(r) * nsb + sb;
      const __m512i c = _mm512_set1_epi32(p.corr[at]);
      const __m512 d = _mm512_set1_ps(p.d[at]);
#pragma GCC unroll 4
      for (int tv = 0; tv < TV; ++tv) {
        float* o = out + (r * TV + tv) * 16;
        const __m512 dxv = _mm512_loadu_ps(dx[tv] + 16 * sb);
        const __m512 f = _mm512_cvtepi32_ps(_mm512_sub_epi32(S[r][tv], c));
        if constexpr (kSix) {
          _mm512_storeu_ps(o, _mm512_fmadd_ps(f, _mm512_mul_ps(d, dxv), _mm512_loadu_ps(o)));
        } else {
          __m512i m = _mm512_setzero_si512();
#pragma GCC unroll 4
          for (int i = 0; i < 4; ++i) {
            m = _mm512_dpwssd_epi32(m, _mm512_loadu_si512(xs[tv] + (4 * sb + i) * 16),
                                    _mm512_set1_epi32(p.mins[at * 4 + i]));
          }
          const __m512 v = _mm512_fnmadd_ps(_mm512_cvtepi32_ps(m), _mm512_set1_ps(p.dmin[at]),
                                            _mm512_mul_ps(f, d));
          _mm512_storeu_ps(o, _mm512_fmadd_ps(v, dxv, _mm512_loadu_ps(o)));
        }
      }
    }
  }
}

using KernelFn = void (*)(const Panel&, int, const QTileActivation&, int, float*);

template <int R, int TV>
KernelFn pick(Kind kind) {
  switch (kind) {
    case Kind::Blocks32:
      return &kernel_blocks32<R, TV>;
    case Kind::KAffine:
      return &kernel_k<R, TV, false>;
    case Kind::KSix:
      break;
  }
  return &kernel_k<R, TV, true>;
}

template <int R>
KernelFn pick_tv(Kind kind, int tv) {
  return tv == 1 ? pick<R, 1>(kind) : tv == 2 ? pick<R, 2>(kind) : pick<R, 3>(kind);
}

KernelFn pick_kernel(Kind kind, int r, int tv) {
  switch (r) {
    case 1:
      return pick_tv<1>(kind, tv);
    case 2:
      return pick_tv<2>(kind, tv);
    case 3:
      return pick_tv<3>(kind, tv);
  }
  return pick_tv<4>(kind, tv);
}

}  // namespace

void qtile_rows(const QMat& w, const QTileActivation& a, int row_begin, int row_end, float* y,
                int ldy, const float* bias, bool accumulate) {
  if (row_end <= row_begin || a.rows <= 0) return;
  thread_local Panel panel;
  // The panel's outputs, (groups * 16, kPanelRows): written by the kernels here and copied to y
  // a token row at a time (y's rows are far apart: 16 of them written together would share a
  // cache set).
  thread_local std::vector<float> ybuf;
  const Kind kind = kind_of(w.type);
  size_panel(panel, kind, w.cols);
  ybuf.resize(static_cast<size_t>(a.groups) * kTileTokens * kPanelRows);
  alignas(64) float out[kMaxR * kMaxTV * kTileTokens];
  for (int r0 = row_begin; r0 < row_end; r0 += kPanelRows) {
    const int n = std::min(kPanelRows, row_end - r0);
    unpack_rows(w, r0, n, panel);
    for (int tg0 = 0; tg0 < a.groups; tg0 += kMaxTV) {
      const int tvn = std::min(kMaxTV, a.groups - tg0);
      for (int rr = 0; rr < n; rr += kMaxR) {
        const int rn = std::min(kMaxR, n - rr);
        pick_kernel(kind, rn, tvn)(panel, rr, a, tg0, out);
        if (rn == 4) {  // 4 rows x 16 tokens to 16 tokens x 4 rows: a 4 x 4 transpose per lane
          for (int tv = 0; tv < tvn; ++tv) {
            float* dst = ybuf.data() + static_cast<size_t>(tg0 + tv) * kTileTokens * kPanelRows + rr;
            const float* o = out + tv * kTileTokens;
            const __m512 v0 = _mm512_load_ps(o), v1 = _mm512_load_ps(o + 16 * tvn);
            const __m512 v2 = _mm512_load_ps(o + 32 * tvn), v3 = _mm512_load_ps(o + 48 * tvn);
            const __m512 t0 = _mm512_unpacklo_ps(v0, v1), t1 = _mm512_unpackhi_ps(v0, v1);
            const __m512 t2 = _mm512_unpacklo_ps(v2, v3), t3 = _mm512_unpackhi_ps(v2, v3);
            // u_k: 128-bit lane i holds token 4 i + k's 4 rows
            const __m512 u[4] = {_mm512_shuffle_ps(t0, t2, 0x44), _mm512_shuffle_ps(t0, t2, 0xee),
                                 _mm512_shuffle_ps(t1, t3, 0x44), _mm512_shuffle_ps(t1, t3, 0xee)};
            for (int k = 0; k < 4; ++k) {
              _mm_storeu_ps(dst + (k + 0) * kPanelRows, _mm512_castps512_ps128(u[k]));
              _mm_storeu_ps(dst + (k + 4) * kPanelRows, _mm512_extractf32x4_ps(u[k], 1));
              _mm_storeu_ps(dst + (k + 8) * kPanelRows, _mm512_extractf32x4_ps(u[k], 2));
              _mm_storeu_ps(dst + (k + 12) * kPanelRows, _mm512_extractf32x4_ps(u[k], 3));
            }
          }
          continue;
        }
        for (int r = 0; r < rn; ++r) {
          for (int tv = 0; tv < tvn; ++tv) {
            const float* o = out + (r * tvn + tv) * kTileTokens;
            float* dst = ybuf.data() + static_cast<size_t>(tg0 + tv) * kTileTokens * kPanelRows +
                         rr + r;
            for (int l = 0; l < kTileTokens; ++l) dst[l * kPanelRows] = o[l];
          }
        }
      }
    }
    // y row t, columns r0 .. r0 + n: (accumulate ? y : 0) + (out + bias), 16 at a time.
    __m512 bv[kPanelRows / 16];
    __mmask16 mk[kPanelRows / 16];
    for (int i = 0; i < kPanelRows / 16; ++i) {
      const int m = std::clamp(n - 16 * i, 0, 16);
      mk[i] = static_cast<__mmask16>((1u << m) - 1u);
      bv[i] = bias ? _mm512_maskz_loadu_ps(mk[i], bias + r0 + 16 * i) : _mm512_setzero_ps();
    }
    for (int t = 0; t < a.rows; ++t) {
      const float* src = ybuf.data() + static_cast<size_t>(t) * kPanelRows;
      float* dst = y + static_cast<size_t>(t) * ldy + r0;
      for (int i = 0; i < kPanelRows / 16; ++i) {
        if (!mk[i]) break;
        __m512 v = _mm512_add_ps(_mm512_loadu_ps(src + 16 * i), bv[i]);
        if (accumulate) v = _mm512_add_ps(_mm512_maskz_loadu_ps(mk[i], dst + 16 * i), v);
        _mm512_mask_storeu_ps(dst + 16 * i, mk[i], v);
      }
    }
  }
}

#else  // no AVX-512 VNNI: the callers keep their own path

bool qtile_available() { return false; }
void qtile_pack(const float*, int, QTileActivation&, int, int) {}
void qtile_rows(const QMat&, const QTileActivation&, int, int, float*, int, const float*, bool) {}

#endif

}  // namespace ts
