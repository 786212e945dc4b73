// Fuzz harnesses for the two tokenizers: arbitrary bytes (invalid UTF-8, NULs, control
// characters, emoji, combining marks) must encode to in-range ids that decode back to exactly the
// same bytes, and every piece's label must be valid UTF-8 on one line, even when a piece is a
// partial UTF-8 sequence. The first input byte picks a tokenizer variant; the rest is the text.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "fuzz/harness_common.h"
#include "fuzz/seed_models.h"
#include "tokenizer/bpe_trainer.h"
#include "tokenizer/tokenizer.h"

namespace ts::fuzz {

// A corpus with words, punctuation, digits, emoji and accents, so training learns merges of
// every kind the GPT-2 pre-tokenizer produces.
inline const char* kBpeCorpus =
    "Once upon a time, there was a little girl named Lily. She liked to play in the park.\n"
    "One day, she saw a big red ball. \"Can I play?\" she asked. The boy said: 'Yes!' 123 4567\n"
    "They played and played until the sun went down. caf\xC3\xA9 na\xC3\xAFve \xF0\x9F\x98\x80"
    "\xF0\x9F\x98\x80 e\xCC\x81 \xE4\xBD\xA0\xE5\xA5\xBD  \t tabs\tand  spaces   end.\n"
    "<|endoftext|>Another story: the cat sat on the mat. It's the cat's hat; they're happy.\n";

inline const Tokenizer& fuzz_bpe() {
  static const Tokenizer tok = [] {
    Result<TokenizerData> d = train_bpe(kBpeCorpus, 340);
    Result<Tokenizer> t = Tokenizer::create(d.ok() ? d.value() : TokenizerData{});
    return t.ok() ? std::move(t).value() : Tokenizer();
  }();
  return tok;
}

inline const Tokenizer& fuzz_spm(int variant) {
  static const Tokenizer toks[2] = {
      Tokenizer::create(small_spm(300, true, "\xE2\x96\x81")).value(),  // SentencePiece style
      Tokenizer::create(small_spm(300, true, " ")).value(),             // llama2.c style
  };
  return toks[variant & 1];
}

// True when `text` contains the exact text of a control / user-defined piece (encode turns it
// into that one id, so the round trip is not expected to hold).
inline bool has_special_text(const Tokenizer& tok, const std::string& text) {
  const TokenizerData& d = tok.data();
  for (size_t i = 0; i < d.tokens.size() && i < d.token_types.size(); ++i) {
    const auto type = static_cast<TokenType>(d.token_types[i]);
    if ((type == TokenType::Control || type == TokenType::UserDefined) && !d.tokens[i].empty() &&
        text.find(d.tokens[i]) != std::string::npos) {
      return true;
    }
  }
  return false;
}

inline std::string round_trip(const Tokenizer& tok, const std::string& text, bool add_bos) {
  if (tok.vocab_size() == 0) return "the fuzz tokenizer could not be built";
  const std::vector<int> ids = tok.encode(text, add_bos);
  for (int id : ids) {
    if (id < 0 || id >= tok.vocab_size()) return "encode produced id " + std::to_string(id);
    if (std::string bad = check_shown(tok.display_piece(id), "token label"); !bad.empty()) {
      return bad;
    }
  }
  if (add_bos && tok.bos_id() >= 0 && (ids.empty() || ids.front() != tok.bos_id())) {
    return "encode with add_bos does not start with BOS";
  }
  // SentencePiece writes a space as U+2581, so a literal U+2581 in the text comes back as a space
  // (as in SentencePiece and llama.cpp): the one other case where the round trip cannot hold.
  const std::string& mark = tok.data().space_char;
  const bool has_mark = tok.data().kind == TokenizerKind::Spm && mark != " " &&
                        text.find(mark) != std::string::npos;
  if (!has_special_text(tok, text) && !has_mark) {
    const std::string back = tok.decode(ids);
    if (back != text) {
      return "round trip changed the text: '" + utf8_sanitize(text) + "' -> '" +
             utf8_sanitize(back) + "'";
    }
  }
  // Streaming: each piece shown as it arrives (raw bytes, possibly partial UTF-8) is sanitised.
  int prev = -1;
  for (int id : ids) {
    if (!utf8_valid(utf8_sanitize(tok.token_bytes(id, prev)))) return "piece not sanitised";
    prev = id;
  }
  return "";
}

inline std::string run_bpe(std::span<const uint8_t> in) {
  if (in.empty()) return round_trip(fuzz_bpe(), "", false);
  return round_trip(fuzz_bpe(), as_text(in.subspan(1)), (in[0] & 1) != 0);
}

inline std::string run_spm(std::span<const uint8_t> in) {
  if (in.empty()) return round_trip(fuzz_spm(0), "", false);
  return round_trip(fuzz_spm(in[0] >> 1), as_text(in.subspan(1)), (in[0] & 1) != 0);
}

}  // namespace ts::fuzz
