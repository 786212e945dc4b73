// Few-row unembedding: Y (T, out) = X (T, in) · Wᵀ for a handful of rows T (the final position,
// or the final position plus every block's logit-lens row), W row-major (out, in). Each weight row
// is read from memory once and dotted with all T rows while it sits in the L1 cache, so T rows
// cost about what one row costs (the product is memory-bound). Every output is one dot product
// in a fixed order, so a row's result is bit-identical whether it goes alone or with others, and
// whatever the thread count. A GEMM (linear.h) would pack the whole matrix first for so few rows.
#pragma once
#include "base/tensor.h"
#include "engine/thread_pool.h"

namespace ts {

// Σ a[i]·b[i] over n, in the fixed order every output of dot_rows uses.
float dot_fixed(const float* a, const float* b, int n);

// y row t (ldy apart) = W · x row t (ldx apart), t < T; W's rows are split across the pool.
void dot_rows(ThreadPool& pool, const Mat& w, const float* x, int ldx, int T, float* y, int ldy);
// The same outputs for W's rows [rows.begin, rows.end) only, on the calling thread (inside a job
// already split across the pool): y[t * ldy + (r - rows.begin)] = W row r · x row t.
void dot_rows_range(const Mat& w, Range rows, const float* x, int ldx, int T, float* y, int ldy);

}  // namespace ts
