// The GPT-2 pre-tokenizer: splits text into the "words" that byte-level BPE merges inside, as
// the regex 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+ would,
// written by hand over code points (Unicode categories from utf8proc; \s = White_Space).
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

}  // namespace ts
