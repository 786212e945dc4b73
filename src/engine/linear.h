// Linear layers of a batch of positions: Y (T, out) = X (T, in) · Wᵀ (+ bias), W row-major
// (out, in). T == 1 (decode) is a matrix-vector product per weight row block; a short pass
// (T <= kShortPassRows) the same dot products for each row; a longer one (prefill) an Eigen GEMM
// per output-column block. Several projections of the same step (Q, K, V or gate, up) go out as
// one pool job; each thread takes a contiguous block of every W's rows.
// No allocation for T == 1. Not the attention products (attention.h).
// A projection whose weights are kept quantized (`q`, qmat.h) computes from the blocks with the
// input quantized to 8-bit blocks: in a short pass integer dot products per weight row, in a
// longer one integer tiles of weight rows x 16-token groups (quant_tile.h; where the CPU lacks
// AVX-512 VNNI, a tile of weight rows decoded to fp32 and multiplied as a GEMM).
#pragma once
#include <initializer_list>

#include "base/tensor.h"
#include "engine/quant/qmat.h"
#include "engine/thread_pool.h"

namespace ts {

// A pass of at most this many rows (besides a decode's one) computes every row exactly as a
// decode step would: fp32 projections as fixed-order dot products (dot_rows.h), quantized ones
// as the decode's integer dot products on each input row quantized alone, attention one query
// row at a time (attention.h), so its rows are bit-identical to feeding the tokens one by one,
// and each weight row is read once for all of them (a short pass costs about one decode step
// where decode is memory-bound). Speculative decoding's verification pass relies on both.
inline constexpr int kShortPassRows = 16;

struct Projection {
  const Mat* w = nullptr;     // (out, in); 0x0 when q holds the weights
  const Vec* bias = nullptr;  // (out); nullptr or empty = none
  const float* x = nullptr;   // (T, in) rows ldx apart
  int ldx = 0;
  float* y = nullptr;         // (T, out) rows ldy apart
  int ldy = 0;
  bool accumulate = false;    // Y += X·Wᵀ (+ bias) instead of Y = ...
  const QMat* q = nullptr;    // (out, in) quantized; used instead of w when not empty
};

// Runs every projection for T rows, splitting W rows across the pool (a single thread when the
// whole job is too small to be worth waking the others).
void project(ThreadPool& pool, int T, std::initializer_list<Projection> jobs);

}  // namespace ts
