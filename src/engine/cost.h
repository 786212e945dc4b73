// Analytic cost of one forward pass: FLOPs (2 per multiply-add; element-wise ops at a nominal
// few FLOPs per element), weight bytes read, K/V cache bytes read and written, activation bytes,
// per operation and in total; plus flops_no_cache, the cost of the same prediction recomputed
// from position 0 without a cache (the "why caches exist" lesson). Pure arithmetic on the
// config and the bytes each weight value takes as stored (4 for fp32, 1.0625 for Q8_0, 0.5625
// for Q4_K...), no timing: the forward pass adds the measured seconds.
#pragma once
#include "engine/config.h"
#include "engine/record.h"

namespace ts {

struct PassShape {
  int first_pos = 0;    // cached positions before the pass
  int n_positions = 1;  // T rows computed
  int logit_rows = 1;   // rows pushed through the final norm + unembedding (1, or T for a
                        // prefill that shows every position's prediction)
};

// Bytes per stored value: the blocks' matrices (Q, K, V, O and the MLP's), the unembedding and
// the token table (one row read per position). Norms and biases are always fp32.
struct WeightBytes {
  double matrix = 4.0;
  double unembed = 4.0;
  double embed = 4.0;
};

// Totals always; ops (one entry per operation and layer, in execution order) when per_op.
// flops_no_cache = flops of {0, first_pos + n_positions, logit_rows}: a prefill from position 0
// costs exactly its no-cache figure, a decode at position p about p + 1 times less.
CostRecord estimate_cost(const ModelConfig& c, const PassShape& shape, bool per_op,
                         const WeightBytes& wb = {});

// Sum of the key counts attended by T causal rows starting at first_pos:
// sum over r < T of (first_pos + r + 1).
double attended_keys(int first_pos, int T);

}  // namespace ts
