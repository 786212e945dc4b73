// SentencePiece-style encoding (llama.cpp's "SPM" algorithm, which llama2.c's encoder agrees
// with): split the (space-escaped) text into UTF-8 characters, repeatedly merge the adjacent
// pair whose concatenation is a mergeable piece with the highest score (leftmost on ties), then
// emit each symbol's id, or its bytes' fallback ids when the symbol is not a piece.
// Space escaping, BOS and special tokens are the Tokenizer's job, not this file's.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tokenizer/piece_map.h"

namespace ts {

struct SpmVocab {
  const PieceMap& pieces;
  const std::vector<float>& scores;        // (vocab_size)
  const std::vector<uint8_t>& mergeable;   // (vocab_size) 1: may be produced by merging
  const std::array<int, 256>& byte_ids;    // byte-fallback token of each byte
};

void spm_encode(std::string_view text, const SpmVocab& v, std::vector<int>& out);

}  // namespace ts
