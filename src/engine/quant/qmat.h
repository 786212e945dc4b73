// A weight matrix kept in its file's quantized blocks (Q8_0, Q4_0, Q4_K, Q5_K, Q6_K) and the
// products computed from those blocks, so a 4-bit model takes about its file size in memory and
// a decode step reads about the file's bytes, not four to eight times more.
//   Decode (few rows): each activation row is quantized to 8-bit blocks (a float scale per 32
//   values for Q8_0 and Q4_0, per 256 for the K-quants, as llama.cpp does with its own 8-bit
//   activation blocks), then every output is an integer dot product of one weight row with it,
//   scaled block by block (quant_dot.h).
//   Prefill (many rows): the activation rows are quantized the same way, once per product, and
//   packed 16 tokens to a vector; a panel of weight rows is unpacked once (one signed level per
//   byte, the integer scales and mins) and multiplied with every 16-token group by integer
//   tiles (VNNI dpbusd: 4 levels of a weight row against 4 levels of 16 tokens), the block
//   scales applied per 16 tokens (quant_tile.h). Where the CPU has no AVX-512 VNNI (and in the
//   WebAssembly build), a tile of weight rows is decoded to fp32 and multiplied as a GEMM.
// Both keep a row's result independent of the thread count and of how many rows go together.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/tensor.h"
#include "engine/thread_pool.h"

namespace ts {

enum class QType : uint8_t { Q8_0, Q4_0, Q4_K, Q5_K, Q6_K };

const char* qtype_name(QType t);  // "Q8_0", ...
int qtype_block_values(QType t);  // 32 or 256
int qtype_block_bytes(QType t);   // 34, 18, 144, 176, 210
int qtype_act_block(QType t);     // values per activation scale: 32, or 256 (K-quants)

struct QMat {
  QType type = QType::Q8_0;
  int rows = 0, cols = 0;       // (rows, cols), cols a multiple of the block's values
  size_t row_bytes = 0;         // cols / block_values * block_bytes
  std::vector<uint8_t> blocks;  // (rows, row_bytes), row-major like Mat

  bool empty() const { return rows == 0; }
  const uint8_t* row(int r) const { return blocks.data() + static_cast<size_t>(r) * row_bytes; }
  size_t bytes() const { return blocks.size(); }
};

// An empty QMat of the given shape with zeroed blocks (cols must be a multiple of the block).
QMat make_qmat(QType t, int rows, int cols);
// Row r decoded to fp32 into out (cols values).
void qmat_row_f32(const QMat& m, int r, float* out);
// The whole matrix decoded (rows, cols).
Mat qmat_to_mat(const QMat& m);

// Activation rows quantized for the integer dot products: per block of `block` values a float
// scale d = max|x| / 127 and int8 q = round(x / d); also the sum of q over every 16 values for
// the weight types with an offset (Q4_K, Q5_K's mins; Q6_K's -32).
struct QActivation {
  int rows = 0, cols = 0;      // (rows, cols), cols a multiple of block
  int block = 32;              // 32 or 256 values per scale
  std::vector<float> d;        // (rows, cols / block)
  std::vector<int8_t> q;       // (rows, cols)
  std::vector<int16_t> sum16;  // (rows, cols / 16)
};
// x row t at x + t * ldx; reuses `a`'s storage.
void quantize_activation(const float* x, int ldx, int rows, int cols, int block, QActivation& a);

// y row t (ldy apart) = W · activation row t, for every row of W, split across the pool.
void qmat_dot_rows(ThreadPool& pool, const QMat& w, const QActivation& a, float* y, int ldy);

}  // namespace ts
