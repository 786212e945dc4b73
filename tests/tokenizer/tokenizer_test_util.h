// Helpers shared by the tokenizer tests: a hand-made byte-level BPE vocabulary (256 byte pieces
// in byte order plus given merges) and readable id lists for failure messages.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tokenizer/byte_unicode.h"
#include "tokenizer/tokenizer.h"

namespace ts::test {

// Merges are given as raw-byte pairs {"l", "o"}; the merged token gets the next id.
inline TokenizerData tiny_bpe(const std::vector<std::pair<std::string, std::string>>& merges) {
  TokenizerData d;
  d.kind = TokenizerKind::Bpe;
  for (int b = 0; b < 256; ++b) d.tokens.push_back(gpt2_bytes_to_piece(std::string(1, char(b))));
  for (const auto& [l, r] : merges) {
    d.merges.push_back(gpt2_bytes_to_piece(l) + " " + gpt2_bytes_to_piece(r));
    d.tokens.push_back(gpt2_bytes_to_piece(l + r));
  }
  d.tokens.push_back("<|endoftext|>");
  d.token_types.assign(d.tokens.size(), int32_t(TokenType::Normal));
  d.token_types.back() = int32_t(TokenType::Control);
  d.bos_id = d.eos_id = int(d.tokens.size()) - 1;
  return d;
}

inline std::string ids_str(const std::vector<int>& ids) {
  std::string s;
  for (int id : ids) s += " " + std::to_string(id);
  return s;
}

// A tokenizer built from hand-made data; fails the test case when the data is rejected.
inline Tokenizer make_tokenizer(const TokenizerData& d) {
  auto r = Tokenizer::create(d);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  return std::move(r).value();
}

// Deterministic pseudo-random bytes (xorshift), any value 0..255.
inline std::string random_bytes(size_t n, uint64_t seed) {
  std::string s(n, '\0');
  seed |= 1;  // xorshift never leaves zero
  for (auto& c : s) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    c = char(seed & 0xFF);
  }
  return s;
}

}  // namespace ts::test
