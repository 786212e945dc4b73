// Speculative decoding with a real pair of models sharing one tokenizer: each round the draft
// proposes k tokens one decode pass at a time, drawing each from q (its distribution after the
// sampler chain); the target then computes all k positions, plus the one after them, in ONE
// pass over its cached prefix (the engine's short pass: rows bit-identical to k + 1 decode
// steps), giving p at each. The drafts are tested in order (spec_verify.h): the leading accepted
// ones are kept, the first rejected one is replaced by a draw from the residual max(0, p - q)
// normalised, and when all k pass the target's distribution after them gives a bonus token. So
// a round yields 1 .. k + 1 tokens for one target pass, distributed exactly as the target's own
// sampling; at temperature 0 both distributions are one-hot and the output is the target's
// greedy output token for token. Both KV caches are then cut back to the accepted length.
// Every round is recorded (drafts with q, target p at all k positions, the u's, the accepted
// count, the residual) so a view can draw it.
#pragma once
#include <span>
#include <vector>

#include "base/error.h"
#include "decode/decode_limits.h"
#include "decode/spec_verify.h"
#include "engine/forward.h"
#include "engine/linear.h"
#include "sampling/sampler.h"

namespace ts {

// Drafts per round: the verification pass (k + 1 rows) stays a short pass.
inline constexpr int kMaxSpeculative = kShortPassRows - 1;

struct SpecSettings {
  int k = 4;                // drafted tokens per round, 1 .. kMaxSpeculative
  SamplerSettings sampler;  // both models' chain and seed (a temperature of 0: greedy)
  DecodeLimits limits;
  SpecResidual residual = SpecResidual::PMinusQ;
  int record_top = 8;  // entries of each recorded distribution, 0 .. 64
  // The vocabulary's bytes for the chain's constraint stages (one-of, regex), which then cut
  // the draft's q and the target's p alike (start: set by the run to the prompt's end); empty:
  // those stages cut nothing.
  TokenText text;
};
Status validate(const SpecSettings& s);

struct TokenProb {
  int id = -1;
  float p = 0;
};

// One drafted position of a round.
struct SpecDraft {
  int token = -1;         // x, drawn from q
  double u_draft = 0;     // the uniform number that drew it (kSpecDraftStream)
  float q = 0;            // q(x): the draft's probability after the sampler chain
  float p = 0;            // p(x): the target's, from the verification pass
  double u = 0;           // accept test: kept iff u < min(1, p / q) (kSpecAcceptStream)
  bool accepted = false;  // false for the first rejection and every draft after it
  bool tested = false;    // false after the first rejection (never tested)
  std::vector<TokenProb> q_top, p_top;  // the two distributions' best entries
};

struct SpecRound {
  int first = 0;                     // generated-token index of the round's first position
  std::vector<SpecDraft> drafts;     // k of them (fewer where the budget or the context ends)
  int n_accepted = 0;                // leading drafts accepted
  int token = -1;                    // the target's own token after them: residual draw or bonus
  bool bonus = false;                // every draft accepted: drawn from p after the last draft
  float token_p = 0;                 // its probability in the distribution it was drawn from
  double u_token = 0;                // the uniform number of that draw (kSpecResidualStream)
  double residual_mass = 0;          // Σ max(0, p - q) at the rejected position (0 for a bonus)
  std::vector<TokenProb> token_top;  // that distribution's best entries (residual, or p)
  int emitted = 0;                   // tokens this round added to the text (fewer after a stop)
  int draft_passes = 0;
  double draft_seconds = 0;   // the draft's passes, distributions and draws
  double target_seconds = 0;  // the verification pass, distributions and tests
};

struct SpecResult {
  std::vector<int> tokens;        // generated
  std::vector<double> raw_log_p;  // per token: log p under the raw target model (natural log)
  std::vector<SpecRound> rounds;
  StopReason stop = StopReason::None;
  int target_passes = 0;  // verification passes (one per round; prefill excluded)
  int draft_passes = 0;   // prefill excluded
  int drafted = 0, accepted = 0;
  int tested = 0;                   // drafts tested (all but those after a rejection)
  double prefill_seconds = 0;  // both models' prefills
  double seconds = 0;          // the whole run, prefills included
  // accepted / drafted: the share of the draft's work kept (drafts after a rejection count).
  double acceptance_rate() const { return drafted ? double(accepted) / drafted : 0.0; }
  // accepted / tested: the chance that one test passes (alpha in the analyses).
  double test_pass_rate() const { return tested ? double(accepted) / tested : 0.0; }
  double tokens_per_target_pass() const {
    return target_passes ? double(tokens.size()) / target_passes : 0.0;
  }
};

// Errors: invalid settings, an empty prompt or one that fills the context, models whose
// vocabularies differ in size, the engine's own.
Result<SpecResult> speculative_decode(Forward& target, Forward& draft, std::span<const int> prompt,
                                      const SpecSettings& s);

}  // namespace ts
