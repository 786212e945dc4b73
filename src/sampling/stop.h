// Stop conditions: why generation ends (EOS, a stop string, the token budget, a full context),
// and stop-string matching as a pure function of the generated text so far, so a stop string
// split across tokens is found and a rewind needs no state. It does not decode tokens to text.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

enum class StopReason { None, Eos, StopString, MaxTokens, ContextFull };
const char* stop_reason_name(StopReason r);  // "none", "eos", "stop string", "max tokens", ...

struct StopMatch {
  bool matched = false;
  int stop_index = -1;    // which stop string matched (index into the list), -1 if none
  size_t match_pos = 0;   // byte offset in the text where it starts (text before it is output)
  // When nothing matched: the longest suffix of the text that is a proper prefix of a stop
  // string (the app shows "2/5 bytes of '\n\nUser'"). -1 / 0 if none.
  int partial_index = -1;
  int partial_bytes = 0;
};

// Bytewise search of `generated_text` (the generated text only, not the prompt) for each
// non-empty stop string. The earliest match wins; at equal start, the lower index. Empty stop
// strings are ignored; one longer than the text never matches (it may be a partial match).
// Feed the text piece by piece by calling again on the longer text; O(text * stops) per call.
StopMatch check_stop(std::string_view generated_text, const std::vector<std::string>& stops);

struct StopInputs {
  int chosen_id = -1;
  int eos_id = -1;             // < 0: the model has no EOS token
  bool stop_string = false;    // check_stop(...).matched on the text including the chosen token
  int n_generated = 0;         // tokens generated so far, including the chosen one
  int max_tokens = 0;          // token budget; <= 0 = unlimited
  int position = 0;            // 0-based position of the chosen token in the sequence
  int n_ctx = 0;               // context size; <= 0 = unlimited
};

// The stop decision after choosing a token. Precedence when several hold at once: Eos (the
// model's own choice), then StopString (the content), then MaxTokens, then ContextFull (the
// budgets). ContextFull: the chosen token sits at position n_ctx - 1 or later, so the sequence
// fills the context and no further token could be computed.
StopReason stop_reason(const StopInputs& in);

}  // namespace ts
