// ForwardRecord: what one forward pass (a prefill over T positions or one decode position)
// records for the class to see, at a chosen RecordLevel. Large data is stored compactly:
// attention as packed lower-triangular fp16 rows. The sampling part of a step lives in
// sampling/sampler.h; session/ joins both into a Step.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

enum class RecordLevel { Off, Summary, Full };
enum class Phase { Prefill, Decode };

const char* record_level_name(RecordLevel l);
const char* phase_name(Phase p);

// One vocabulary entry with its raw logit and its probability under softmax(raw logits).
struct TokenScore {
  int id = 0;
  float logit = 0.0f;
  float p = 0.0f;
};

// Attention probabilities of one layer for the query rows computed in one pass. Query row r is
// position first_pos + r and attends keys 0 .. first_pos + r (causal), so row r stores
// first_pos + r + 1 values per head: a packed lower triangle (prefill) or one row (decode).
struct AttentionMap {
  int n_heads = 0;
  int first_pos = 0;
  int n_rows = 0;
  std::vector<uint16_t> probs_f16;  // per head: rows back to back; see offset()
  size_t row_offset(int head, int row) const;  // index of (head, row, key 0) in probs_f16
  int row_length(int row) const { return first_pos + row + 1; }
  float at(int head, int row, int key) const;  // 0 for key beyond the causal limit
};

// Analytic cost of one operation of the pass (engine/cost.h says how each figure is counted).
struct OpCost {
  std::string name;  // "attn_qkv", "attn_scores", "attn_out", "ffn", "logits", ...
  int layer = -1;    // -1 for embed / final norm / logits
  double flops = 0;
  double weight_bytes = 0;      // weights read
  double kv_bytes_read = 0;     // K/V cache rows read
  double kv_bytes_written = 0;  // K/V cache rows written
};

struct CostRecord {
  std::vector<OpCost> ops;  // Full level only; totals below are always filled
  double flops = 0;
  double weight_bytes = 0;
  double kv_bytes_read = 0;
  double kv_bytes_written = 0;
  double activation_bytes = 0;
  double seconds = 0;          // measured wall time of the pass (logit-lens projections excluded)
  double flops_no_cache = 0;   // what recomputing the whole sequence without a cache would cost
  double arithmetic_intensity() const {  // FLOPs per byte moved
    const double b = weight_bytes + kv_bytes_read + kv_bytes_written + activation_bytes;
    return b > 0 ? flops / b : 0;
  }
};

struct KvRecord {
  int length_before = 0;  // cached positions before the pass
  int length_after = 0;   // after it (= length_before + n_positions)
  int capacity = 0;
  size_t bytes_used = 0;      // after the pass, all layers, K and V
  size_t bytes_capacity = 0;  // allocated
};

struct ForwardRecord {
  Phase phase = Phase::Decode;
  int first_pos = 0;    // position of the first computed row
  int n_positions = 0;  // rows computed in this pass (T for prefill, 1 for decode)
  std::vector<int> input_ids;  // (n_positions)

  std::vector<float> logits;  // (vocab_size) last position; every level (Off too) given a record
  // (n_positions, k) top-k of every computed position, so the app can show that a prefill
  // predicts at every position and only the last one is used. Summary and Full.
  std::vector<std::vector<TokenScore>> position_top;
  std::vector<AttentionMap> attention;  // (n_layers) Full only; softmax probabilities, fp16
  // The last position's residual stream after each block, (n_layers * d_model) row-major.
  // Full only: what the logit lens is computed from when something reads it.
  std::vector<float> lens_residuals;
  // Logit lens of the last position: each row of lens_residuals through the final norm and the
  // unembedding, top-k kept. (n_layers, k). Empty until computed: engine/logit_lens.h
  // (ensure_logit_lens) fills it on demand, once per record (it is a cache of what
  // lens_residuals determine, hence mutable: records are shared as const); a pass run with
  // ForwardOptions::lens_in_pass fills it during the pass; a trace read from a file brings it.
  mutable std::vector<std::vector<TokenScore>> logit_lens;
  // L2 norm of the last position's residual stream: after embedding, then after each
  // attention and each MLP sub-block: (1 + 2*n_layers). Summary and Full.
  std::vector<float> residual_norms;

  KvRecord kv;
  CostRecord cost;

  size_t memory_bytes() const;  // heap bytes this record holds (for the memory budgets)
};

}  // namespace ts
