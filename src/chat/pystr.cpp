// Python's str operations on UTF-8 code points (see pystr.h). White space is Python's own set
// (bidirectional class WS, B or S, or category Zs); case mapping is utf8proc's one-to-one
// mapping, refused for the characters Unicode's SpecialCasing maps to several code points.
#include "chat/pystr.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdio>

#include "base/utf8.h"
#include "chat/value.h"

namespace ts::chat {

bool py_isspace(uint32_t cp) {
  if (cp <= 0x20) return cp == 0x20 || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F);
  switch (cp) {
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

std::vector<uint32_t> to_code_points(std::string_view s) {
  std::vector<uint32_t> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_seq_len(s, i);
    out.push_back(n > 0 ? utf8_decode_at(s, i) : 0xFFFD);
    i += n > 0 ? n : 1;
  }
  return out;
}

std::string from_code_points(const std::vector<uint32_t>& cps, size_t begin, size_t end) {
  std::string out;
  for (size_t k = begin; k < end; ++k) utf8_append(out, cps[k]);
  return out;
}

size_t code_point_count(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string py_strip(std::string_view s, const std::optional<std::string>& chars, bool left,
                     bool right) {
  const std::vector<uint32_t> cps = to_code_points(s);
  std::vector<uint32_t> set;
  if (chars) set = to_code_points(*chars);
  const auto strip = [&](uint32_t c) {
    return chars ? std::find(set.begin(), set.end(), c) != set.end() : py_isspace(c);
  };
  size_t b = 0, e = cps.size();
  if (left)
    while (b < e && strip(cps[b])) ++b;
  if (right)
    while (e > b && strip(cps[e - 1])) --e;
  return from_code_points(cps, b, e);
}

namespace {

// Splits on runs of white space, at most maxsplit times (< 0: no limit), from the left.
std::vector<std::string> split_whitespace(std::string_view s, int64_t maxsplit) {
  const std::vector<uint32_t> cps = to_code_points(s);
  std::vector<std::string> out;
  size_t k = 0;
  while (true) {
    while (k < cps.size() && py_isspace(cps[k])) ++k;
    if (k == cps.size()) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
      size_t e = cps.size();
      while (e > k && py_isspace(cps[e - 1])) --e;
      out.push_back(from_code_points(cps, k, e));
      break;
    }
    size_t b = k;
    while (k < cps.size() && !py_isspace(cps[k])) ++k;
    out.push_back(from_code_points(cps, b, k));
  }
  return out;
}

std::vector<std::string> rsplit_whitespace(std::string_view s, int64_t maxsplit) {
  const std::vector<uint32_t> cps = to_code_points(s);
  std::vector<std::string> out;
  size_t k = cps.size();
  while (true) {
    while (k > 0 && py_isspace(cps[k - 1])) --k;
    if (k == 0) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
      size_t b = 0;
      while (b < k && py_isspace(cps[b])) ++b;
      out.push_back(from_code_points(cps, b, k));
      break;
    }
    size_t e = k;
    while (k > 0 && !py_isspace(cps[k - 1])) --k;
    out.push_back(from_code_points(cps, k, e));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::string> py_split(std::string_view s, const std::optional<std::string>& sep,
                                  int64_t maxsplit, int line) {
  if (!sep) return split_whitespace(s, maxsplit);
  if (sep->empty()) fail("split(): empty separator", line);
  std::vector<std::string> out;
  size_t pos = 0;
  while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
    const size_t hit = s.find(*sep, pos);
    if (hit == std::string_view::npos) break;
    out.emplace_back(s.substr(pos, hit - pos));
    pos = hit + sep->size();
  }
  out.emplace_back(s.substr(pos));
  return out;
}

std::vector<std::string> py_rsplit(std::string_view s, const std::optional<std::string>& sep,
                                   int64_t maxsplit, int line) {
  if (!sep) return rsplit_whitespace(s, maxsplit);
  if (sep->empty()) fail("rsplit(): empty separator", line);
  std::vector<std::string> out;
  size_t end = s.size();
  while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
    if (end < sep->size()) break;
    const size_t hit = s.rfind(*sep, end - sep->size());
    if (hit == std::string_view::npos) break;
    out.emplace_back(s.substr(hit + sep->size(), end - hit - sep->size()));
    end = hit;
  }
  out.emplace_back(s.substr(0, end));
  std::reverse(out.begin(), out.end());
  return out;
}

std::string py_replace(std::string_view s, std::string_view from, std::string_view to,
                       int64_t count) {
  std::string out;
  if (from.empty()) {  // Python inserts `to` around every code point
    const std::vector<uint32_t> cps = to_code_points(s);
    int64_t done = 0;
    for (size_t k = 0; k <= cps.size(); ++k) {
      if (count < 0 || done < count) {
        out += to;
        ++done;
      }
      if (k < cps.size()) utf8_append(out, cps[k]);
    }
    return out;
  }
  size_t pos = 0;
  int64_t done = 0;
  while (count < 0 || done < count) {
    const size_t hit = s.find(from, pos);
    if (hit == std::string_view::npos) break;
    out += s.substr(pos, hit - pos);
    out += to;
    pos = hit + from.size();
    ++done;
  }
  out += s.substr(pos);
  return out;
}

std::vector<std::string> py_splitlines(std::string_view s) {
  const std::vector<uint32_t> cps = to_code_points(s);
  const auto is_break = [](uint32_t c) {
    return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D ||
           c == 0x1E || c == 0x85 || c == 0x2028 || c == 0x2029;
  };
  std::vector<std::string> out;
  size_t b = 0;
  for (size_t k = 0; k < cps.size(); ++k) {
    if (!is_break(cps[k])) continue;
    out.push_back(from_code_points(cps, b, k));
    if (cps[k] == '\r' && k + 1 < cps.size() && cps[k + 1] == '\n') ++k;
    b = k + 1;
  }
  if (b < cps.size()) out.push_back(from_code_points(cps, b, cps.size()));
  return out;
}

std::vector<int64_t> slice_indices(int64_t n, std::optional<int64_t> start,
                                   std::optional<int64_t> stop, std::optional<int64_t> step,
                                   int line) {
  const int64_t st = step.value_or(1);
  if (st == 0) fail("slice step cannot be zero", line);
  const auto clamp = [&](std::optional<int64_t> v, int64_t dflt, int64_t lo, int64_t hi) {
    if (!v) return dflt;
    int64_t x = *v < 0 ? *v + n : *v;
    return std::clamp(x, lo, hi);
  };
  std::vector<int64_t> out;
  if (st > 0) {
    const int64_t b = clamp(start, 0, 0, n), e = clamp(stop, n, 0, n);
    for (int64_t k = b; k < e; k += st) out.push_back(k);
  } else {
    const int64_t b = clamp(start, n - 1, -1, n - 1), e = clamp(stop, -1, -1, n - 1);
    for (int64_t k = b; k > e; k += st) out.push_back(k);
  }
  return out;
}

namespace {

// Characters whose Python upper() or title() is longer than one code point (Unicode's
// SpecialCasing: ß, ŉ, ǰ, some Greek with iota subscript, ligatures ﬀ..ﬆ, ...), as ranges.
constexpr uint32_t kMultiUpper[][2] = {
    {0xDF, 0xDF},     {0x149, 0x149},   {0x1F0, 0x1F0},   {0x390, 0x390},   {0x3B0, 0x3B0},
    {0x587, 0x587},   {0x1E96, 0x1E9A}, {0x1F50, 0x1F50}, {0x1F52, 0x1F52}, {0x1F54, 0x1F54},
    {0x1F56, 0x1F56}, {0x1F80, 0x1FAF}, {0x1FB2, 0x1FB4}, {0x1FB6, 0x1FB7}, {0x1FBC, 0x1FBC},
    {0x1FC2, 0x1FC4}, {0x1FC6, 0x1FC7}, {0x1FCC, 0x1FCC}, {0x1FD2, 0x1FD3}, {0x1FD6, 0x1FD7},
    {0x1FE2, 0x1FE4}, {0x1FE6, 0x1FE7}, {0x1FF2, 0x1FF4}, {0x1FF6, 0x1FF7}, {0x1FFC, 0x1FFC},
    {0xFB00, 0xFB06}, {0xFB13, 0xFB17}};

enum class Case { Upper, Lower, Title };

uint32_t map_case(uint32_t cp, Case c, int line) {
  if (cp < 0x80) {
    if (c == Case::Lower) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
    return (cp >= 'a' && cp <= 'z') ? cp - 32 : cp;
  }
  if (c == Case::Lower) {
    // İ lowers to two code points; Σ lowers by its context (final sigma).
    if (cp == 0x130 || cp == 0x3A3) {
      fail_unsupported("lower-casing U+" + std::to_string(cp) + " (context-dependent)", line);
    }
    return static_cast<uint32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(cp)));
  }
  for (const auto& r : kMultiUpper) {
    if (cp >= r[0] && cp <= r[1]) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "U+%04X", cp);
      fail_unsupported(std::string("case mapping of ") + buf + " (it maps to several characters)",
                       line);
    }
  }
  const auto x = static_cast<utf8proc_int32_t>(cp);
  return static_cast<uint32_t>(c == Case::Upper ? utf8proc_toupper(x) : utf8proc_totitle(x));
}

bool is_cased(uint32_t cp) {
  const auto cat = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
  return cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LL || cat == UTF8PROC_CATEGORY_LT;
}

std::string map_all(std::string_view s, Case c, int line) {
  std::string out;
  for (uint32_t cp : to_code_points(s)) utf8_append(out, map_case(cp, c, line));
  return out;
}

}  // namespace

std::string py_upper(std::string_view s, int line) { return map_all(s, Case::Upper, line); }
std::string py_lower(std::string_view s, int line) { return map_all(s, Case::Lower, line); }

std::string py_capitalize(std::string_view s, int line) {
  const std::vector<uint32_t> cps = to_code_points(s);
  std::string out;
  for (size_t k = 0; k < cps.size(); ++k) {
    utf8_append(out, map_case(cps[k], k == 0 ? Case::Title : Case::Lower, line));
  }
  return out;
}

std::string py_str_title(std::string_view s, int line) {
  std::string out;
  bool prev_cased = false;
  for (uint32_t cp : to_code_points(s)) {
    const bool cased = is_cased(cp);
    utf8_append(out, map_case(cp, prev_cased ? Case::Lower : Case::Title, line));
    prev_cased = cased;
  }
  return out;
}

std::string jinja_title(std::string_view s, int line) {
  // Words begin after white space or one of - ( { [ <; each word's first character is upper-
  // cased and the rest lower-cased.
  std::string out;
  bool word_start = true;
  for (uint32_t cp : to_code_points(s)) {
    const bool sep =
        py_isspace(cp) || cp == '-' || cp == '(' || cp == '{' || cp == '[' || cp == '<';
    if (sep) {
      utf8_append(out, cp);
      word_start = true;
    } else {
      utf8_append(out, map_case(cp, word_start ? Case::Upper : Case::Lower, line));
      word_start = false;
    }
  }
  return out;
}

namespace {

bool py_printable(uint32_t cp) {
  if (cp == ' ') return true;
  if (cp < 0x20 || cp == 0x7F) return false;
  if (cp < 0x7F) return true;
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
    case UTF8PROC_CATEGORY_ZS:
      return false;
    default:
      return true;
  }
}

}  // namespace

std::string py_repr_string(std::string_view s) {
  const bool has_single = s.find('\'') != std::string_view::npos;
  const bool has_double = s.find('"') != std::string_view::npos;
  const char q = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, q);
  for (uint32_t cp : to_code_points(s)) {
    if (cp == static_cast<uint32_t>(q) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (py_printable(cp)) {
      utf8_append(out, cp);
    } else {
      char buf[16];
      if (cp < 0x100) {
        std::snprintf(buf, sizeof buf, "\\x%02x", cp);
      } else if (cp < 0x10000) {
        std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      } else {
        std::snprintf(buf, sizeof buf, "\\U%08x", cp);
      }
      out += buf;
    }
  }
  out += q;
  return out;
}

}  // namespace ts::chat
