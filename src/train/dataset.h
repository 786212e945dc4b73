// Training data: the corpus split into documents, documents into train / validation, both
// tokenized into one stream each (every document preceded by the end-of-text token, which is
// also BOS), random training windows drawn by (seed, step), fixed validation windows, and the
// unigram baseline loss. No file reading and no printing here.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace ts {

// Splits at every exact `separator`; trims surrounding whitespace; drops empty documents.
std::vector<std::string> split_documents(std::string_view text, std::string_view separator);

struct TokenStreams {
  std::vector<int> train;  // (n_train_tokens)
  std::vector<int> val;    // (n_val_tokens)
};

// The last `val_fraction` of the documents (at least one) go to validation. `eos` is prepended
// to every document. Encodes on n_threads threads; the result does not depend on n_threads.
TokenStreams tokenize_documents(const Tokenizer& tok, const std::vector<std::string>& docs,
                                double val_fraction, int eos, int n_threads);

// A batch of `batch` windows of seq_len + 1 tokens at offsets drawn from (seed, step): tokens are
// positions 0..seq_len-1 of each window, targets positions 1..seq_len. (batch*seq_len) each.
void sample_batch(std::span<const int> stream, int batch, int seq_len, uint64_t seed, long step,
                  std::vector<int>& tokens, std::vector<int>& targets);

// Validation windows: consecutive non-overlapping windows from the start, at most max_windows.
// Window w: tokens at w*seq_len ..., targets one later.
int validation_windows(std::span<const int> stream, int seq_len, int max_windows);
void validation_batch(std::span<const int> stream, int seq_len, int first_window, int count,
                      std::vector<int>& tokens, std::vector<int>& targets);

// Cross-entropy (nats / token) on `eval` of the add-one-smoothed token frequencies of `train`:
// the loss of a model that ignores context. A trained model must beat it clearly.
double unigram_loss(std::span<const int> train, std::span<const int> eval, int vocab_size);

}  // namespace ts
