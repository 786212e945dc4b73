// The logit lens on demand: a Full record keeps each block's last-position residual
// (ForwardRecord::lens_residuals, a few KB per step) and the lens (each of those rows through the
// final norm and the unembedding, top-k kept) is computed when something reads it: the panel on
// screen, a receipt, a trace being saved. The numbers are the ones the pass computed when the
// lens was part of every step (ForwardOptions::lens_in_pass still does that): the same norm, the
// same fixed-order unembedding kernels (a row's logits do not depend on which rows go with it),
// the same top-k.
#pragma once
#include <vector>

#include "base/tensor.h"
#include "engine/model.h"
#include "engine/record.h"
#include "engine/thread_pool.h"

namespace ts {

// (n_rows, vocab_size) = unembedding · final_norm(rows), rows (n_rows, d_model) row-major.
Mat lens_logits_of_rows(const Model& m, const float* rows, int n_rows, ThreadPool& pool);

// Fills rec.logit_lens (top_k entries per layer) from rec.lens_residuals unless it is filled
// already (computed before, or read from a trace); nothing to do for a record without residuals
// (record level Off or Summary). The model must be the one whose pass made the record: a record
// whose residual rows do not match its shape is left alone. Returns rec.logit_lens.
const std::vector<std::vector<TokenScore>>& ensure_logit_lens(const Model& m,
                                                               const ForwardRecord& rec,
                                                               int top_k, ThreadPool& pool);

// Whether rec.logit_lens holds the lens (n_layers rows) or can be computed (residuals kept).
bool has_logit_lens(const ForwardRecord& rec);

}  // namespace ts
