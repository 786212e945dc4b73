// The limits of a decoding loop (decode_limits.h).
#include "decode/decode_limits.h"

#include <string>

namespace ts {

Status validate(const DecodeLimits& lim) {
  if (lim.max_tokens < 1) {
    return make_error("max tokens must be at least 1, got " + std::to_string(lim.max_tokens));
  }
  if (lim.n_ctx < 1) return make_error("the context must hold at least 1 position");
  return ok_status();
}

StopReason decode_stop(const DecodeLimits& lim, int token, int n_generated, int position) {
  if (token >= 0 && token == lim.bos_id) return StopReason::Eos;
  StopInputs in;
  in.chosen_id = token;
  in.eos_id = lim.eos_id;
  in.n_generated = n_generated;
  in.max_tokens = lim.max_tokens;
  in.position = position;
  in.n_ctx = lim.n_ctx;
  return stop_reason(in);
}

Status check_prompt(const DecodeLimits& lim, int n_prompt) {
  if (n_prompt < 1) return make_error("the prompt has no tokens");
  if (n_prompt >= lim.n_ctx) {
    return make_error("the prompt's " + std::to_string(n_prompt) +
                      " tokens leave no room in the context of " + std::to_string(lim.n_ctx));
  }
  return ok_status();
}

}  // namespace ts
