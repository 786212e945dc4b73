// Beam search over the raw model: at each step every live beam's next-token log-probabilities
// (log softmax of the logits, no sampler stage) extend it, and the best `width` extensions by
// their summed log-probability are kept. An extension that ends the text (eos) becomes a
// finished hypothesis and takes its place in the beam for good, so the beam narrows as texts
// finish (width 1 is greedy decoding). The search runs until no beam is alive or the budget or
// the context ends it; the answer is the best finished or budget-ended hypothesis by
//   score = Σ log p / len^alpha     (len: its generated tokens, eos included; alpha: the length
//                                     penalty; 0 ranks by the plain sum, which favours short texts)
// Every candidate kept is a node of the recorded tree (its log p, sum, score and fate: extended,
// pruned at which step, finished, ended by the budget), with the best cut candidates of each
// step, so a view can draw the tree with the pruned beams greyed.
// K/V rows: each beam computes in a slot (its own KvCache, beam_slots.h); the best child of a
// beam continues in its parent's slot, in place; another child forks into a free slot, which
// receives the parent's rows from the first one the two paths do not share (rows of a common
// prefix already there are kept, not copied). Ties in the sum rank the higher own log p first,
// then the beam ranked higher, then the lower token id, so results are deterministic.
#pragma once
#include <span>
#include <vector>

#include "base/error.h"
#include "decode/decode_limits.h"
#include "engine/forward.h"
#include "sampling/chain_state.h"
#include "sampling/text_regex.h"

namespace ts {

// The CLI and the app offer widths 1..8; wider beams exist for exhaustive checks on tiny models.
inline constexpr int kMaxBeamWidth = 64;

struct BeamSettings {
  int width = 4;                // live beams + finished hypotheses, 1 .. kMaxBeamWidth
  double length_penalty = 1.0;  // alpha in Σ log p / len^alpha, 0 .. 4
  DecodeLimits limits;
  // Constraints (the one-of and regex stages of a sampler chain: stage_constraint.h): a beam
  // extends only by tokens that keep its generated text on the way to a match of every one,
  // and ends (eos) only on a match, as those stages cut; the log p stay the raw model's. They
  // read `text` (the vocabulary's bytes); without it, or where no token fits, nothing is cut.
  std::vector<TextRegex> constraints;
  TokenText text;
};
Status validate(const BeamSettings& s);

enum class BeamFate {
  Extended,  // at least one child was kept
  Pruned,    // none of its extensions was kept at fate_step (greyed in the tree)
  Finished,  // its token ends the text (a hypothesis)
  Budget,    // alive when the token budget or the context ran out (a hypothesis)
};
const char* beam_fate_name(BeamFate f);  // "extended", "pruned", "finished", "budget"

struct BeamNode {
  int parent = -1;  // node id; -1: the first new token (its parent is the prompt)
  int step = 0;     // generated-token index: 0 = the first new token
  int token = -1;
  double log_p = 0;      // log p(token | prompt + path), raw model, natural log
  double sum_log_p = 0;  // Σ log p over the path, this node included
  double score = 0;      // sum_log_p / (step + 1)^alpha
  int rank = 0;          // its rank among the candidates of its step (0 = best)
  BeamFate fate = BeamFate::Extended;
  int fate_step = -1;   // the step that pruned it / at which it ended; -1 while extended
  int slot = -1;        // KV slot whose rows are its path (-1: finished, never fed)
  int rows_copied = 0;  // positions copied into its slot when it forked there (0: in place)
  std::vector<int> children;
};

// An extension considered and not kept at its step.
struct BeamCandidate {
  int parent = -1;  // node id (-1: the prompt)
  int token = -1;
  double log_p = 0;
  double sum_log_p = 0;
};

struct BeamStepRecord {
  int step = 0;
  std::vector<int> kept;           // nodes chosen at this step that go on, best first
  std::vector<int> finished;       // nodes chosen at this step that end the text
  std::vector<int> pruned;         // live nodes of the step before without a kept child
  std::vector<BeamCandidate> cut;  // the best candidates not chosen, best first (<= width)
  int passes = 0;                  // forward passes run for this step (the prefill at step 0)
  int rows_copied = 0;             // positions copied between slots after this step's choice
};

struct BeamResult {
  std::vector<BeamNode> nodes;
  std::vector<BeamStepRecord> steps;
  int best = -1;                       // the best hypothesis by score
  std::vector<int> best_tokens;        // its tokens, first to last
  StopReason stop = StopReason::None;  // why the best hypothesis ends
  int forward_passes = 0;              // the prefill included
  long rows_computed = 0;              // K/V positions written by passes (all layers each)
  long rows_copied = 0;                // K/V positions copied at forks
  double seconds = 0;
};

// The tokens of root..node.
std::vector<int> beam_path(const BeamResult& r, int node);

// Runs the search on `fwd`'s model from `prompt`. Errors: invalid settings, an empty prompt, a
// prompt that fills the context, the engine's own (a token outside the vocabulary).
Result<BeamResult> beam_search(Forward& fwd, std::span<const int> prompt, const BeamSettings& s);

}  // namespace ts
