// UTF-8 validation and repair by hand (RFC 3629 rules: no overlongs, no surrogates, <= U+10FFFF).
#include "base/utf8.h"

#include <algorithm>
#include <cstdio>

namespace ts {

int utf8_seq_len(std::string_view s, size_t i) {
  if (i >= s.size()) return 0;
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  int n;
  uint32_t cp;
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (int k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return 0;
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

bool utf8_valid(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_seq_len(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

uint32_t utf8_decode_at(std::string_view s, size_t i) {
  const int n = utf8_seq_len(s, i);
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  if (n <= 1) return n == 1 ? b(i) : 0xFFFD;
  uint32_t cp = b(i) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (int k = 1; k < n; ++k) cp = (cp << 6) | (b(i + k) & 0x3F);
  return cp;
}

void utf8_append(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::vector<std::string> utf8_chars(std::string_view s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    int n = utf8_seq_len(s, i);
    if (n == 0) n = 1;
    out.emplace_back(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string utf8_sanitize(std::string_view s, bool hex_bytes) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_seq_len(s, i);
    if (n == 0) {
      if (hex_bytes) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "<0x%02X>", static_cast<unsigned char>(s[i]));
        out += buf;
      } else {
        out += "\xEF\xBF\xBD";
      }
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string display_label(std::string_view s, size_t max_chars) {
  const std::string clean = utf8_sanitize(s, true);
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < clean.size();) {
    const int n = std::max(1, utf8_seq_len(clean, i));
    if (chars == max_chars) {
      out += "\xE2\x80\xA6";  // …
      break;
    }
    const uint32_t cp = utf8_decode_at(clean, i);
    char buf[12];
    if (cp < 0x20 || cp == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(cp));
      out += buf;
    } else if (cp >= 0x80 && cp <= 0x9F) {
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(clean, i, static_cast<size_t>(n));
    }
    ++chars;
    i += static_cast<size_t>(n);
  }
  return out;
}

}  // namespace ts
