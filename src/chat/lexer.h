// The template's text as tokens, the way Jinja2 reads it with trim_blocks and lstrip_blocks on:
// text between tags (already trimmed as the whitespace rules say), the start and end of each
// {{ }} and {% %} tag and the words, numbers, strings and operators inside it. Comments vanish;
// {% raw %} text comes out as plain text. Line ends are normalised to \n and one final \n is
// dropped, as Jinja2 does by default.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ts::chat {

enum class Tok { Text, VarBegin, VarEnd, BlockBegin, BlockEnd, Name, String, Int, Float, Op, End };

struct Token {
  Tok type = Tok::End;
  std::string text;  // Text, Name, String (decoded), Op; Int/Float: as written
  int64_t i = 0;
  double f = 0;
  int line = 1;
};

struct LexOptions {
  bool trim_blocks = true;
  bool lstrip_blocks = true;
};

// Throws TemplateError on a tag or string that is not closed, an unknown character, unbalanced
// brackets or invalid UTF-8.
std::vector<Token> lex_template(std::string_view source, const LexOptions& opt = {});

// A Python string literal's escapes (\n, \t, \\, \', \xNN, \uNNNN, \UNNNNNNNN, octal, ...)
// decoded; unknown escapes stay as written, as in Python.
std::string decode_string_literal(std::string_view body, int line);

}  // namespace ts::chat
