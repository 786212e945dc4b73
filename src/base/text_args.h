// Small text helpers shared by the line-oriented formats (command lines of scripts and lessons,
// sampler specs, corpus lists): trimming white space and reading a quoted argument.
#pragma once
#include <string>
#include <string_view>

#include "base/error.h"

namespace ts {

// `s` without leading and trailing white space (space, tab, newline, CR, VT, FF).
std::string_view trim_space(std::string_view s);
// A quoted string at the start of `s` (s[0] == '"'; escapes \" \\ \n \t): its text, and in
// `rest` what follows the closing quote, trimmed. Error: "missing closing quote".
Result<std::string> parse_quoted(std::string_view s, std::string_view& rest);
// A TEXT argument: quoted (then nothing may follow) or the rest of the line as it is. Errors
// name `what` ("needs the prompt text") or the text after the closing quote.
Result<std::string> text_argument(std::string_view rest, const char* what);

}  // namespace ts
