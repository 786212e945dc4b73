// Threaded projections (see linear.h). The row split is static (chunk c always covers the same
// rows, whichever thread runs it) and a row's dot product does not depend on its block, so
// decode results are bit-identical from run to run and across thread counts.
#include "engine/linear.h"

#include <algorithm>
#include <vector>

#include "engine/dot_rows.h"
#include "engine/quant/quant_dot.h"
#include "engine/quant/quant_tile.h"

namespace ts {

namespace {

using StridedMap = Eigen::Map<Mat, 0, Eigen::OuterStride<>>;
using ConstStridedMap = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>;

// Below this many multiply-adds a job runs on the calling thread only.
constexpr double kMinParallelLinearMacs = 48.0 * 1024;
// Chunks per pool thread for a matrix-vector product (decode): with several, a thread the OS
// delays leaves its share to the others.
constexpr int kChunksPerThread = 4;
// For a matrix-matrix product (prefill) one chunk per thread: each chunk's GEMM packs the whole
// activation block X again, so more chunks would repeat that copy.
constexpr int kGemmChunksPerThread = 1;
// Weight rows decoded to fp32 at once for a quantized prefill: as many as fit in about 1 MiB (the
// L2 cache), at most 256. Larger tiles mean fewer GEMM calls, each repacking the activations
// (110M shape, 512 tokens: 64 rows 1,590 tokens/s, 128-512 rows 1,700-1,760).
constexpr int kQuantTileMaxRows = 256;
constexpr size_t kQuantTileBytes = size_t{1} << 20;

bool quantized(const Projection& p) { return p.q && !p.q->empty(); }
int out_rows(const Projection& p) { return quantized(p) ? p.q->rows : static_cast<int>(p.w->rows()); }
double weight_count(const Projection& p) {
  return quantized(p) ? static_cast<double>(p.q->rows) * p.q->cols
                      : static_cast<double>(p.w->size());
}

// Quantized weights, a decode's one input row or a short pass's few: integer dot products
// against each quantized input row, every row exactly as a decode step computes it.
// Each weight row is dotted with every input row while it sits in the L1 cache.
void project_rows_q1(const Projection& p, const QActivation& a, Range rows) {
  const bool has_bias = p.bias && p.bias->size();
  const int nb = a.cols / a.block;
  for (int r = rows.begin; r < rows.end; ++r) {
    for (int t = 0; t < a.rows; ++t) {
      const QActRow x{a.d.data() + static_cast<size_t>(t) * nb,
                      a.q.data() + static_cast<size_t>(t) * a.cols,
                      a.sum16.data() + static_cast<size_t>(t) * a.cols / 16};
      float* y = p.y + static_cast<size_t>(t) * p.ldy;
      float v = qdot_row(p.q->type, p.q->row(r), p.q->cols, x);
      if (has_bias) v += (*p.bias)[r];
      y[r] = p.accumulate ? y[r] + v : v;
    }
  }
}

// Weight rows per fp32 tile for `in` columns (a multiple of 16).
int quant_tile_rows(int in) {
  const int rows = std::clamp(
      static_cast<int>(kQuantTileBytes / (sizeof(float) * static_cast<size_t>(in))), 16,
      kQuantTileMaxRows);
  return rows / 16 * 16;
}

// Quantized weights, T input rows: tiles of weight rows decoded to fp32, then a GEMM per tile.
// `rows` starts on a multiple of the tile size, so the tiles (and the GEMMs' shapes, on which
// their rounding depends) are the same whatever the number of threads.
void project_rows_qt(const Projection& p, int T, Range rows) {
  thread_local std::vector<float> tile;  // (tile_rows, in)
  const int in = p.q->cols;
  const int tile_rows = quant_tile_rows(in);
  tile.resize(static_cast<size_t>(tile_rows) * in);
  const bool has_bias = p.bias && p.bias->size();
  ConstStridedMap x(p.x, T, in, Eigen::OuterStride<>(p.ldx));  // (T, in)
  for (int r0 = rows.begin; r0 < rows.end; r0 += tile_rows) {
    const int n = std::min(tile_rows, rows.end - r0);
    for (int i = 0; i < n; ++i) qmat_row_f32(*p.q, r0 + i, tile.data() + static_cast<size_t>(i) * in);
    ConstMatMap w_tile(tile.data(), n, in);                                     // (n, in)
    StridedMap y(p.y + r0, T, n, Eigen::OuterStride<>(p.ldy));                  // (T, n)
    if (p.accumulate) {
      y.noalias() += x * w_tile.transpose();
    } else {
      y.noalias() = x * w_tile.transpose();
    }
    if (has_bias) y.rowwise() += p.bias->segment(r0, n).transpose();
  }
}

void project_rows(const Projection& p, int T, Range rows) {
  if (rows.size() <= 0) return;
  const Mat& w = *p.w;
  const auto w_rows = w.middleRows(rows.begin, rows.size());  // (rows, in)
  const bool has_bias = p.bias && p.bias->size();
  if (T == 1) {  // one sequential stream per weight row (dot_rows.h), faster than a GEMV here
    const int in = static_cast<int>(w.cols());
    for (int r = rows.begin; r < rows.end; ++r) {
      const float v = dot_fixed(w.row(r).data(), p.x, in);
      p.y[r] = p.accumulate ? p.y[r] + v : v;
      if (has_bias) p.y[r] += (*p.bias)[r];
    }
    return;
  }
  if (T <= kShortPassRows) {  // a short pass: each row's outputs as a decode step computes them
    thread_local std::vector<float> part;  // (T, rows)
    const int n = rows.size();
    part.resize(static_cast<size_t>(T) * n);
    dot_rows_range(w, rows, p.x, p.ldx, T, part.data(), n);
    for (int t = 0; t < T; ++t) {
      float* y = p.y + static_cast<size_t>(t) * p.ldy;
      for (int i = 0; i < n; ++i) {
        const int r = rows.begin + i;
        const float v = part[static_cast<size_t>(t) * n + i];
        y[r] = p.accumulate ? y[r] + v : v;
        if (has_bias) y[r] += (*p.bias)[r];
      }
    }
    return;
  }
  ConstStridedMap x(p.x, T, w.cols(), Eigen::OuterStride<>(p.ldx));                // (T, in)
  StridedMap y(p.y + rows.begin, T, rows.size(), Eigen::OuterStride<>(p.ldy));     // (T, rows)
  if (p.accumulate) {
    y.noalias() += x * w_rows.transpose();
  } else {
    y.noalias() = x * w_rows.transpose();
  }
  if (has_bias) y.rowwise() += p.bias->segment(rows.begin, rows.size()).transpose();
}

}  // namespace

void project(ThreadPool& pool, int T, std::initializer_list<Projection> jobs) {
  // A decode's (or short pass's) quantized input, once per distinct input (Q, K and V share
  // theirs); for a longer prefill, the input rows quantized and packed for the integer tiles
  // (quant_tile.h), once per distinct input, packed by all threads before the products start.
  constexpr int kMaxJobs = 4;
  thread_local QActivation acts[kMaxJobs];
  thread_local QTileActivation tacts[kMaxJobs];
  const float* act_of[kMaxJobs] = {};
  const QActivation* job_act[kMaxJobs] = {};
  const float* tact_of[kMaxJobs] = {};
  int tact_ldx[kMaxJobs] = {};
  const QTileActivation* job_tact[kMaxJobs] = {};
  double macs = 0;
  int j = 0, n_acts = 0, n_tacts = 0;
  bool all_tiles = true;
  for (const Projection& p : jobs) {
    macs += static_cast<double>(T) * weight_count(p);
    if (T > kShortPassRows && quantized(p) && j < kMaxJobs && qtile_available()) {
      const int block = qtype_act_block(p.q->type);
      int k = 0;
      while (k < n_tacts && (tact_of[k] != p.x || tacts[k].block != block)) ++k;
      if (k == n_tacts) {
        qtile_prepare(tacts[k], T, p.q->cols, block);
        tact_of[n_tacts] = p.x;
        tact_ldx[n_tacts++] = p.ldx;
      }
      job_tact[j] = &tacts[k];
    } else if (T > kShortPassRows) {
      all_tiles = false;
    }
    if (T <= kShortPassRows && quantized(p) && j < kMaxJobs) {
      const int block = qtype_act_block(p.q->type);
      int k = 0;
      while (k < n_acts && (act_of[k] != p.x || acts[k].block != block)) ++k;
      if (k == n_acts) {
        quantize_activation(p.x, p.ldx, T, p.q->cols, block, acts[k]);
        act_of[n_acts++] = p.x;
      }
      job_act[j] = &acts[k];
    }
    ++j;
  }
  const bool parallel = pool.size() > 1 && macs >= kMinParallelLinearMacs;
  if (n_tacts > 0) {
    // Through a pointer: inside the job, `tacts` would name each worker's own thread_local.
    QTileActivation* packed = tacts;
    pool.run(parallel ? pool.size() : 1, [&](int chunk, int nc) {
      for (int k = 0; k < n_tacts; ++k) {
        const Range g = split_range(packed[k].groups, chunk, nc);
        qtile_pack(tact_of[k], tact_ldx[k], packed[k], g.begin, g.end);
      }
    });
  }
  // The integer tiles pack nothing per chunk, so a prefill made of them splits like a decode.
  const int per_thread = T <= kShortPassRows || all_tiles ? kChunksPerThread : kGemmChunksPerThread;
  const int n_chunks = parallel ? per_thread * pool.size() : 1;
  pool.run(n_chunks, [&](int chunk, int nc) {
    int i = 0;
    for (const Projection& p : jobs) {
      // The fp32 tiles of a quantized prefill split at tile boundaries; everything else at 16.
      const bool fp32_tiles = quantized(p) && !(i < kMaxJobs && (job_act[i] || job_tact[i]));
      const Range rows =
          split_range(out_rows(p), chunk, nc, fp32_tiles ? quant_tile_rows(p.q->cols) : 16);
      if (!quantized(p)) {
        project_rows(p, T, rows);
      } else if (i < kMaxJobs && job_act[i]) {
        project_rows_q1(p, *job_act[i], rows);
      } else if (i < kMaxJobs && job_tact[i]) {
        qtile_rows(*p.q, *job_tact[i], rows.begin, rows.end, p.y, p.ldy,
                   p.bias && p.bias->size() ? p.bias->data() : nullptr, p.accumulate);
      } else {
        project_rows_qt(p, T, rows);
      }
      ++i;
    }
  });
}

}  // namespace ts
