// Recursive descent over the tokens (see parser.h), the statements' half: text, {{ }} and the
// block tags (if/elif/else, for with its if, else, break and continue, set, macro, generation),
// each parsed until the end tag its opener expects; refused tags named. Expressions:
// parser_expr.cpp.
#include "chat/parser.h"

#include "chat/builtins.h"
#include "chat/parser_impl.h"

namespace ts::chat {

TemplateAst Parser::run() {
  TemplateAst ast;
  std::string end;
  ast.body = body({}, end);
  if (!hard_unknowns_.empty()) fail(hard_unknowns_.front().first, hard_unknowns_.front().second);
  return ast;
}

void Parser::next() {
  if (p_ + 1 < t_.size()) ++p_;
}

void Parser::expect_op(const char* op) {
  if (!is_op(op)) fail(std::string("expected '") + op + "', found " + describe(cur()), cur().line);
  next();
}

std::string Parser::expect_name() {
  if (cur().type != Tok::Name) fail("expected a name, found " + describe(cur()), cur().line);
  std::string n = cur().text;
  next();
  return n;
}

std::string Parser::describe(const Token& tk) {
  switch (tk.type) {
    case Tok::Name:
    case Tok::Op:
    case Tok::Int:
    case Tok::Float:
      return "'" + tk.text + "'";
    case Tok::String:
      return "a string";
    case Tok::VarEnd:
      return "the end of {{ }}";
    case Tok::BlockEnd:
      return "the end of {% %}";
    case Tok::End:
      return "the end of the template";
    default:
      return "text";
  }
}

ExprPtr Parser::node(ExprKind k, int line) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->line = line;
  return e;
}

// Parses until a block tag whose name is in `ends` (returned in `end`, positioned after the
// name) or the end of the template (only allowed when `ends` is empty).
Body Parser::body(const std::set<std::string>& ends, std::string& end) {
  Depth d(*this);
  Body out;
  while (true) {
    const Token& tk = cur();
    if (tk.type == Tok::End) {
      if (!ends.empty()) {
        std::string closer = *ends.begin();
        for (const std::string& e : ends)
          if (e.rfind("end", 0) == 0) closer = e;
        fail("missing {% " + closer + " %} before the end", tk.line);
      }
      return out;
    }
    if (tk.type == Tok::Text) {
      auto s = std::make_unique<Stmt>();
      s->kind = StmtKind::Text;
      s->line = tk.line;
      s->text = tk.text;
      out.push_back(std::move(s));
      next();
    } else if (tk.type == Tok::VarBegin) {
      next();
      auto s = std::make_unique<Stmt>();
      s->kind = StmtKind::Output;
      s->line = tk.line;
      s->expr = expression();
      if (cur().type != Tok::VarEnd) fail("expected }}, found " + describe(cur()), cur().line);
      next();
      out.push_back(std::move(s));
    } else if (tk.type == Tok::BlockBegin) {
      next();
      const std::string name = cur().type == Tok::Name ? cur().text : "";
      if (ends.count(name)) {
        end = name;
        next();
        return out;
      }
      out.push_back(statement());
    } else {
      fail("unexpected " + describe(tk), tk.line);
    }
  }
}

void Parser::block_end() {
  if (cur().type != Tok::BlockEnd) fail("expected %}, found " + describe(cur()), cur().line);
  next();
}

std::unique_ptr<Stmt> Parser::statement() {
  const Token& tk = cur();
  if (tk.type != Tok::Name) fail("expected a statement name after {%", tk.line);
  const std::string n = tk.text;
  const int line = tk.line;
  next();
  auto s = std::make_unique<Stmt>();
  s->line = line;
  if (n == "if") return if_stmt(std::move(s));
  if (n == "for") return for_stmt(std::move(s));
  if (n == "set") return set_stmt(std::move(s));
  if (n == "macro") return macro_stmt(std::move(s));
  if (n == "break" || n == "continue") {
    s->kind = n == "break" ? StmtKind::Break : StmtKind::Continue;
    if (loop_depth_ == 0) fail("{% " + n + " %} outside a loop", line);
    block_end();
    return s;
  }
  if (n == "generation") {
    block_end();
    s->kind = StmtKind::Generation;
    std::string end;
    s->body = body({"endgeneration"}, end);
    block_end();
    return s;
  }
  static const std::set<std::string> kKnown = {"call", "filter",     "include", "import",
                                               "from", "extends",    "block",   "with",
                                               "do",   "autoescape", "trans"};
  if (kKnown.count(n)) fail_unsupported("{% " + n + " %}", line);
  fail("unknown tag {% " + n + " %}", line);
}

std::unique_ptr<Stmt> Parser::if_stmt(std::unique_ptr<Stmt> s) {
  Soft soft(*this, true);
  s->kind = StmtKind::If;
  ExprPtr cond = expression(false);  // Jinja2: no `x if c else y` as an if's condition
  block_end();
  while (true) {
    std::string end;
    Body b = body({"elif", "else", "endif"}, end);
    s->branches.emplace_back(std::move(cond), std::move(b));
    if (end == "elif") {
      cond = expression(false);
      block_end();
      continue;
    }
    if (end == "else") {
      block_end();
      s->else_body = body({"endif"}, end);
    }
    block_end();
    return s;
  }
}

std::vector<std::string> Parser::target_names() {
  std::vector<std::string> names;
  const bool paren = is_op("(");
  if (paren) next();
  names.push_back(expect_name());
  while (is_op(",")) {
    next();
    if (cur().type != Tok::Name) break;  // a trailing comma
    names.push_back(expect_name());
  }
  if (paren) expect_op(")");
  return names;
}

std::unique_ptr<Stmt> Parser::for_stmt(std::unique_ptr<Stmt> s) {
  s->kind = StmtKind::For;
  s->targets = target_names();
  if (!is_name("in")) fail("expected 'in' in {% for %}, found " + describe(cur()), cur().line);
  next();
  s->expr = tuple_or_expr(false);
  if (is_name("if")) {
    next();
    s->filter = expression(false);
  }
  if (is_name("recursive")) fail_unsupported("recursive for loops", cur().line);
  block_end();
  Soft hard(*this, false);
  ++loop_depth_;
  std::string end;
  s->body = body({"endfor", "else"}, end);
  --loop_depth_;
  if (end == "else") {
    block_end();
    const int saved = loop_depth_;
    loop_depth_ = 0;  // break/continue in the else part belong to no loop of this one
    s->else_body = body({"endfor"}, end);
    loop_depth_ = saved;
  }
  block_end();
  return s;
}

std::unique_ptr<Stmt> Parser::set_stmt(std::unique_ptr<Stmt> s) {
  s->kind = StmtKind::Set;
  s->targets.push_back(expect_name());
  if (is_op(".")) {
    next();
    s->text = expect_name();
  } else {
    while (is_op(",")) {
      next();
      s->targets.push_back(expect_name());
    }
  }
  if (cur().type == Tok::BlockEnd) {  // {% set x %}...{% endset %}
    if (s->targets.size() != 1) fail("a set block takes one name", s->line);
    next();
    Soft hard(*this, false);
    std::string end;
    s->body = body({"endset"}, end);
    block_end();
    return s;
  }
  if (is_op("|")) fail_unsupported("filters on a set block", cur().line);
  expect_op("=");
  s->expr = tuple_or_expr(true);
  block_end();
  return s;
}

std::unique_ptr<Stmt> Parser::macro_stmt(std::unique_ptr<Stmt> s) {
  s->kind = StmtKind::Macro;
  s->text = expect_name();
  expect_op("(");
  bool seen_default = false;
  while (!is_op(")")) {
    if (!s->params.empty()) expect_op(",");
    if (is_op(")")) break;
    MacroParam p;
    p.name = expect_name();
    if (is_op("=")) {
      next();
      p.default_value = expression();
      seen_default = true;
    } else if (seen_default) {
      fail("a macro parameter without default after one with a default", s->line);
    }
    s->params.push_back(std::move(p));
  }
  next();
  block_end();
  Soft hard(*this, false);
  const int saved = loop_depth_;
  loop_depth_ = 0;
  std::string end;
  s->body = body({"endmacro"}, end);
  loop_depth_ = saved;
  if (cur().type == Tok::Name) next();  // {% endmacro name %}
  block_end();
  return s;
}

TemplateAst parse_template(const std::vector<Token>& tokens, const ParseLimits& limits) {
  return Parser(tokens, limits).run();
}

}  // namespace ts::chat
