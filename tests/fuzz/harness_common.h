// Shared by the fuzz harnesses (tests/fuzz/harness_*.h): the properties every error message and
// every shown string must have. A harness returns "" when all properties held for one input, or
// a one-line description of the first one violated; the libFuzzer targets abort on it and the
// robustness tests (tests/robustness/) CHECK it while they replay the corpus.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/error.h"
#include "base/utf8.h"

namespace ts::fuzz {

// The input bytes as a string (text formats) or a byte vector (binary formats).
inline std::string as_text(std::span<const uint8_t> in) {
  return std::string(reinterpret_cast<const char*>(in.data()), in.size());
}

// Text that reaches a screen or a terminal: valid UTF-8 and on one line.
inline std::string check_shown(std::string_view s, const char* what) {
  if (!utf8_valid(s)) return std::string(what) + " is not valid UTF-8: " + utf8_sanitize(s);
  if (s.find('\n') != std::string_view::npos || s.find('\r') != std::string_view::npos) {
    return std::string(what) + " spans several lines: " + utf8_sanitize(s);
  }
  return "";
}

// An error: non-empty, one line, valid UTF-8, and it starts with `prefix` (the file's name).
inline std::string check_error(const Error& e, std::string_view prefix) {
  if (e.message.empty()) return "empty error message";
  if (std::string bad = check_shown(e.message, "error message"); !bad.empty()) return bad;
  if (e.message.compare(0, prefix.size(), prefix) != 0) {
    return "error message does not start with '" + std::string(prefix) + "': " + e.message;
  }
  return "";
}

}  // namespace ts::fuzz
