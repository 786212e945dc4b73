// Few-row products with a fixed summation order (see dot_rows.h). For several input rows, a small
// tile of weight rows is dotted with a small group of input rows at once (independent
// accumulators keep the FMA units busy, and each loaded packet is used several times); for one
// input row, the weight rows go one after another. Every output's arithmetic is the same
// sequence whichever tile it falls in: one packet-wide FMA chain over the row, reduced across
// lanes, then the scalar tail. So results do not depend on T, the tiling or the thread count.
#include "engine/dot_rows.h"

#include <cmath>

namespace ts {

namespace {

namespace ei = Eigen::internal;
using Packet = ei::packet_traits<float>::type;
constexpr int kLanes = ei::packet_traits<float>::size;

// Below this many multiply-adds the product runs on the calling thread only.
constexpr double kMinParallelDotMacs = 48.0 * 1024;
constexpr int kDotChunksPerThread = 4;
// Weight rows x input rows per tile (as many accumulators). WebAssembly engines map SIMD values
// onto the host's 16 vector registers: there a 4 x 4 tile (16 accumulators + 5 operands) spills,
// so the web build uses 4 x 2. The summation order of each output is the same either way.
#ifdef __wasm__
constexpr int kTileRows = 4;
constexpr int kTileCols = 2;
#else
constexpr int kTileRows = 4;
constexpr int kTileCols = 4;
#endif

// y[t * ldy + r] = w row r (ldw apart) · x row t (ldx apart), r < NR, t < NT, over n floats.
// pf: the rows to prefetch meanwhile (the next tile's, NR rows ldw apart; or w itself at the end
// of the matrix, so no address past it is formed).
template <int NR, int NT>
void dot_tile(const float* w, const float* pf, size_t ldw, const float* x, size_t ldx, int n,
              float* y, size_t ldy) {
  Packet acc[NR][NT];  // fully unrolled loops keep these in registers
#pragma GCC unroll 4
  for (int r = 0; r < NR; ++r) {
#pragma GCC unroll 4
    for (int t = 0; t < NT; ++t) acc[r][t] = ei::pset1<Packet>(0.0f);
  }
  int i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    Packet xs[NT];
#pragma GCC unroll 4
    for (int t = 0; t < NT; ++t) xs[t] = ei::ploadu<Packet>(x + t * ldx + i);
#pragma GCC unroll 4
    for (int r = 0; r < NR; ++r) {
      // The next tile's rows, ahead of use: with many FMAs per load the out-of-order window
      // alone would keep too few cache misses in flight. A hint: never faults, no numerics.
      __builtin_prefetch(pf + r * ldw + i);
      const Packet wr = ei::ploadu<Packet>(w + r * ldw + i);
#pragma GCC unroll 4
      for (int t = 0; t < NT; ++t) acc[r][t] = ei::pmadd(wr, xs[t], acc[r][t]);
    }
  }
  for (int r = 0; r < NR; ++r) {
    for (int t = 0; t < NT; ++t) {
      float s = ei::predux(acc[r][t]);
      for (int j = i; j < n; ++j) s = std::fma(w[r * ldw + j], x[t * ldx + j], s);
      y[t * ldy + r] = s;
    }
  }
}

// All T input rows against weight rows [r0, r0 + NR); pf as for dot_tile.
template <int NR>
void dot_row_tile(const float* w, const float* pf, size_t ldw, const float* x, size_t ldx, int T,
                  int n, float* y, size_t ldy) {
  int t = 0;
  for (; t + kTileCols <= T; t += kTileCols) {
    dot_tile<NR, kTileCols>(w, pf, ldw, x + t * ldx, ldx, n, y + t * ldy, ldy);
  }
  switch (T - t) {
    case 3: dot_tile<NR, 3>(w, pf, ldw, x + t * ldx, ldx, n, y + t * ldy, ldy); break;
    case 2: dot_tile<NR, 2>(w, pf, ldw, x + t * ldx, ldx, n, y + t * ldy, ldy); break;
    case 1: dot_tile<NR, 1>(w, pf, ldw, x + t * ldx, ldx, n, y + t * ldy, ldy); break;
    default: break;
  }
}

}  // namespace

float dot_fixed(const float* a, const float* b, int n) {
  float s = 0.0f;
  dot_tile<1, 1>(a, a, 0, b, 0, n, &s, 0);
  return s;
}

void dot_rows_range(const Mat& w, Range rows, const float* x, int ldx, int T, float* y, int ldy) {
  const int out = static_cast<int>(w.rows()), in = static_cast<int>(w.cols());
  const size_t lw = static_cast<size_t>(in), lx = static_cast<size_t>(ldx),
               ly = static_cast<size_t>(ldy);
  int o = rows.begin;
  // Tiles of kTileRows weight rows only for several input rows. For one (T == 1) the loop after
  // this one takes the weight rows one at a time: a single sequential stream, which memory
  // serves fastest (on the 2-vCPU EPYC about 26 GB/s on one thread against 15 for four
  // interleaved rows). Each output's arithmetic is the same either way.
  for (; T > 1 && o + kTileRows <= rows.end; o += kTileRows) {
    const float* wo = w.row(o).data();
    const float* pf = o + 2 * kTileRows <= out ? wo + kTileRows * lw : wo;
    dot_row_tile<kTileRows>(wo, pf, lw, x, lx, T, in, y + (o - rows.begin), ly);
  }
  for (; o < rows.end; ++o) {
    dot_row_tile<1>(w.row(o).data(), w.row(o).data(), lw, x, lx, T, in, y + (o - rows.begin), ly);
  }
}

void dot_rows(ThreadPool& pool, const Mat& w, const float* x, int ldx, int T, float* y, int ldy) {
  const int out = static_cast<int>(w.rows()), in = static_cast<int>(w.cols());
  const double macs = static_cast<double>(T) * out * in;
  const int n_chunks =
      pool.size() > 1 && macs >= kMinParallelDotMacs ? kDotChunksPerThread * pool.size() : 1;
  pool.run(n_chunks, [&](int chunk, int nc) {
    const Range rows = split_range(out, chunk, nc, 16);
    if (rows.size() > 0) dot_rows_range(w, rows, x, ldx, T, y + rows.begin, ldy);
  });
}

}  // namespace ts
