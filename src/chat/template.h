// A Jinja2 template compiled once and rendered with variables, as Hugging Face renders chat
// templates: trim_blocks and lstrip_blocks on, loop controls on, undefined values printing as
// nothing, no HTML escaping. Errors come back as one line: "template line N: <what>", and
// constructs the engine does not implement as "template line N: unsupported: <construct>".
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.h"
#include "chat/interp.h"
#include "chat/parser.h"
#include "chat/value.h"

namespace ts::chat {

using Variables = std::vector<std::pair<std::string, Value>>;

class Template {
 public:
  // Lexes and parses; refuses templates over 1 MiB, invalid UTF-8, syntax errors and
  // unsupported statements, filters and tests.
  static Result<Template> compile(std::string_view source, const ParseLimits& limits = {});
  // Renders with `vars` (plus range, namespace, dict, raise_exception); never throws.
  Result<std::string> render(const Variables& vars, const RenderLimits& limits = {}) const;

 private:
  std::shared_ptr<const TemplateAst> ast_;
};

// The one-line message of a TemplateError.
std::string describe(const TemplateError& e);

}  // namespace ts::chat
