// Causal multi-head attention over the KV cache, for the T query rows of one pass: query row r
// (position first_pos + r) attends cache rows 0 .. first_pos + r. Grouped-query attention: query
// head h reads kv head h / group_size. Reads K/V in place (Eigen blocks on KvCache storage, no
// copies); T == 1 is a 1 x L row per head, a short pass (linear.h's kShortPassRows) the same
// for each row, a longer one a T x L GEMM with the future masked out.
// Heads are split across the pool. Optionally stores the probabilities as fp16 (AttentionMap).
#pragma once
#include <cstddef>
#include <span>

#include "base/tensor.h"
#include "engine/config.h"
#include "engine/record.h"
#include "engine/thread_pool.h"

namespace ts {

struct AttentionInput {
  const float* q = nullptr;  // (T, n_heads * head_dim) rows ldq apart, RoPE already applied
  int ldq = 0;
  const Mat* keys = nullptr;    // (capacity, kv_dim) rows 0 .. first_pos + T - 1 valid
  const Mat* values = nullptr;  // (capacity, kv_dim)
  int first_pos = 0;
  int T = 0;
  float* out = nullptr;  // (T, n_heads * head_dim) rows ldo apart: heads concatenated
  int ldo = 0;
};

// Floats of scratch causal_attention needs: one (T, first_pos + T) score block per thread (pool chunk).
size_t attention_scratch_floats(int n_threads, int T, int n_keys);

// out = softmax(q kᵀ / sqrt(head_dim) + causal mask) v, per head. `rec`, when given, must have
// n_heads, first_pos, n_rows set and probs_f16 sized; it receives every probability row.
void causal_attention(ThreadPool& pool, const ModelConfig& c, const AttentionInput& in,
                      std::span<float> scratch, AttentionMap* rec);

}  // namespace ts
