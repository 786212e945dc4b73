// Direct logit attribution: one position of a pass recomputed with every contribution to its
// residual stream kept apart (the token embedding, learned positions, each head through its
// slice of the output projection, each attention output bias, each MLP), and a logit
// difference logit[a] - logit[b] split into those parts through the final norm, with the norm's
// scale (and LayerNorm's mean) taken from this pass's own residual, so the parts add up to the
// difference. The position is recomputed with the decode step's kernels from the pass's own K/V
// rows. The lens rows (each block's residual through the final norm and the unembedding) come
// from the same recomputation. Which step, which tokens: session/receipt.h.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "base/tensor.h"
#include "engine/intervention.h"
#include "engine/kv_cache.h"
#include "engine/model.h"
#include "engine/thread_pool.h"

namespace ts {

enum class PartKind {
  Embedding,       // the token's embedding row
  Position,        // the learned position row (GPT-2)
  Head,            // one head's output through its slice of the output projection
  AttnBias,        // the attention output projection's bias (GPT-2)
  Mlp,             // an MLP's output, bias included
  FinalNormBias,   // LayerNorm's bias after the final norm: (U[a] - U[b]) · bias
  UnembedRounding  // a quantized unembedding's 8-bit rounding of the final activation
};

struct PartId {
  PartKind kind = PartKind::Embedding;
  int layer = -1;  // Head, AttnBias, Mlp
  int head = -1;   // Head
  bool operator==(const PartId&) const = default;
};

// "embedding", "position", "L0.H3", "L0.attn_bias", "L0.mlp", "final_norm_bias",
// "unembed_rounding"; parse_part_name reads them back.
std::string part_name(const PartId& p);
Result<PartId> parse_part_name(std::string_view name);

// One position recomputed, its residual stream kept as parts.
struct PositionPass {
  int token = -1;
  int pos = 0;
  std::vector<PartId> ids;  // (n_parts) in the order they join the residual stream
  Mat parts;                // (n_parts, d_model) each part's vector, its intervention applied
  Mat layer_residual;       // (n_layers, d_model) the residual after each block
  Vec residual;             // (d_model) the final residual: the parts added in order, in fp32
};

// Recomputes position `pos`, fed `token`, of a pass whose K/V rows 0..pos are in `kv`
// (kv.length() > pos; row pos is the one the pass itself wrote), applying `set` (may be null)
// as the pass did. The same kernels as a decode step (linear.h, attention.h), so the residual
// equals the pass's up to the order of the sums. A quantized output projection is split per
// head from its dequantized rows and the 8-bit activation it multiplies. Errors: bad token,
// position or cache shape, an invalid model or set.
Result<PositionPass> recompute_position(const Model& m, const KvCache& kv, int token, int pos,
                                        const InterventionSet* set, ThreadPool& pool);

struct LogitAttribution {
  int token_a = -1, token_b = -1;
  double logit_a = 0, logit_b = 0;  // this pass's logits of a and b (the forward's kernels)
  std::vector<PartId> ids;          // the pass's parts, then FinalNormBias / UnembedRounding
  std::vector<double> values;       // (ids.size()) each part's share of logit_a - logit_b
  double diff() const { return logit_a - logit_b; }
  double sum() const;  // of values, in double
};

// logit[a] - logit[b] at the recomputed position, split into the parts. RMSNorm: part p gives
// (U[a] - U[b]) · (gain ⊙ p) / rms(residual). LayerNorm: its centring is linear, so part p
// gives (U[a] - U[b]) · (gain ⊙ (p - mean(p))) / sd(residual), and the norm's bias its own
// (U[a] - U[b]) · bias (it does not cancel: the two unembedding rows differ). A quantized
// unembedding multiplies the final activation rounded to 8 bits: that rounding is its own part.
LogitAttribution attribute_logit_difference(const Model& m, const PositionPass& pass, int a, int b);

// The logit lens of the recomputed position: each block's residual through the final norm and
// the unembedding, (n_layers, vocab_size), with the forward's own kernels (its last row is the
// pass's logits).
Mat lens_logits(const Model& m, const PositionPass& pass, ThreadPool& pool);

}  // namespace ts
