// The plain-loop quantized dot products (quant_dot.h): the reference arithmetic, block by block.
// With weight levels q_w and activation levels q_x, per 32-value block b (Q8_0, Q4_0) or per
// 256-value super-block (K-quants, whose activation has one scale d_x per super-block):
//   Q8_0, Q4_0:  d_w * d_x[b] * Σ (q_w - offset) q_x          (offset 0 / 8)
//   Q4_K, Q5_K:  d_x * (d * Σ_j sc_j Σ q_w q_x  -  dmin * Σ_j m_j Σ q_x)   (sub-blocks j of 32)
//   Q6_K:        d_x * d * Σ_g sc_g (Σ q_w q_x - 32 Σ q_x)                 (groups g of 16)
// The sums inside d_x * (...) are exact integers.
#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_dot.h"

// GCC 12.2 with -march=native on a CPU with VNNI miscompiles the auto-vectorised signed-byte dot
// product below (the int8 x int8 sum came out wrong on every row; found by the agreement test
// against fp32); the reference loops are kept scalar, as their name says.
#if defined(__GNUC__) && !defined(__clang__)
#define TS_SCALAR_LOOP __attribute__((optimize("no-tree-vectorize")))
#else
#define TS_SCALAR_LOOP
#endif

namespace ts {

namespace {

TS_SCALAR_LOOP float ref_q8_0(const uint8_t* w, int cols, const QActRow& x) {
  float s = 0.0f;
  for (int b = 0; b < cols / 32; ++b, w += kQ8_0BlockBytes) {
    int acc = 0;
    for (int l = 0; l < 32; ++l) acc += static_cast<int8_t>(w[2 + l]) * x.q[32 * b + l];
    s += half_at(w) * x.d[b] * static_cast<float>(acc);
  }
  return s;
}

TS_SCALAR_LOOP float ref_q4_0(const uint8_t* w, int cols, const QActRow& x) {
  float s = 0.0f;
  for (int b = 0; b < cols / 32; ++b, w += kQ4_0BlockBytes) {
    int acc = 0;
    for (int l = 0; l < 16; ++l) {
      acc += ((w[2 + l] & 15) - 8) * x.q[32 * b + l];
      acc += ((w[2 + l] >> 4) - 8) * x.q[32 * b + 16 + l];
    }
    s += half_at(w) * x.d[b] * static_cast<float>(acc);
  }
  return s;
}

// Q4_K and Q5_K (five: with the fifth bits).
TS_SCALAR_LOOP float ref_k_affine(const uint8_t* w, int cols, const QActRow& x, bool five) {
  const int bytes = five ? kQ5_KBlockBytes : kQ4_KBlockBytes;
  float s = 0.0f;
  for (int sb = 0; sb < cols / kKValues; ++sb, w += bytes) {
    const float d = half_at(w), dmin = half_at(w + 2);
    const uint8_t* packed = w + 4;
    const uint8_t* qh = five ? w + kQ5KHighAt : nullptr;
    const uint8_t* qs = five ? w + kQ5KLowAt : w + 16;
    const int8_t* xq = x.q + kKValues * sb;
    int sumi = 0, summ = 0;
    for (int j = 0; j < 8; ++j) {
      int sc, mn;
      k_scale_min(packed, j, sc, mn);
      int acc = 0;
      for (int l = 0; l < 32; ++l) {
        int q = (qs[(j / 2) * 32 + l] >> (4 * (j % 2))) & 15;
        if (qh) q |= ((qh[l] >> j) & 1) << 4;
        acc += q * xq[32 * j + l];
      }
      sumi += sc * acc;
      summ += mn * (x.sum16[16 * sb + 2 * j] + x.sum16[16 * sb + 2 * j + 1]);
    }
    s += x.d[sb] * (d * static_cast<float>(sumi) - dmin * static_cast<float>(summ));
  }
  return s;
}

TS_SCALAR_LOOP float ref_q6_k(const uint8_t* w, int cols, const QActRow& x) {
  float s = 0.0f;
  for (int sb = 0; sb < cols / kKValues; ++sb, w += kQ6_KBlockBytes) {
    const float d = half_at(w + kQ6KDAt);
    int sumi = 0;
    for (int g16 = 0; g16 < 16; ++g16) {  // 16-value group: value i = 16 g16 + l
      int acc = 0;
      for (int l = 0; l < 16; ++l) {
        const int i = 16 * g16 + l, h = i / 128, g = (i % 128) / 32, ll = i % 32;
        const int low = (w[64 * h + ll + 32 * (g % 2)] >> (g < 2 ? 0 : 4)) & 15;
        const int high = (w[kQ6KHighAt + 32 * h + ll] >> (2 * g)) & 3;
        acc += (low | (high << 4)) * x.q[kKValues * sb + i];
      }
      acc -= 32 * x.sum16[16 * sb + g16];
      sumi += static_cast<int8_t>(w[kQ6KScalesAt + g16]) * acc;
    }
    s += x.d[sb] * d * static_cast<float>(sumi);
  }
  return s;
}

}  // namespace

float qdot_row_scalar(QType t, const uint8_t* w_row, int cols, const QActRow& x) {
  switch (t) {
    case QType::Q8_0:
      return ref_q8_0(w_row, cols, x);
    case QType::Q4_0:
      return ref_q4_0(w_row, cols, x);
    case QType::Q4_K:
      return ref_k_affine(w_row, cols, x, false);
    case QType::Q5_K:
      return ref_k_affine(w_row, cols, x, true);
    case QType::Q6_K:
      return ref_q6_k(w_row, cols, x);
  }
  return 0.0f;
}

}  // namespace ts
