// What a student may type: a name or a guess is valid UTF-8 of at most N code points with no
// control or formatting characters (C0, DEL, C1, line/paragraph separators, bidirectional and
// other invisible format characters, noncharacters); ZWJ/ZWNJ stay allowed for emoji and scripts
// that need them. Also the name's key (two spellings of one name count as one student) and HTML
// escaping. Checks only: nothing here stores or shows text.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace ts {

enum class TextProblem { None, Empty, TooLong, InvalidUtf8, ControlChar };

// Checks `s` as typed (after trim_spaces). Empty: nothing but spaces.
TextProblem check_student_text(std::string_view s, size_t max_chars);
const char* text_problem_name(TextProblem p);  // "too long", ...

// `s` without ASCII spaces at either end.
std::string_view trim_spaces(std::string_view s);

// The key under which a name's guesses are kept: NFKC, case-folded, runs of spaces made one, so
// "Ana", "ANA" and "Ａｎａ" are one student. `name` must have passed check_student_text.
std::string name_key(std::string_view name);

// `s` safe inside HTML text and attribute values: & < > " ' written as entities.
std::string html_escape(std::string_view s);

}  // namespace ts
