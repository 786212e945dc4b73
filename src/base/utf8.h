// UTF-8 helpers: validation, splitting into code points, and making arbitrary bytes safe to
// show (invalid or partial sequences become U+FFFD or <0xNN>, never invalid output on screen).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is invalid/truncated.
int utf8_seq_len(std::string_view s, size_t i);
bool utf8_valid(std::string_view s);
// Decode one code point at s[i] (must be valid: utf8_seq_len > 0).
uint32_t utf8_decode_at(std::string_view s, size_t i);
void utf8_append(std::string& out, uint32_t cp);
// Split into code points; an invalid byte becomes its own one-byte piece.
std::vector<std::string> utf8_chars(std::string_view s);
// Valid UTF-8 for display: invalid bytes become "<0xNN>" (hex_bytes) or U+FFFD.
std::string utf8_sanitize(std::string_view s, bool hex_bytes = true);
// A label from a file (a model's general.name, a path) made safe to show on one line: valid
// UTF-8, control characters (C0, DEL, C1; newlines included) written as \xNN / \uNNNN, and at
// most max_chars code points (then "…").
std::string display_label(std::string_view s, size_t max_chars = 120);

}  // namespace ts
