// Training a byte-level BPE tokenizer (GPT-2 style) on a text corpus: the vocabulary our own
// models use. Produces TokenizerData ready for Tokenizer::create and for saving in a GGUF file.
// Does not read files, print or tokenize the corpus for training; callers do that.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "base/error.h"
#include "tokenizer/tokenizer.h"

namespace ts {

struct BpeTrainOptions {
  // Merging stops early (fewer tokens than asked) once the most frequent pair occurs fewer
  // than this many times in the corpus.
  int min_pair_count = 2;
  // The one special token, appended as the last id and used as BOS and EOS. The corpus is cut
  // at its exact occurrences (document boundaries), so no merge ever spans or spells it.
  std::string special_token = "<|endoftext|>";
  // Called after every merge with (tokens so far, vocab_size); return false to cancel (then
  // train_bpe returns an error "cancelled").
  std::function<bool(int, int)> progress;
};

// Result<TokenizerData> train_bpe(std::string_view corpus, int vocab_size,
//                                 const BpeTrainOptions& options = {});
//
// The result, for vocab_size V (>= 258) and a corpus rich enough:
//   ids 0..255      the single bytes 0x00..0xFF in byte order (stored GPT-2 mapped: 0x20 is "Ġ");
//   ids 256..V-2    the tokens learned by merging, in the order learned; merges lists every
//                   merge in rank order. Usually merges[k] made id 256+k, but a merge whose
//                   bytes are already a token ("a"+"bc" after "ab"+"c") adds a merge, no id;
//   id  V-1         options.special_token, type Control; bos_id = eos_id = V-1.
// kind Bpe, pre "gpt2", add_bos true, token_types filled (Normal, last Control), scores empty,
// unk_id = pad_id = -1. Pre-tokenization is the GPT-2 one used by Tokenizer::encode, and merges
// never cross pre-token boundaries, so encoding the corpus reproduces the training segmentation.
// Ties between equally frequent pairs go to the smaller (left id, right id): deterministic.
// If the corpus runs out of pairs (see min_pair_count) the vocabulary is smaller than V:
// read the size from tokens.size(). Errors: V < 258, empty corpus, cancelled.
Result<TokenizerData> train_bpe(std::string_view corpus, int vocab_size,
                                const BpeTrainOptions& options = {});

}  // namespace ts
