// Threaded projections (see linear.h). The row split is static (chunk c always covers the same
// rows, whichever thread runs it) and a row's dot product does not depend on its block, so
// decode results are bit-identical from run to run and across thread counts.
#include "engine/linear.h"

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

void project_rows(const Projection& p, int T, Range rows) {
  if (rows.size() <= 0) return;
  const Mat& w = *p.w;
  const auto w_rows = w.middleRows(rows.begin, rows.size());  // (rows, in)
  const bool has_bias = p.bias && p.bias->size();
  if (T == 1) {
    ConstVecMap x(p.x, w.cols());                 // (in)
    VecMap y(p.y + rows.begin, rows.size());      // (rows)
    if (p.accumulate) {
      y.noalias() += w_rows * x;
    } else {
      y.noalias() = w_rows * x;
    }
    if (has_bias) y += p.bias->segment(rows.begin, rows.size());
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
  double macs = 0;
  for (const Projection& p : jobs) macs += static_cast<double>(T) * p.w->size();
  const bool parallel = pool.size() > 1 && macs >= kMinParallelLinearMacs;
  const int per_thread = T == 1 ? kChunksPerThread : kGemmChunksPerThread;
  const int n_chunks = parallel ? per_thread * pool.size() : 1;
  pool.run(n_chunks, [&](int chunk, int nc) {
    for (const Projection& p : jobs) {
      project_rows(p, T, split_range(static_cast<int>(p.w->rows()), chunk, nc, 16));
    }
  });
}

}  // namespace ts
