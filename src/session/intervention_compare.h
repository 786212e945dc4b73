// An intervention branch beside the step it replaced: at the fork step, the model's
// distribution without the intervention (the sibling pass its parent gave it) and with it,
// side by side, their KL divergence, and where the two texts part. Reads the timeline tree
// only (both passes are recorded); a query over a const Session.
#pragma once
#include <vector>

#include "base/error.h"
#include "session/session.h"

namespace ts {

// True when node `node` of the tree ran with another intervention than its parent hands down
// (Session::ablate made it): the first node of an intervention branch.
bool is_intervention_fork(const Timeline& t, int node);

struct InterventionComparison {
  int lane = 0;
  int fork_step = 0;
  int parent_node = -1;  // the step without this intervention (what the parent hands down)
  int branch_node = -1;  // the step with it
  Ablation ablation;     // the branch's
  // (vocab_size) softmax of each pass's recorded logits: the model's distributions, before the
  // sampler (which may differ between the two only through the logits).
  std::vector<float> parent_p, branch_p;
  double kl_bits = 0;  // KL(parent || branch) = sum p log2(p / q), from the logits (exact)
  // Each side's tokens from the fork step on: the current path where it runs through that node,
  // else the node's newest continuation in the tree.
  std::vector<int> parent_tokens, branch_tokens;
  // The first step index (>= fork_step) where the two choose different tokens; -1 when they
  // agree over the steps both have.
  int texts_part = -1;
};

// `node`: the first node of an intervention branch in `lane`'s tree (is_intervention_fork).
// Errors: no such lane or node, a node that is not an intervention fork, a fork whose
// un-intervened sibling is not in the tree, records without logits.
Result<InterventionComparison> compare_intervention(const Session& s, int lane, int node);

}  // namespace ts
