// GPT-2 byte <-> code point tables, built once: bytes '!'..'~', 0xA1..0xAC and 0xAE..0xFF keep
// their own code point; the remaining 68 bytes get U+0100, U+0101, ... in increasing byte order.
#include "tokenizer/byte_unicode.h"

#include <array>

#include "base/utf8.h"

namespace ts {
namespace {

struct Tables {
  std::array<uint32_t, 256> to_cp{};
  std::array<int16_t, 324> to_byte{};  // code points 0..323 cover every image
};

bool keeps_own_code_point(int b) {
  return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

const Tables& tables() {
  static const Tables t = [] {
    Tables r;
    r.to_byte.fill(-1);
    uint32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      r.to_cp[b] = keeps_own_code_point(b) ? static_cast<uint32_t>(b) : next++;
      r.to_byte[r.to_cp[b]] = static_cast<int16_t>(b);
    }
    return r;
  }();
  return t;
}

}  // namespace

uint32_t gpt2_byte_to_cp(uint8_t b) { return tables().to_cp[b]; }

int gpt2_cp_to_byte(uint32_t cp) {
  const auto& t = tables();
  return cp < t.to_byte.size() ? t.to_byte[cp] : -1;
}

std::string gpt2_bytes_to_piece(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) utf8_append(out, gpt2_byte_to_cp(static_cast<uint8_t>(c)));
  return out;
}

bool gpt2_piece_to_bytes(std::string_view piece, std::string& out) {
  out.clear();
  for (size_t i = 0; i < piece.size();) {
    const int n = utf8_seq_len(piece, i);
    if (n == 0) return false;
    const int b = gpt2_cp_to_byte(utf8_decode_at(piece, i));
    if (b < 0) return false;
    out += static_cast<char>(b);
    i += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace ts
