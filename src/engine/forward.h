// The instrumented forward pass. One call processes `tokens` at positions kv.length() ...:
// n > 1 is a prefill (one batched pass, causal T x T attention per head), n == 1 a decode step
// (one row attending the whole cache). Both append K/V rows and produce the last position's
// logits; with a record they also fill what RecordLevel asks for. Llama and GPT-2 blocks, fp32.
// An intervention set (intervention.h) switches off or scales heads, attention blocks or MLPs
// at every position of the pass. reference_forward is the slow plain-loop twin the tests
// compare against.
#pragma once
#include <memory>
#include <span>

#include "base/error.h"
#include "engine/intervention.h"
#include "engine/kv_cache.h"
#include "engine/model.h"
#include "engine/record.h"
#include "engine/thread_pool.h"

namespace ts {

struct ForwardOptions {
  RecordLevel level = RecordLevel::Summary;
  // Entries of position_top per position. 0: none, and a prefill then unembeds only its last
  // row (at Summary and Full every row is unembedded otherwise: the cost of showing them).
  int position_top_k = 10;
  int lens_top_k = 5;       // entries of logit_lens per layer
  // Full: compute the logit lens inside the pass (every block's row unembedded with the final
  // one in a single read of the unembedding). Off by default: a Full record keeps only the rows
  // (lens_residuals) and the lens is computed when read (logit_lens.h), with the same numbers.
  bool lens_in_pass = false;
  // Components switched off or scaled at every position of the pass (null or empty: none).
  // Validated by the caller (validate in intervention.h); out-of-range entries are ignored.
  const InterventionSet* interventions = nullptr;
  // Keep every position's full logits, read with Forward::all_logits() (the verification pass
  // of speculative decoding needs the target's distribution at each drafted position).
  bool all_logits = false;
};

class Forward {
 public:
  explicit Forward(const Model& model, int n_threads = 1);
  ~Forward();
  Forward(const Forward&) = delete;
  Forward& operator=(const Forward&) = delete;

  // Errors: empty tokens, a token id outside the vocabulary, a KV cache of another shape or too
  // short for the positions, a GPT-2 position beyond n_ctx, a model whose shapes are wrong.
  // On error nothing is written and kv is unchanged.
  // rec == nullptr or level Off: only logits (and, with a record, phase, positions, input ids,
  // the logits vector and kv). Summary: + position_top, residual_norms, cost totals + seconds.
  // Full: + attention, lens_residuals, cost.ops (+ logit_lens with opt.lens_in_pass). seconds
  // excludes the logit-lens projections.
  Status run(KvCache& kv, std::span<const int> tokens, const ForwardOptions& opt,
             ForwardRecord* rec);
  const Vec& logits() const;  // (vocab_size) last position of the last run
  // (n_positions, vocab_size) every position of the last run made with opt.all_logits (stale
  // otherwise). Each row is unembedded on its own (dot_rows.h), so the last row equals logits().
  const Mat& all_logits() const;
  const Model& model() const;
  int n_threads() const;
  // The pass's thread pool, idle between passes (the benchmark runs its probes on it, so they
  // get exactly the threads the pass gets).
  ThreadPool& pool();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Plain loops, no Eigen products, no cache reuse tricks: recomputes positions 0..n-1 from the
// token list and returns the logits of every position, (n, vocab_size). The agreement tests
// compare Forward against it.
Mat reference_forward(const Model& model, std::span<const int> tokens);
// The same with `set` applied at positions [first_pos, end_pos) only (the positions of the
// passes that ran with it), so a pass-by-pass generation with interventions can be checked.
Mat reference_forward(const Model& model, std::span<const int> tokens, const InterventionSet& set,
                      int first_pos = 0, int end_pos = 1 << 30);

}  // namespace ts
