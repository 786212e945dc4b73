// Causal attention (see attention.h): scores, mask + softmax, weighted sum of values, per head.
#include "engine/attention.h"

#include <cmath>

#include "base/f16.h"
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

// One query row (decode): s (L) = K_g q_h, softmax, out_h (head_dim) = V_gᵀ s.
void attend_row(const ModelConfig& c, const AttentionInput& in, int h, float* scores,
                AttentionMap* rec) {
  const int hd = c.head_dim(), g = h / c.group_size(), L = in.first_pos + 1;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  ConstVecMap q(in.q + static_cast<size_t>(h) * hd, hd);             // (head_dim)
  const auto k = in.keys->block(0, static_cast<Eigen::Index>(g) * hd, L, hd);    // (L, head_dim)
  const auto v = in.values->block(0, static_cast<Eigen::Index>(g) * hd, L, hd);  // (L, head_dim)
  VecMap s(scores, L);                                                 // (L)
  s.noalias() = k * q;
  s *= scale;
  softmax({scores, static_cast<size_t>(L)});
  if (rec) store_probs(*rec, h, 0, scores, L);
  VecMap out(in.out + static_cast<size_t>(h) * hd, hd);  // (head_dim)
  out.noalias() = v.transpose() * s;
}

// T query rows (prefill): S (T, L) = Q_h K_gᵀ, row r keeps keys 0 .. first_pos + r.
void attend_block(const ModelConfig& c, const AttentionInput& in, int h, float* scores,
                  AttentionMap* rec) {
  const int hd = c.head_dim(), g = h / c.group_size(), T = in.T, L = in.first_pos + T;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  ConstStridedMap q(in.q + static_cast<size_t>(h) * hd, T, hd, Eigen::OuterStride<>(in.ldq));
  const auto k = in.keys->block(0, static_cast<Eigen::Index>(g) * hd, L, hd);    // (L, head_dim)
  const auto v = in.values->block(0, static_cast<Eigen::Index>(g) * hd, L, hd);  // (L, head_dim)
  MatMap s(scores, T, L);  // (T, L)
  s.noalias() = q * k.transpose();
  for (int r = 0; r < T; ++r) {
    const int n = in.first_pos + r + 1;  // causal: keys 0 .. first_pos + r
    float* row = scores + static_cast<size_t>(r) * L;
    for (int j = 0; j < n; ++j) row[j] *= scale;
    softmax({row, static_cast<size_t>(n)});
    for (int j = n; j < L; ++j) row[j] = 0.0f;
    if (rec) store_probs(*rec, h, r, row, n);
  }
  StridedMap out(in.out + static_cast<size_t>(h) * hd, T, hd, Eigen::OuterStride<>(in.ldo));
  out.noalias() = s * v;  // (T, head_dim)
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
      if (in.T == 1) {
        attend_row(c, in, h, scores, rec);
      } else {
        attend_block(c, in, h, scores, rec);
      }
    }
  });
}

}  // namespace ts
