// Recursive descent over the tokens (see parser.h). One function per precedence level, as in
// Jinja2's own grammar; statements are parsed until the end tag their opener expects.
#include "chat/parser.h"

#include <algorithm>
#include <set>

#include "chat/builtins.h"

namespace ts::chat {

namespace {

class Parser {
 public:
  Parser(const std::vector<Token>& toks, const ParseLimits& lim) : t_(toks), lim_(lim) {}

  TemplateAst run() {
    TemplateAst ast;
    std::string end;
    ast.body = body({}, end);
    if (!hard_unknowns_.empty()) fail(hard_unknowns_.front().first, hard_unknowns_.front().second);
    return ast;
  }

 private:
  // ---- token helpers ----
  const Token& cur() const { return t_[p_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool is_op(const char* op) const { return cur().type == Tok::Op && cur().text == op; }
  bool is_name(const char* n) const { return cur().type == Tok::Name && cur().text == n; }
  void next() {
    if (p_ + 1 < t_.size()) ++p_;
  }
  void expect_op(const char* op) {
    if (!is_op(op))
      fail(std::string("expected '") + op + "', found " + describe(cur()), cur().line);
    next();
  }
  std::string expect_name() {
    if (cur().type != Tok::Name) fail("expected a name, found " + describe(cur()), cur().line);
    std::string n = cur().text;
    next();
    return n;
  }
  static std::string describe(const Token& tk) {
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

  struct Depth {  // nesting guard
    explicit Depth(Parser& p) : p_(p) {
      if (++p_.depth_ > p_.lim_.max_depth) {
        fail("the template nests deeper than " + std::to_string(p_.lim_.max_depth) + " levels",
             p_.cur().line);
      }
    }
    ~Depth() { --p_.depth_; }
    Parser& p_;
  };

  static ExprPtr node(ExprKind k, int line) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->line = line;
    return e;
  }

  // ---- statements ----
  // Parses until a block tag whose name is in `ends` (returned in `end`, positioned after the
  // name) or the end of the template (only allowed when `ends` is empty).
  Body body(const std::set<std::string>& ends, std::string& end) {
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

  void block_end() {
    if (cur().type != Tok::BlockEnd) fail("expected %}, found " + describe(cur()), cur().line);
    next();
  }

  std::unique_ptr<Stmt> statement() {
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

  // Jinja2 checks filter and test names when it compiles, except directly inside an `if` (its
  // condition and bodies) or an `x if c else y`: there an unknown name fails only when reached.
  struct Soft {
    Soft(Parser& p, bool on) : p_(p), saved_(p.soft_) { p_.soft_ = on; }
    ~Soft() { p_.soft_ = saved_; }
    Parser& p_;
    bool saved_;
  };

  std::unique_ptr<Stmt> if_stmt(std::unique_ptr<Stmt> s) {
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

  std::vector<std::string> target_names() {
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

  std::unique_ptr<Stmt> for_stmt(std::unique_ptr<Stmt> s) {
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

  std::unique_ptr<Stmt> set_stmt(std::unique_ptr<Stmt> s) {
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

  std::unique_ptr<Stmt> macro_stmt(std::unique_ptr<Stmt> s) {
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

  // ---- expressions ----
  // `a, b` without brackets makes a tuple where Jinja2 allows it (for/set right-hand sides).
  ExprPtr tuple_or_expr(bool with_condexpr) {
    const int line = cur().line;
    ExprPtr first = expression(with_condexpr);
    if (!is_op(",")) return first;
    ExprPtr t = node(ExprKind::Tuple, line);
    t->args.push_back(std::move(first));
    while (is_op(",")) {
      next();
      if (cur().type == Tok::BlockEnd || is_name("if")) break;
      t->args.push_back(expression(with_condexpr));
    }
    return t;
  }

  ExprPtr expression(bool with_condexpr = true) {
    Depth d(*this);
    const size_t unknowns_before = hard_unknowns_.size();
    ExprPtr e = or_expr();
    if (!with_condexpr) return e;
    while (is_name("if")) {
      const int line = cur().line;
      hard_unknowns_.resize(std::min(hard_unknowns_.size(), unknowns_before));  // all of it is soft
      Soft soft(*this, true);
      next();
      ExprPtr cond = or_expr();
      ExprPtr other;
      if (is_name("else")) {
        next();
        other = expression();
      }
      ExprPtr c = node(ExprKind::Cond, line);
      c->args.push_back(std::move(e));
      c->args.push_back(std::move(cond));
      c->args.push_back(std::move(other));
      e = std::move(c);
    }
    return e;
  }

  ExprPtr binary(ExprPtr l, const std::string& op, ExprPtr r, int line) {
    ExprPtr b = node(ExprKind::Binary, line);
    b->name = op;
    b->args.push_back(std::move(l));
    b->args.push_back(std::move(r));
    return b;
  }

  ExprPtr or_expr() {
    ExprPtr l = and_expr();
    while (is_name("or")) {
      const int line = cur().line;
      next();
      l = binary(std::move(l), "or", and_expr(), line);
    }
    return l;
  }

  ExprPtr and_expr() {
    ExprPtr l = not_expr();
    while (is_name("and")) {
      const int line = cur().line;
      next();
      l = binary(std::move(l), "and", not_expr(), line);
    }
    return l;
  }

  ExprPtr not_expr() {
    if (is_name("not")) {
      Depth d(*this);
      ExprPtr u = node(ExprKind::Unary, cur().line);
      next();
      u->name = "not";
      u->args.push_back(not_expr());
      return u;
    }
    return compare();
  }

  ExprPtr compare() {
    const int line = cur().line;
    ExprPtr first = math1();
    ExprPtr c;
    while (true) {
      std::string op;
      if (cur().type == Tok::Op &&
          (cur().text == "==" || cur().text == "!=" || cur().text == "<" || cur().text == "<=" ||
           cur().text == ">" || cur().text == ">=")) {
        op = cur().text;
        next();
      } else if (is_name("in")) {
        op = "in";
        next();
      } else if (is_name("not") && peek().type == Tok::Name && peek().text == "in") {
        op = "not in";
        next();
        next();
      } else {
        break;
      }
      if (!c) {
        c = node(ExprKind::Compare, line);
        c->args.push_back(std::move(first));
      }
      c->ops.push_back(op);
      c->args.push_back(math1());
    }
    return c ? std::move(c) : std::move(first);
  }

  ExprPtr math1() {
    ExprPtr l = concat();
    while (is_op("+") || is_op("-")) {
      const std::string op = cur().text;
      const int line = cur().line;
      next();
      l = binary(std::move(l), op, concat(), line);
    }
    return l;
  }

  ExprPtr concat() {
    const int line = cur().line;
    ExprPtr first = math2();
    if (!is_op("~")) return first;
    ExprPtr c = node(ExprKind::Concat, line);
    c->args.push_back(std::move(first));
    while (is_op("~")) {
      next();
      c->args.push_back(math2());
    }
    return c;
  }

  ExprPtr math2() {
    ExprPtr l = power();
    while (is_op("*") || is_op("/") || is_op("//") || is_op("%")) {
      const std::string op = cur().text;
      const int line = cur().line;
      next();
      l = binary(std::move(l), op, power(), line);
    }
    return l;
  }

  ExprPtr power() {
    ExprPtr l = unary(true);
    while (is_op("**")) {
      const int line = cur().line;
      next();
      l = binary(std::move(l), "**", unary(true), line);
    }
    return l;
  }

  ExprPtr unary(bool with_filter) {
    Depth d(*this);
    ExprPtr e;
    if (is_op("-") || is_op("+")) {
      e = node(ExprKind::Unary, cur().line);
      e->name = cur().text;
      next();
      e->args.push_back(unary(false));
    } else {
      e = primary();
    }
    e = postfix(std::move(e));
    if (with_filter) e = filters_and_tests(std::move(e));
    return e;
  }

  ExprPtr literal(Value v, int line) {
    ExprPtr e = node(ExprKind::Literal, line);
    e->literal = std::move(v);
    return e;
  }

  ExprPtr primary() {
    const Token& tk = cur();
    const int line = tk.line;
    switch (tk.type) {
      case Tok::Name: {
        const std::string n = tk.text;
        next();
        if (n == "true" || n == "True") return literal(Value::boolean(true), line);
        if (n == "false" || n == "False") return literal(Value::boolean(false), line);
        if (n == "none" || n == "None") return literal(Value::none(), line);
        ExprPtr e = node(ExprKind::Name, line);
        e->name = n;
        return e;
      }
      case Tok::String: {
        std::string s;
        while (cur().type == Tok::String) {  // adjacent strings join
          s += cur().text;
          next();
        }
        return literal(Value::string(std::move(s)), line);
      }
      case Tok::Int: {
        const int64_t v = tk.i;
        next();
        return literal(Value::integer(v), line);
      }
      case Tok::Float: {
        const double v = tk.f;
        next();
        return literal(Value::number(v), line);
      }
      case Tok::Op:
        if (tk.text == "(") return parenthesised();
        if (tk.text == "[") return list_literal();
        if (tk.text == "{") return dict_literal();
        break;
      default:
        break;
    }
    fail("unexpected " + describe(tk), line);
  }

  ExprPtr parenthesised() {
    const int line = cur().line;
    next();
    if (is_op(")")) {
      next();
      return node(ExprKind::Tuple, line);
    }
    ExprPtr first = expression();
    if (is_op(")")) {
      next();
      return first;
    }
    ExprPtr t = node(ExprKind::Tuple, line);
    t->args.push_back(std::move(first));
    while (is_op(",")) {
      next();
      if (is_op(")")) break;
      t->args.push_back(expression());
    }
    expect_op(")");
    return t;
  }

  ExprPtr list_literal() {
    ExprPtr l = node(ExprKind::List, cur().line);
    next();
    while (!is_op("]")) {
      if (!l->args.empty()) expect_op(",");
      if (is_op("]")) break;
      l->args.push_back(expression());
    }
    next();
    return l;
  }

  ExprPtr dict_literal() {
    ExprPtr d = node(ExprKind::Dict, cur().line);
    next();
    while (!is_op("}")) {
      if (!d->args.empty()) expect_op(",");
      if (is_op("}")) break;
      d->args.push_back(expression());
      expect_op(":");
      d->args.push_back(expression());
    }
    next();
    return d;
  }

  ExprPtr postfix(ExprPtr e) {
    while (true) {
      if (is_op(".") || is_op("[")) {
        e = subscript(std::move(e));
      } else if (is_op("(")) {
        e = call(std::move(e));
      } else {
        return e;
      }
    }
  }

  ExprPtr filters_and_tests(ExprPtr e) {
    while (true) {
      if (is_op("|")) {
        e = filter(std::move(e));
      } else if (is_name("is")) {
        e = test(std::move(e));
      } else if (is_op("(")) {
        e = call(std::move(e));
      } else {
        return e;
      }
    }
  }

  ExprPtr subscript(ExprPtr obj) {
    const int line = cur().line;
    if (is_op(".")) {
      next();
      if (cur().type == Tok::Int) {  // x.0 is x[0]
        ExprPtr it = node(ExprKind::Item, line);
        it->args.push_back(std::move(obj));
        it->args.push_back(literal(Value::integer(cur().i), line));
        next();
        return it;
      }
      ExprPtr a = node(ExprKind::Attr, line);
      a->name = expect_name();
      a->args.push_back(std::move(obj));
      return a;
    }
    next();  // [
    ExprPtr parts[3];
    int colons = 0;
    while (!is_op("]")) {
      if (is_op(":")) {
        if (++colons > 2) fail("too many ':' in a slice", line);
        next();
        continue;
      }
      if (is_op(",")) fail_unsupported("indexing with a tuple", line);
      if (parts[colons]) fail("expected ']' or ':'", line);
      parts[colons] = expression();
    }
    next();
    if (colons == 0) {
      if (!parts[0]) fail("empty []", line);
      ExprPtr it = node(ExprKind::Item, line);
      it->args.push_back(std::move(obj));
      it->args.push_back(std::move(parts[0]));
      return it;
    }
    ExprPtr s = node(ExprKind::Slice, line);
    s->args.push_back(std::move(obj));
    for (auto& p : parts) s->args.push_back(std::move(p));
    return s;
  }

  // Arguments in ( ... ): positional, then name=value. `*args` / `**kwargs` are refused.
  void call_args(Expr& e) {
    expect_op("(");
    bool first = true;
    while (!is_op(")")) {
      if (!first) expect_op(",");
      first = false;
      if (is_op(")")) break;
      if (is_op("*") || is_op("**")) fail_unsupported("*args / **kwargs in calls", cur().line);
      if (cur().type == Tok::Name && peek().type == Tok::Op && peek().text == "=") {
        std::string k = cur().text;
        next();
        next();
        e.kwargs.emplace_back(std::move(k), expression());
      } else {
        if (!e.kwargs.empty()) fail("a positional argument after a keyword one", cur().line);
        e.args.push_back(expression());
      }
    }
    next();
  }

  ExprPtr call(ExprPtr callee) {
    ExprPtr c = node(ExprKind::Call, cur().line);
    c->args.push_back(std::move(callee));
    call_args(*c);
    return c;
  }

  ExprPtr filter(ExprPtr subject) {
    const int line = cur().line;
    next();  // |
    ExprPtr f = node(ExprKind::Filter, line);
    f->name = expect_name();
    if (is_op(".")) fail_unsupported("dotted filter names", line);
    check_filter_name(f->name, line);
    f->args.push_back(std::move(subject));
    if (is_op("(")) call_args(*f);
    return f;
  }

  ExprPtr test(ExprPtr subject) {
    const int line = cur().line;
    next();  // is
    ExprPtr t = node(ExprKind::Test, line);
    if (is_name("not")) {
      t->negated = true;
      next();
    }
    t->name = expect_name();
    check_test_name(t->name, line);
    t->args.push_back(std::move(subject));
    if (is_op("(")) {
      call_args(*t);
    } else if ((cur().type == Tok::Name || cur().type == Tok::String || cur().type == Tok::Int ||
                cur().type == Tok::Float || is_op("[") || is_op("{")) &&
               !is_name("else") && !is_name("or") && !is_name("and")) {
      if (is_name("is")) fail("tests cannot be chained with 'is'", line);
      t->args.push_back(postfix(primary()));  // `x is divisibleby 3`
    }
    return t;
  }

  // Known: fine. Jinja2's but not implemented: refused. Unknown: the node fails when evaluated,
  // and the template fails to compile unless the name stands in a soft context.
  void check_filter_name(const std::string& n, int line) {
    if (filter_support(n) == Support::Yes) return;
    if (filter_support(n) == Support::JinjaOnly) fail_unsupported("filter '" + n + "'", line);
    if (!soft_) hard_unknowns_.emplace_back("no filter named '" + n + "'", line);
  }
  void check_test_name(const std::string& n, int line) {
    if (test_support(n) == Support::Yes) return;
    if (test_support(n) == Support::JinjaOnly) fail_unsupported("test '" + n + "'", line);
    if (!soft_) hard_unknowns_.emplace_back("no test named '" + n + "'", line);
  }

  const std::vector<Token>& t_;
  ParseLimits lim_;
  size_t p_ = 0;
  int depth_ = 0;
  int loop_depth_ = 0;
  bool soft_ = false;
  std::vector<std::pair<std::string, int>> hard_unknowns_;  // (message, line)
};

}  // namespace

TemplateAst parse_template(const std::vector<Token>& tokens, const ParseLimits& limits) {
  return Parser(tokens, limits).run();
}

}  // namespace ts::chat
