// What ends a decoding run that works straight on the engine (beam search, speculative decoding,
// the plain loop they are compared with): the end-of-text token, the token budget and the
// context. Stop strings are the session's (they need the text); these loops see only ids.
#pragma once
#include "base/error.h"
#include "sampling/stop.h"

namespace ts {

struct DecodeLimits {
  int max_tokens = 64;  // new tokens at most, >= 1
  int eos_id = -1;      // a generated eos ends the text (< 0: none)
  int bos_id = -1;      // so does a generated bos (llama2.c's convention, as in the session)
  int n_ctx = 0;        // positions 0 .. n_ctx - 1 exist (> 0; the model's context)
};

Status validate(const DecodeLimits& lim);

// Why the text ends after generated token number n_generated - 1 (`token`, at `position`):
// eos (or bos), then the budget, then the context (sampling/stop.h's precedence); None: go on.
StopReason decode_stop(const DecodeLimits& lim, int token, int n_generated, int position);

// A prompt the loops can start from: at least one token, and room after it for one more.
Status check_prompt(const DecodeLimits& lim, int n_prompt);

}  // namespace ts
