// Tokenizer::Impl: the lookup tables derived once from TokenizerData (piece index, per-token
// type, raw bytes, byte tokens, BPE merges, special-token matcher). Private to src/tokenizer/;
// built and validated in tokenizer_create.cpp, used by tokenizer.cpp.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "tokenizer/bpe_model.h"
#include "tokenizer/piece_map.h"
#include "tokenizer/pretokenize.h"
#include "tokenizer/special_split.h"
#include "tokenizer/tokenizer.h"

namespace ts {

struct Tokenizer::Impl {
  TokenizerData data;
  PieceMap pieces;                  // stored piece -> first id with that text
  std::vector<TokenType> type;      // (vocab_size) given types, or inferred when absent
  std::vector<std::string> bytes;   // (vocab_size) what each token decodes to
  std::vector<uint8_t> mergeable;   // (vocab_size) SPM: may be formed by merging
  std::array<int, 256> byte_ids{};  // token of each single byte (BPE) / byte fallback (SPM)
  BpeModel bpe;
  PreTokenizer pre = PreTokenizer::Gpt2;  // BPE: how text is split before merging
  bool ignore_merges = false;  // BPE (LLaMA-3): a pre-token that is a whole piece is used as is
  SpecialMatcher specials;          // control + user-defined pieces matched inside text

  Status build_bpe();  // tokenizer_create.cpp: byte ids, merges, decoded bytes
  Status build_spm();  // tokenizer_create.cpp: byte fallback ids, mergeable flags, bytes

  bool valid(int id) const { return id >= 0 && id < static_cast<int>(type.size()); }
  bool is_control(int id) const { return valid(id) && type[id] == TokenType::Control; }
};

}  // namespace ts
