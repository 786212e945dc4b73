// Python's str operations on UTF-8 text, counted in code points as Python counts them: white space
// (str.isspace), strip / split / replace, slicing, case mapping and repr()'s quoting. Strings here
// are valid UTF-8 (the engine checks its inputs). Case mapping uses Unicode's one-to-one
// mappings and refuses the few characters whose Python mapping is longer (like "ß".upper()).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::chat {

// str.isspace() for one code point (also what Python's regex \s matches).
bool py_isspace(uint32_t cp);
// Code points of a valid UTF-8 string, and back.
std::vector<uint32_t> to_code_points(std::string_view s);
std::string from_code_points(const std::vector<uint32_t>& cps, size_t begin, size_t end);
size_t code_point_count(std::string_view s);

// str.strip / lstrip / rstrip: `chars` absent: white space; else any of those code points.
std::string py_strip(std::string_view s, const std::optional<std::string>& chars, bool left,
                     bool right);
// str.split(sep, maxsplit): sep absent splits on runs of white space (no empty pieces).
std::vector<std::string> py_split(std::string_view s, const std::optional<std::string>& sep,
                                  int64_t maxsplit, int line);
// str.rsplit(sep, maxsplit).
std::vector<std::string> py_rsplit(std::string_view s, const std::optional<std::string>& sep,
                                   int64_t maxsplit, int line);
// str.replace(old, new, count): count < 0 replaces all.
std::string py_replace(std::string_view s, std::string_view from, std::string_view to,
                       int64_t count);
// str.splitlines() (without keepends).
std::vector<std::string> py_splitlines(std::string_view s);

// Python slicing s[start:stop:step] of a sequence of n items: the chosen indices.
std::vector<int64_t> slice_indices(int64_t n, std::optional<int64_t> start,
                                   std::optional<int64_t> stop, std::optional<int64_t> step,
                                   int line);

// str.upper / lower / capitalize / title (Python's str methods) and Jinja2's `title` filter.
std::string py_upper(std::string_view s, int line);
std::string py_lower(std::string_view s, int line);
std::string py_capitalize(std::string_view s, int line);
std::string py_str_title(std::string_view s, int line);
std::string jinja_title(std::string_view s, int line);

// repr() of a string: quotes as Python chooses them, escapes as Python writes them.
std::string py_repr_string(std::string_view s);

}  // namespace ts::chat
