// Tokenizer: text <-> token ids for the two families tokenscope reads: byte-level BPE with
// merges (GPT-2 style, what our own models use) and SentencePiece-style scores with byte
// fallback (LLaMA, llama2.c). TokenizerData is exactly what a GGUF file's tokenizer.ggml.*
// metadata holds, so formats/ can read and write it without knowing the algorithms.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace ts {

enum class TokenizerKind { Bpe /* tokenizer.ggml.model = "gpt2" */, Spm /* "llama" */ };

// GGUF token types (tokenizer.ggml.token_type).
enum class TokenType : int32_t {
  Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6
};

struct TokenizerData {
  TokenizerKind kind = TokenizerKind::Bpe;
  std::string pre = "gpt2";  // tokenizer.ggml.pre (BPE pre-tokenizer name)
  std::vector<std::string> tokens;   // (vocab_size) pieces as stored (BPE: GPT-2 byte->unicode)
  std::vector<float> scores;         // (vocab_size) SPM merge scores; may be empty for BPE
  std::vector<int32_t> token_types;  // (vocab_size) TokenType values; may be empty
  std::vector<std::string> merges;   // BPE merges "left right", in priority order
  int bos_id = -1, eos_id = -1, unk_id = -1, pad_id = -1;
  bool add_bos = false;          // tokenizer.ggml.add_bos_token
  bool add_space_prefix = true;  // SPM: prepend a space to non-empty text
  // SPM: the character that stands for a space inside pieces. "\xE2\x96\x81" (U+2581) for
  // SentencePiece models; " " for llama2.c's tokenizer.bin.
  std::string space_char = "\xE2\x96\x81";
  std::string chat_template;  // tokenizer.chat_template (a Jinja2 text; chat/ renders it)
};

class Tokenizer {
 public:
  // Validates the data (sizes agree, special ids in range, merges name known pieces).
  static Result<Tokenizer> create(TokenizerData data);
  Tokenizer();
  ~Tokenizer();
  Tokenizer(const Tokenizer&);
  Tokenizer& operator=(const Tokenizer&);
  Tokenizer(Tokenizer&&) noexcept;
  Tokenizer& operator=(Tokenizer&&) noexcept;

  // Any bytes are accepted (invalid UTF-8 is encoded through byte pieces / byte fallback).
  // `add_bos`: prepend bos_id (if any); callers usually pass data().add_bos.
  // Special tokens: the exact text of a Control or UserDefined piece ("<|endoftext|>", "<s>")
  // becomes that one id (like llama.cpp's parse_special and Hugging Face's default); nothing
  // else ever produces a control id. SPM prefixes a space to the text at the start and after
  // each special token (add_space_prefix), as llama.cpp does.
  std::vector<int> encode(std::string_view text, bool add_bos) const;
  // The raw bytes token `id` stands for (BPE: unmapped bytes; SPM: space_char -> ' ', <0xNN> ->
  // byte; control tokens: nothing; unknown: U+FFFD). `prev` is the previous id (-1 if none):
  // SPM drops the leading space after BOS (after any control token). Out-of-range id: "".
  std::string token_bytes(int id, int prev = -1) const;
  // token_bytes(id) of every id, indexed by id (what the constraint stages read).
  const std::vector<std::string>& all_token_bytes() const;
  // `ids` as one sequence from the start of a text: SPM also drops the prefixed space of the
  // first token, so decode(encode(x, b)) == x for any bytes x without special-token text.
  std::string decode(std::span<const int> ids) const;
  // A visible label for a chip: spaces as "␣", newline as "↵", tab as "⇥", byte pieces as
  // "<0xE2>", control tokens as stored ("<s>"); always valid UTF-8 (visible_bytes below).
  std::string display_piece(int id) const;

  int vocab_size() const;
  bool is_special(int id) const;  // control / unknown tokens
  bool is_byte(int id) const;     // a single-byte piece that is not valid UTF-8 alone
  const TokenizerData& data() const;
  int bos_id() const { return data().bos_id; }
  int eos_id() const { return data().eos_id; }
  int find(std::string_view piece) const;  // id of an exact stored piece, or -1
  // The token a person means by `text` (lessons' `force " dog"`, scripts' `force PIECE`): the
  // ordinary token whose bytes are `text`, else the token stored as `text` (a special one by its
  // own text, "<|endoftext|>"), else the one whose stored piece is `text` with spaces spelled as
  // the vocabulary spells them ("▁dog"), else the one shown as `text` on the chips ("␣dog").
  // -1 when none.
  int find_text(std::string_view text) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Bytes made visible as chips show them: spaces, newlines and tabs as ␣ ↵ ⇥; other control
// characters and invalid UTF-8 as <0xNN>.
std::string visible_bytes(std::string_view s);

}  // namespace ts
