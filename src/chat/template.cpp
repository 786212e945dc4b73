// Template: compile (lex + parse) and render (interpret), the engine's only entry points, where
// the errors it throws inside become Results (see template.h). Out of memory is an error too.
#include "chat/template.h"

#include <new>

#include "base/utf8.h"
#include "chat/builtins.h"
#include "chat/lexer.h"

namespace ts::chat {

namespace {
constexpr size_t kMaxTemplateBytes = 1u << 20;
}

std::string describe(const TemplateError& e) {
  std::string out = "template";
  if (e.line > 0) out += " line " + std::to_string(e.line);
  // Messages quote the template and the conversation: control characters are written as \xNN
  // so the message stays on one line, and a long one is cut.
  return display_label(out + ": " + e.message, 400);
}

Result<Template> Template::compile(std::string_view source, const ParseLimits& limits) {
  if (source.size() > kMaxTemplateBytes) {
    return make_error("template: longer than " + std::to_string(kMaxTemplateBytes) + " bytes");
  }
  try {
    auto ast = std::make_shared<TemplateAst>(parse_template(lex_template(source), limits));
    Template t;
    t.ast_ = std::move(ast);
    return t;
  } catch (const TemplateError& e) {
    return make_error(describe(e));
  } catch (const std::bad_alloc&) {
    return make_error("template: out of memory while compiling");
  }
}

Result<std::string> Template::render(const Variables& vars, const RenderLimits& limits) const {
  if (!ast_) return make_error("template: not compiled");
  auto globals = std::make_shared<Scope>();
  try {
    add_builtin_globals(*globals);
    for (const auto& kv : vars) globals->set(kv.first, kv.second);
    Interp in(limits, globals);
    std::string out;
    in.render(ast_->body, out);
    globals->vars.clear();
    return out;
  } catch (const TemplateError& e) {
    globals->vars.clear();
    return make_error(describe(e));
  } catch (const std::bad_alloc&) {
    globals->vars.clear();
    return make_error("template: out of memory while rendering");
  }
}

}  // namespace ts::chat
