// The model's cross-entropy on a text (`tokenscope eval --val-text`): the text is tokenized as a
// whole and scored in windows of the model's context length that share one token (stride
// n_ctx - 1): each window's first token is context only, so every token after the text's first
// is predicted exactly once, with 1 .. n_ctx - 1 tokens of context. No printing here.
#pragma once
#include <cstddef>
#include <span>
#include <string_view>

#include "base/error.h"
#include "engine/model.h"
#include "tokenizer/tokenizer.h"

namespace ts {

struct TextLoss {
  int tokens = 0;         // tokens of the text (BOS included when the tokenizer adds one)
  int tokens_scored = 0;  // tokens predicted (tokens - 1)
  int windows = 0;
  int window = 0;  // tokens per window (the model's n_ctx)
  int stride = 0;  // window - 1
  double total_nats = 0;
  double nats_per_token = 0;
  size_t bytes_scored = 0;  // bytes of the scored tokens (the text's, less an unscored first token)
  double bits_per_byte = 0;  // total_nats / ln 2 / bytes_scored
};

// Scores `tokens` (at least 2) with decode passes of the engine's Forward, one token at a time.
Result<TextLoss> token_cross_entropy(const Model& model, std::span<const int> tokens,
                                     int n_threads = 1);
// Tokenizes `text` (BOS as the tokenizer asks) and scores it; bytes_scored is text.size() when
// the first token is a special one (BOS), else text.size() less the first token's bytes.
Result<TextLoss> text_cross_entropy(const Model& model, const Tokenizer& tokenizer,
                                    std::string_view text, int n_threads = 1);

}  // namespace ts
