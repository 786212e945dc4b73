// Step: one forward pass plus the choice of the next token, as a node of a lane's timeline tree.
// The forward record and the K/V rows the pass wrote are shared (shared_ptr) between the lanes
// that share the prefill and between sibling branches forked at the same step (a forced token
// replaces only the choice, not the pass). An intervention (a head, attention block or MLP
// switched off or scaled) is part of the pass: a step records the one its pass ran with, and an
// intervened step is a sibling with a pass of its own. No computation here: session.cpp fills
// Steps.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "base/tensor.h"
#include "engine/intervention.h"
#include "engine/kv_cache.h"
#include "engine/record.h"
#include "sampling/sampler.h"
#include "sampling/stop.h"  // StopReason, stop_reason_name

namespace ts {

// The K/V rows one pass wrote: positions [first_pos, first_pos + n_rows) of every layer, fp32,
// so a branch's cache can be restored exactly.
struct KvRows {
  int first_pos = 0;
  int n_rows = 0;
  std::vector<Mat> k, v;  // (n_layers) x (n_rows, kv_dim)
  size_t memory_bytes() const;
  // Copy rows [first_pos, first_pos + n_rows) out of a cache (after the pass wrote them).
  static KvRows capture(const KvCache& kv, int first_pos, int n_rows);
  // Write row (pos - first_pos) back into the cache's storage at pos (does not change length).
  void restore_row(KvCache& kv, int pos) const;
};

// The intervention a step's pass ran with: the set, and whether the steps after it inherit it
// (from here on) or only this pass had it (at this step). All empty sets are equal.
struct Ablation {
  InterventionSet set;
  bool from_here_on = true;
  bool empty() const { return set.empty(); }
  bool operator==(const Ablation& o) const {
    return (empty() && o.empty()) || (set == o.set && from_here_on == o.from_here_on);
  }
};
// "L0.H3,L1.mlp=0.5 from", "L0.H3 at", or "none".
std::string describe(const Ablation& a);

// What a step chose and where, without the tree or the records: the part of a Step that a trace
// keeps as it is (trace_json.h's TraceStep is a StepChoice too, so the two cannot drift).
struct StepChoice {
  int index = 0;            // 0 = the prefill, k >= 1 = the k-th decode pass; also the RNG counter
  int token = -1;           // the chosen next token (the forced one when forced)
  bool forced = false;      // chosen by force(), not by the sampler
  int sampled_token = -1;   // what the sampler chose (== token unless forced)
  int position = 0;         // sequence position of `token` (= KV length when it is fed)
  std::string piece;        // the raw bytes of `token` (may be partial UTF-8)
  std::string display;      // a sanitised visible label (always valid UTF-8)
  StopReason stop = StopReason::None;  // evaluated after appending `token`

  // Probability and rank of `token` in the final distribution (rank -1 if a forced token was
  // not among the recorded candidates; p then comes from the dense distribution when known).
  float chosen_p = 0.0f;
  int chosen_rank = -1;

  // The intervention this step's pass ran with (empty: none). Set by Session::ablate where the
  // branch starts, inherited by the steps after it when from_here_on.
  Ablation ablation;
};

// What the child of a step at `parent` inherits: the parent's intervention when it holds from
// here on, else none.
Ablation inherited_ablation(const StepChoice& parent);

struct Step : StepChoice {
  int parent = -1;            // node id in the lane's Timeline, -1 for a root (a prefill)
  std::vector<int> children;  // node ids, in creation order

  std::shared_ptr<const ForwardRecord> forward;  // shared by lanes (prefill) and siblings
  std::shared_ptr<const KvRows> kv_rows;         // the rows this pass wrote
  SamplingRecord sampling;  // what the lane's sampler did with the logits (always filled)
  // The settings that chose this step (a sampler changed mid-run leaves earlier steps to the old
  // one: Session::branch_sampler); null only for steps built by hand.
  std::shared_ptr<const SamplerSettings> sampler;
};

}  // namespace ts
