// Causal attention (see attention.h): scores, mask + softmax, weighted sum of values, per head.
#include "engine/attention.h"

#include <algorithm>
#include <cmath>

#include "base/f16.h"
#include "engine/linear.h"
#include "engine/ops.h"

namespace ts {

namespace {

using StridedMap = Eigen::Map<Mat, 0, Eigen::OuterStride<>>;
using ConstStridedMap = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>;

constexpr double kMinParallelAttentionMacs = 16.0 * 1024;

void store_probs(AttentionMap& rec, int head, int row, const float* p, int n) {
  uint16_t* dst = rec.probs_f16.data() + rec.row_offset(head, row);
  for (int i = 0; i < n; ++i) dst[i] = f32_to_f16(p[i]);
}

// One query row, row r of the pass (position first_pos + r; a decode's only row is r = 0):
// s (L) = K_g q_h over the L = first_pos + r + 1 keys it may see, softmax, out_h (head_dim) =
// V_gᵀ s. The same arithmetic for a row of a short pass as for a decode at that position.
void attend_row(const ModelConfig& c, const AttentionInput& in, int h, int r, float* scores,
                AttentionMap* rec) {
  const int hd = c.head_dim(), g = h / c.group_size(), L = in.first_pos + r + 1;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  ConstVecMap q(in.q + static_cast<size_t>(r) * in.ldq + static_cast<size_t>(h) * hd, hd);
  const auto k = in.keys->block(0, static_cast<Eigen::Index>(g) * hd, L, hd);    // (L, head_dim)
  const auto v = in.values->block(0, static_cast<Eigen::Index>(g) * hd, L, hd);  // (L, head_dim)
  VecMap s(scores, L);                                                 // (L)
  s.noalias() = k * q;
  s *= scale;
  softmax({scores, static_cast<size_t>(L)});
  if (rec) store_probs(*rec, h, r, scores, L);
  VecMap out(in.out + static_cast<size_t>(r) * in.ldo + static_cast<size_t>(h) * hd, hd);
  out.noalias() = v.transpose() * s;
}

// T query rows (prefill), in blocks of kCausalBlock rows: S (rows, keys) = Q_h K_gᵀ over only the
// keys the block's last row may see, so the masked upper triangle is mostly never computed; row
// r keeps keys 0 .. first_pos + r.
constexpr int kCausalBlock = 64;

void attend_block(const ModelConfig& c, const AttentionInput& in, int h, float* scores,
                  AttentionMap* rec) {
  const int hd = c.head_dim(), g = h / c.group_size(), T = in.T;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  for (int r0 = 0; r0 < T; r0 += kCausalBlock) {
    const int nr = std::min(kCausalBlock, T - r0);
    const int nk = in.first_pos + r0 + nr;  // keys visible to the block's last row
    ConstStridedMap q(in.q + static_cast<size_t>(r0) * in.ldq + static_cast<size_t>(h) * hd, nr,
                      hd, Eigen::OuterStride<>(in.ldq));                                 // (nr, hd)
    const auto k = in.keys->block(0, static_cast<Eigen::Index>(g) * hd, nk, hd);    // (nk, hd)
    const auto v = in.values->block(0, static_cast<Eigen::Index>(g) * hd, nk, hd);  // (nk, hd)
    MatMap s(scores, nr, nk);  // (nr, nk)
    s.noalias() = q * k.transpose();
    for (int r = 0; r < nr; ++r) {
      const int n = in.first_pos + r0 + r + 1;  // causal: keys 0 .. first_pos + r0 + r
      float* row = scores + static_cast<size_t>(r) * nk;
      Eigen::Map<Eigen::ArrayXf>(row, n) *= scale;  // element-wise: same bits at any alignment
      softmax({row, static_cast<size_t>(n)});
      std::fill(row + n, row + nk, 0.0f);
      if (rec) store_probs(*rec, h, r0 + r, row, n);
    }
    StridedMap out(in.out + static_cast<size_t>(r0) * in.ldo + static_cast<size_t>(h) * hd, nr, hd,
                   Eigen::OuterStride<>(in.ldo));
    out.noalias() = s * v;  // (nr, hd)
  }
}

}  // namespace

size_t attention_scratch_floats(int n_threads, int T, int n_keys) {
  return static_cast<size_t>(n_threads) * T * n_keys;
}

void causal_attention(ThreadPool& pool, const ModelConfig& c, const AttentionInput& in,
                      std::span<float> scratch, AttentionMap* rec) {
  const int L = in.first_pos + in.T;
  const size_t per_chunk = static_cast<size_t>(in.T) * L;
  const double macs = 2.0 * c.n_heads * c.head_dim() * per_chunk;
  const int n_chunks = macs < kMinParallelAttentionMacs ? 1 : pool.size();
  pool.run(n_chunks, [&](int chunk, int nc) {
    float* scores = scratch.data() + per_chunk * chunk;
    const Range heads = split_range(c.n_heads, chunk, nc);
    for (int h = heads.begin; h < heads.end; ++h) {
      if (in.T <= kShortPassRows) {  // a decode, or a short pass row by row (linear.h)
        for (int r = 0; r < in.T; ++r) attend_row(c, in, h, r, scores, rec);
      } else {
        attend_block(c, in, h, scores, rec);
      }
    }
  });
}

}  // namespace ts
