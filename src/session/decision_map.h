// When did the model decide? For each step of a lane's current path, the logit lens of the
// token that step finally chose: its probability and rank after every block (the block's
// residual through the final norm and the unembedding, over the whole vocabulary), and the
// first layer from which it stays on top through the last one. The last layer's lens is the
// step's own logits. Each step's last position is recomputed from the path's K/V rows with its
// own intervention (pass_replay.h); a query over a const Session.
#pragma once
#include <vector>

#include "base/error.h"
#include "session/session.h"

namespace ts {

struct LensCell {
  float p = 0;   // softmax of the layer's lens logits, at the chosen token
  int rank = 0;  // 0 = the lens's most probable token (ties: lower id first)
};

struct DecisionMap {
  int lane = 0;
  int first_step = 0;  // the map's first step index
  int n_layers = 0;
  std::vector<int> tokens;      // (n_steps) the token each step chose
  std::vector<LensCell> cells;  // (n_steps, n_layers), step-major
  // (n_steps) the first layer from which the chosen token has rank 0 through the last layer;
  // -1 when it is not on top at the last layer (drawn below the top, or forced).
  std::vector<int> decided_at;

  int n_steps() const { return static_cast<int>(tokens.size()); }
  const LensCell& at(int step_offset, int layer) const {
    return cells[static_cast<size_t>(step_offset) * n_layers + layer];
  }
};

// Steps first_step .. last_step (-1: the path's last) of `lane`'s current path. Errors: no
// model, no such lane or steps, out of memory.
Result<DecisionMap> decision_map(const Session& s, int lane, int first_step = 0,
                                 int last_step = -1);

}  // namespace ts
