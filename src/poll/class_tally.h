// The class's guesses counted by the model's tokens, for the bars beside the model's own: each
// guess counts as ONE token, the first the tokenizer gives it. A student types "dog" where the
// model would write " dog", so a guess that does not start with a space is read both ways ("dog"
// and " dog") and counts as whichever first token the model finds likelier (the spaced one on a
// tie or when the model's list has neither). A student "thought like the model" when that token
// is the model's rank-1 token. Pure function of its inputs: call it when the snapshot changed.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "poll/poll_state.h"
#include "tokenizer/tokenizer.h"

namespace ts {

// One entry of the model's distribution at the step being guessed. The list may be the whole
// vocabulary or its top-k; a token missing from it counts as p = 0, rank 0 ("not in the list").
struct ModelToken {
  int id = -1;
  float p = 0.0f;
  int rank = 0;  // 1 = the model's most likely token
};

struct TallyBar {
  int token = -1;
  int count = 0;        // students whose guess counts as this token
  float p = 0.0f;       // the model's probability of it (0 when not in the list)
  int rank = 0;         // the model's rank of it (0 when not in the list)
  std::string example;  // one guess as typed, for a tooltip (plain text only)
};

struct ClassTally {
  std::vector<TallyBar> bars;  // by count, then the model's p, then token id
  int guesses = 0;             // guesses counted (tokenized to at least one token)
  int untokenized = 0;         // guesses that gave no token at all
  int like_model = 0;          // guesses whose token is the model's rank-1 token
  int model_top = -1;          // that token (-1 when the list is empty)
};

// The first token `guess` counts as, or -1 when it gives none (empty or only spaces).
int guess_token(std::string_view guess, const Tokenizer& tok, std::span<const ModelToken> model);

ClassTally tally_guesses(std::span<const PollGuess> guesses, const Tokenizer& tok,
                         std::span<const ModelToken> model);

}  // namespace ts
