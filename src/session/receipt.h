// The token receipt: why step K chose its token C and not a rival X (any token id). Three
// parts, in the order they happened: (1) the model: logit[C] - logit[X] of the step's own pass,
// split into direct contributions (the embedding, positions, each head, each attention bias,
// each MLP: engine/attribution.h) that add up to it; (2) the sampler: each stage's effect on
// the two tokens (logit, probability, kept or cut), next to what the step recorded; (3) the
// draw: u and the interval each token owned on the cumulative strip. A query over a const
// Session: it recomputes one position from the path's K/V rows and replays the sampler chain.
#pragma once
#include <string>
#include <vector>

#include "base/error.h"
#include "engine/attribution.h"
#include "sampling/stage.h"
#include "session/session.h"

namespace ts {

struct ReceiptPart {
  PartId part;
  double value = 0;  // its share of logit[C] - logit[X]
};

// A token as the model scored it: its raw logit (the step's recorded logits), its probability
// under their softmax and its rank there (0 = the most probable).
struct ReceiptToken {
  int id = -1;
  std::string piece;  // raw bytes
  double logit = 0;
  double p = 0;
  int rank = 0;
};

// A token after one sampler stage.
struct TokenAtStage {
  double logit = 0;  // after the stage (a cut token keeps its last value)
  double p = 0;      // probability among the tokens still kept (0 when cut)
  bool kept = true;
};

struct ReceiptStage {
  StageKind kind = StageKind::Temperature;
  std::string name;  // as recorded: "top-p 0.90"
  int n_kept = 0;    // as recorded
  float cut_at = 0;  // as recorded (StageRecord::cut_at)
  TokenAtStage chosen, vs;
};

// A token's interval on the cumulative strip [lo, hi), if it is on it (p > 0 at the end).
struct StripSpan {
  bool on_strip = false;
  double lo = 0, hi = 0;
};

struct ReceiptDraw {
  bool greedy = false;  // the draw took rank 0; u was not used
  double u = 0;
  int sampled = -1;  // the token the draw picked (C unless C was forced)
  StripSpan chosen, vs;
};

struct TokenReceipt {
  int lane = 0;
  int step = 0;
  int position = 0;     // of the chosen token
  bool forced = false;  // C was forced, not drawn
  ReceiptToken chosen, vs;
  double logit_diff = 0;     // logit[C] - logit[X] of the pass recomputed: what the parts add up to
  double recorded_diff = 0;  // the same from the step's recorded logits (what the sampler saw)
  double parts_sum = 0;      // the parts added in double
  std::vector<ReceiptPart> parts;    // in the order they join the residual stream
  std::vector<ReceiptStage> stages;  // in chain order
  ReceiptDraw draw;
};

// The receipt of `lane`'s step `step` (on its current path) against token `rival` (any id in
// the vocabulary, C itself included). Errors: no model, no such lane or step, a rival outside
// the vocabulary, a step without recorded logits, out of memory.
Result<TokenReceipt> token_receipt(const Session& s, int lane, int step, int rival);

}  // namespace ts
