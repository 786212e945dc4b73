// Tokens -> the template's tree (ast.h), with Jinja2's operator precedence (lowest first):
// `x if c else y`, or, and, not, comparisons and `in`, + -, ~, * / // %, **, unary - +, then
// filters `|f`, tests `is t`, calls, `.attr` and `[index]`. Statements: if/elif/else, for (with
// `if`, `else`, break/continue), set (also `ns.attr`, unpacking and set blocks), macro, raw and
// Hugging Face's generation block. Anything else ({% call %}, {% include %}, {% extends %},
// unknown filters or tests, *args) is refused with a line naming it.
#pragma once
#include <string_view>

#include "chat/ast.h"
#include "chat/lexer.h"

namespace ts::chat {

struct ParseLimits {
  int max_depth = 200;  // nesting of expressions and blocks together
};

// Throws TemplateError. `known_filter`/`known_test` decide which names are accepted (the others
// fail here, as Jinja2 fails them when it compiles the template).
TemplateAst parse_template(const std::vector<Token>& tokens, const ParseLimits& limits = {});

}  // namespace ts::chat
