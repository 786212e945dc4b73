// Quantized matrices: shapes and decoding, activation quantization, and the threaded few-row
// product (see qmat.h). The row split is static and each output is one qdot_row, so results do
// not depend on the thread count or on how many activation rows go together.
#include "engine/quant/qmat.h"

#include <algorithm>
#include <cmath>

#include "engine/quant/quant_blocks.h"
#include "engine/quant/quant_dot.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace ts {

namespace {

// Below this many weight bytes x rows the product runs on the calling thread only.
constexpr double kMinParallelQuantBytes = 24.0 * 1024;
constexpr int kQuantChunksPerThread = 4;

}  // namespace

const char* qtype_name(QType t) {
  switch (t) {
    case QType::Q8_0:
      return "Q8_0";
    case QType::Q4_0:
      return "Q4_0";
    case QType::Q4_K:
      return "Q4_K";
    case QType::Q5_K:
      return "Q5_K";
    case QType::Q6_K:
      return "Q6_K";
  }
  return "?";
}

int qtype_block_values(QType t) { return t == QType::Q8_0 || t == QType::Q4_0 ? 32 : kKValues; }

int qtype_act_block(QType t) { return qtype_block_values(t); }

int qtype_block_bytes(QType t) {
  switch (t) {
    case QType::Q8_0:
      return kQ8_0BlockBytes;
    case QType::Q4_0:
      return kQ4_0BlockBytes;
    case QType::Q4_K:
      return kQ4_KBlockBytes;
    case QType::Q5_K:
      return kQ5_KBlockBytes;
    case QType::Q6_K:
      return kQ6_KBlockBytes;
  }
  return 0;
}

QMat make_qmat(QType t, int rows, int cols) {
  QMat m;
  m.type = t;
  m.rows = rows;
  m.cols = cols;
  m.row_bytes = static_cast<size_t>(cols / qtype_block_values(t)) * qtype_block_bytes(t);
  m.blocks.assign(m.row_bytes * static_cast<size_t>(rows), 0);
  return m;
}

void qmat_row_f32(const QMat& m, int r, float* out) {
  const int n = qtype_block_values(m.type), bytes = qtype_block_bytes(m.type);
  const uint8_t* blk = m.row(r);
  for (int b = 0; b < m.cols / n; ++b, blk += bytes, out += n) {
    switch (m.type) {
      case QType::Q8_0:
        decode_q8_0_block(blk, out);
        break;
      case QType::Q4_0:
        decode_q4_0_block(blk, out);
        break;
      case QType::Q4_K:
        decode_q4_k_block(blk, out);
        break;
      case QType::Q5_K:
        decode_q5_k_block(blk, out);
        break;
      case QType::Q6_K:
        decode_q6_k_block(blk, out);
        break;
    }
  }
}

Mat qmat_to_mat(const QMat& m) {
  Mat out(m.rows, m.cols);
  for (int r = 0; r < m.rows; ++r) qmat_row_f32(m, r, out.row(r).data());
  return out;
}

namespace {

#if defined(__AVX2__)
// One block's levels with AVX2, the same arithmetic as the plain loop: the same amax, d and
// 1 / d, and cvtps rounds to nearest even as lrint does (in the default rounding mode).
void quantize_block(const float* v, int block, float& d_out, int8_t* q) {
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  __m256 m = _mm256_setzero_ps();
  for (int l = 0; l < block; l += 8)
    m = _mm256_max_ps(m, _mm256_and_ps(_mm256_loadu_ps(v + l), abs_mask));
  __m128 m4 = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
  m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
  m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
  const float amax = _mm_cvtss_f32(m4);
  const float d = amax / 127.0f, id = d > 0.0f ? 1.0f / d : 0.0f;
  d_out = d;
  const __m256 vid = _mm256_set1_ps(id);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  for (int l = 0; l < block; l += 32) {
    __m256i i32[4];
    for (int k = 0; k < 4; ++k) {
      i32[k] = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(v + l + 8 * k), vid));
    }
    // |levels| <= 127: the saturating packs keep them; the permute undoes their lane order.
    const __m256i i16a = _mm256_packs_epi32(i32[0], i32[1]),
                  i16b = _mm256_packs_epi32(i32[2], i32[3]);
    const __m256i i8 = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(i16a, i16b), order);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + l), i8);
  }
}
#else
void quantize_block(const float* v, int block, float& d_out, int8_t* q) {
  float amax = 0.0f;
  for (int l = 0; l < block; ++l) amax = std::max(amax, std::fabs(v[l]));
  const float d = amax / 127.0f, id = d > 0.0f ? 1.0f / d : 0.0f;
  d_out = d;
  for (int l = 0; l < block; ++l) q[l] = static_cast<int8_t>(std::lrint(v[l] * id));
}
#endif

}  // namespace

void quantize_activation(const float* x, int ldx, int rows, int cols, int block, QActivation& a) {
  a.rows = rows;
  a.cols = cols;
  a.block = block;
  const int nb = cols / block;
  a.d.resize(static_cast<size_t>(rows) * nb);
  a.q.resize(static_cast<size_t>(rows) * cols);
  a.sum16.resize(static_cast<size_t>(rows) * cols / 16);
  for (int t = 0; t < rows; ++t) {
    const float* xr = x + static_cast<size_t>(t) * ldx;
    int8_t* qr = a.q.data() + static_cast<size_t>(t) * cols;
    for (int b = 0; b < nb; ++b) {
      quantize_block(xr + block * b, block, a.d[static_cast<size_t>(t) * nb + b], qr + block * b);
    }
    int16_t* s = a.sum16.data() + static_cast<size_t>(t) * cols / 16;
    for (int g = 0; g < cols / 16; ++g) {
      int sum = 0;
      for (int l = 0; l < 16; ++l) sum += qr[16 * g + l];
      s[g] = static_cast<int16_t>(sum);
    }
  }
}

void qmat_dot_rows(ThreadPool& pool, const QMat& w, const QActivation& a, float* y, int ldy) {
  const double work = static_cast<double>(w.bytes()) * a.rows;
  const int n_chunks =
      pool.size() > 1 && work >= kMinParallelQuantBytes ? kQuantChunksPerThread * pool.size() : 1;
  const int nb = a.cols / a.block;
  pool.run(n_chunks, [&](int chunk, int nc) {
    const Range rows = split_range(w.rows, chunk, nc, 16);
    for (int t = 0; t < a.rows; ++t) {
      const QActRow x{a.d.data() + static_cast<size_t>(t) * nb,
                      a.q.data() + static_cast<size_t>(t) * a.cols,
                      a.sum16.data() + static_cast<size_t>(t) * a.cols / 16};
      qdot_rows(w.type, w.row(rows.begin), w.row_bytes, rows.size(), w.cols, x,
                y + static_cast<size_t>(t) * ldy + rows.begin);
    }
  });
}

}  // namespace ts
