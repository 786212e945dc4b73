// TokenizerData <-> the tokenizer.ggml.* metadata of a GGUF file (model, pre, tokens, scores,
// token_type, merges, special ids, add_bos_token, add_space_prefix, tokenizer.chat_template).
// Reads and writes the data only; the algorithms are in tokenizer/.
#pragma once
#include "base/error.h"
#include "formats/gguf.h"
#include "tokenizer/tokenizer.h"

namespace ts {

// The SentencePiece space mark, U+2581, that GGUF "llama" vocabularies use inside pieces.
inline constexpr const char* kSpmSpace = "\xE2\x96\x81";

bool gguf_has_tokenizer(const GgufFile& f);  // tokenizer.ggml.tokens present
// Errors name the key: missing tokens, unknown tokenizer.ggml.model, a list whose length
// differs from the token count, a special id out of range.
Result<TokenizerData> tokenizer_from_gguf(const GgufFile& f);
// Writes the keys. An SPM vocabulary whose space_char is not U+2581 (llama2.c's " ") is written
// with U+2581 in its pieces, as every GGUF reader expects, and its "\n<s>\n" / "\n</s>\n" as
// "<s>" / "</s>"; it reads back with space_char U+2581.
// A BPE pre-tokenizer named "gpt2" (or unnamed) is written as llama.cpp's "gpt-2", and a BPE
// vocabulary always with add_space_prefix false (tokenscope never prefixes a space there).
Status tokenizer_to_gguf(const TokenizerData& t, GgufWriter& w);

}  // namespace ts
