// GPT-2's reversible byte <-> Unicode mapping: byte-level BPE vocabularies store every piece as
// text in which each raw byte is one visible code point (printable Latin-1 bytes stand for
// themselves, the other 68 bytes become U+0100.. in byte order; the space 0x20 becomes "Ġ").
// This file only converts; it knows nothing about merges or vocabularies.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace ts {

// The code point that stands for byte `b` inside a stored BPE piece.
uint32_t gpt2_byte_to_cp(uint8_t b);
// The byte that code point `cp` stands for, or -1 if `cp` is not the image of any byte.
int gpt2_cp_to_byte(uint32_t cp);
// Raw bytes -> stored piece text (always valid UTF-8).
std::string gpt2_bytes_to_piece(std::string_view bytes);
// Stored piece text -> raw bytes. Returns false (and leaves `out` unspecified) when the piece is
// not valid UTF-8 or holds a code point that is not a mapped byte (e.g. "<|endoftext|>" is fine:
// all ASCII; a CJK character is not).
bool gpt2_piece_to_bytes(std::string_view piece, std::string& out);

}  // namespace ts
