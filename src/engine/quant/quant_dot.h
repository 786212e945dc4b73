// One quantized weight row dotted with one 8-bit activation row (qmat.h): integer products
// within each 32-value block (16 for Q6_K's scales), scaled by the weight's and the activation's
// block scales and summed in float. Implementations of the same arithmetic: AVX-512 (VNNI) or
// AVX2 where the compiler targets it, and a plain loop (the fallback elsewhere, and the
// reference in tests). They differ only in the order of the float sums.
#pragma once
#include <cstddef>
#include <cstdint>

#include "engine/quant/qmat.h"

namespace ts {

// The activation row: d (cols / 32 scales), q (cols int8), sum16 (cols / 16 sums of q).
struct QActRow {
  const float* d;
  const int8_t* q;
  const int16_t* sum16;
};

float qdot_row(QType t, const uint8_t* w_row, int cols, const QActRow& x);
// n consecutive rows (row_bytes apart, from w) dotted with x into y[0..n): y[i] is bit for bit
// qdot_row(t, w + i * row_bytes, cols, x), whatever n: the rows are taken one after the other,
// so the weights are read as one stream (see quant_dot.cpp for why not several rows at once).
void qdot_rows(QType t, const uint8_t* w, size_t row_bytes, int n, int cols, const QActRow& x,
               float* y);
float qdot_row_scalar(QType t, const uint8_t* w_row, int cols, const QActRow& x);
// Which: "AVX-512 VNNI", "AVX2" or "none (plain loops)".
const char* qdot_kernels();

}  // namespace ts
