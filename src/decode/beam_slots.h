// The KV caches of a beam search: one slot (a KvCache) per beam, and which path each slot's
// rows belong to, so a fork copies only the rows the two paths do not share. A path is a node
// of the search tree (beam_search.h); rows 0 .. n_prompt - 1 are the prompt, row n_prompt + i
// the token of the path's node at step i. Copying at forks keeps the engine's contiguous
// per-sequence cache (a decode pass reads rows 0 .. L of one cache); sharing the rows without a
// copy would need attention over a tree of rows.
#pragma once
#include <functional>
#include <vector>

#include "engine/kv_cache.h"

namespace ts {

class BeamSlots {
 public:
  // ancestor(node, step): the node's ancestor at `step` (the node itself at its own step).
  using AncestorFn = std::function<int(int node, int step)>;

  BeamSlots(const ModelConfig& c, int n_slots, int capacity, int n_prompt, AncestorFn ancestor);

  int size() const { return static_cast<int>(caches_.size()); }
  KvCache& cache(int slot) { return caches_[slot]; }
  const KvCache& cache(int slot) const { return caches_[slot]; }

  // The slot's rows are now the prompt (after the prefill) / the path ending at `node`, whose
  // step is `step` (after the node's token was fed).
  void set_prompt(int slot);
  void set_path(int slot, int node, int step);

  // Positions the slot already holds of the path ending at `node` (step `step`, fed): the
  // prompt, then the steps whose ancestors the two paths share. 0 for a slot never used.
  int shared_rows(int slot, int node, int step) const;
  // Makes slot `to` hold slot `from`'s path (`node` at `step`, or the prompt when node < 0):
  // copies the positions after the shared ones, returns how many it copied.
  int fork(int from, int to, int node, int step);

 private:
  std::vector<KvCache> caches_;
  std::vector<int> path_node_;  // per slot: -2 empty, -1 the prompt only, else the path's node
  std::vector<int> path_step_;  // per slot: the step of path_node_ (-1 for the prompt)
  int n_prompt_ = 0;
  AncestorFn ancestor_;
};

}  // namespace ts
