// Beam search's KV slots (beam_slots.h): per-slot paths, shared rows, copies at forks.
#include "decode/beam_slots.h"

#include <algorithm>
#include <utility>

namespace ts {

BeamSlots::BeamSlots(const ModelConfig& c, int n_slots, int capacity, int n_prompt,
                     AncestorFn ancestor)
    : path_node_(n_slots, -2),
      path_step_(n_slots, -1),
      n_prompt_(n_prompt),
      ancestor_(std::move(ancestor)) {
  caches_.reserve(n_slots);
  for (int s = 0; s < n_slots; ++s) caches_.emplace_back(c, capacity);
}

void BeamSlots::set_prompt(int slot) {
  path_node_[slot] = -1;
  path_step_[slot] = -1;
}

void BeamSlots::set_path(int slot, int node, int step) {
  path_node_[slot] = node;
  path_step_[slot] = step;
}

int BeamSlots::shared_rows(int slot, int node, int step) const {
  const int q = path_node_[slot];
  if (q == -2) return 0;
  if (q == -1 || node < 0) return n_prompt_;
  // Ancestors at the same step are the same node exactly up to the paths' fork.
  for (int j = std::min(path_step_[slot], step); j >= 0; --j) {
    if (ancestor_(q, j) == ancestor_(node, j)) return n_prompt_ + j + 1;
  }
  return n_prompt_;
}

int BeamSlots::fork(int from, int to, int node, int step) {
  const int n = node < 0 ? n_prompt_ : n_prompt_ + step + 1;
  const int shared = std::min(shared_rows(to, node, step), n);
  KvCache& dst = caches_[to];
  const KvCache& src = caches_[from];
  for (int l = 0; l < dst.n_layers(); ++l) {
    dst.keys(l).middleRows(shared, n - shared) = src.keys(l).middleRows(shared, n - shared);
    dst.values(l).middleRows(shared, n - shared) = src.values(l).middleRows(shared, n - shared);
  }
  if (dst.length() > n) {
    dst.truncate(n);
  } else {
    dst.advance(n - dst.length());
  }
  if (node < 0) {
    set_prompt(to);
  } else {
    set_path(to, node, step);
  }
  return n - shared;
}

}  // namespace ts
