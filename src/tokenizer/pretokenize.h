// BPE pre-tokenizers: split text into the "words" that byte-level BPE merges inside. GPT-2's
// regex 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+ and the
// LLaMA-3 / Qwen2 one (below), written by hand over code points (Unicode categories from
// utf8proc; \s = White_Space).
// Bytes that are not valid UTF-8 count as one "other" character each, so every byte of the input
// lands in exactly one pre-token. No merging, no vocabulary here.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace ts {

// End (byte offset) of the pre-token that starts at byte `pos` (< text.size()). Stateless: walk
// the text with pos = gpt2_pretoken_end(text, pos) until pos == text.size().
size_t gpt2_pretoken_end(std::string_view text, size_t pos);

// All pre-tokens of `text`, in order (views into `text`); they concatenate back to `text`.
std::vector<std::string_view> gpt2_pretokenize(std::string_view text);

// LLaMA-3's regex (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
// ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+ ; Qwen2's is the same with \p{N} (one
// digit per pre-token): max_digits 3 or 1.
size_t llama3_pretoken_end(std::string_view text, size_t pos, int max_digits);

// SmolLM's (llama.cpp's LLAMA_VOCAB_PRE_TYPE_SMOLLM, shared with StarCoder): two regexes in turn,
// first \p{N} (every digit its own pre-token), then GPT-2's regex over each stretch of text
// between digits, on its own (so "a  1" gives "a", "  ", "1": the whitespace rule's look-ahead
// stops at the digit).
size_t smollm_pretoken_end(std::string_view text, size_t pos);

enum class PreTokenizer { Gpt2, Llama3, Qwen2, Smollm };
// tokenizer.ggml.pre name -> splitter: "gpt2", "gpt-2", "default" (and "") -> Gpt2;
// "llama3", "llama-v3", "llama-bpe" -> Llama3; "qwen2" -> Qwen2; "smollm" -> Smollm. False for
// other names.
bool pre_tokenizer_from_name(std::string_view name, PreTokenizer& out);
size_t pretoken_end(PreTokenizer p, std::string_view text, size_t pos);
std::vector<std::string_view> pretokenize(PreTokenizer p, std::string_view text);

}  // namespace ts
