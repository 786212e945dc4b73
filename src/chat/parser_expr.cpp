// The expressions of a template (see parser_impl.h): `x if c else y`, or, and, not,
// comparisons and `in`, + -, ~, * / // %, **, unary - +, then filters, tests, calls, attributes,
// items and slices, literals. Filter and test names are checked here as Jinja2 checks them.
#include "chat/builtins.h"
#include "chat/parser_impl.h"

namespace ts::chat {

// `a, b` without brackets makes a tuple where Jinja2 allows it (for/set right-hand sides).
ExprPtr Parser::tuple_or_expr(bool with_condexpr) {
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

ExprPtr Parser::expression(bool with_condexpr) {
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

ExprPtr Parser::binary(ExprPtr l, const std::string& op, ExprPtr r, int line) {
  ExprPtr b = node(ExprKind::Binary, line);
  b->name = op;
  b->args.push_back(std::move(l));
  b->args.push_back(std::move(r));
  return b;
}

ExprPtr Parser::or_expr() {
  ExprPtr l = and_expr();
  while (is_name("or")) {
    const int line = cur().line;
    next();
    l = binary(std::move(l), "or", and_expr(), line);
  }
  return l;
}

ExprPtr Parser::and_expr() {
  ExprPtr l = not_expr();
  while (is_name("and")) {
    const int line = cur().line;
    next();
    l = binary(std::move(l), "and", not_expr(), line);
  }
  return l;
}

ExprPtr Parser::not_expr() {
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

ExprPtr Parser::compare() {
  const int line = cur().line;
  ExprPtr first = math1();
  ExprPtr c;
  while (true) {
    std::string op;
    if (cur().type == Tok::Op && (cur().text == "==" || cur().text == "!=" || cur().text == "<" ||
                                  cur().text == "<=" || cur().text == ">" || cur().text == ">=")) {
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

ExprPtr Parser::math1() {
  ExprPtr l = concat();
  while (is_op("+") || is_op("-")) {
    const std::string op = cur().text;
    const int line = cur().line;
    next();
    l = binary(std::move(l), op, concat(), line);
  }
  return l;
}

ExprPtr Parser::concat() {
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

ExprPtr Parser::math2() {
  ExprPtr l = power();
  while (is_op("*") || is_op("/") || is_op("//") || is_op("%")) {
    const std::string op = cur().text;
    const int line = cur().line;
    next();
    l = binary(std::move(l), op, power(), line);
  }
  return l;
}

ExprPtr Parser::power() {
  ExprPtr l = unary(true);
  while (is_op("**")) {
    const int line = cur().line;
    next();
    l = binary(std::move(l), "**", unary(true), line);
  }
  return l;
}

ExprPtr Parser::unary(bool with_filter) {
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

ExprPtr Parser::literal(Value v, int line) {
  ExprPtr e = node(ExprKind::Literal, line);
  e->literal = std::move(v);
  return e;
}

ExprPtr Parser::primary() {
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

ExprPtr Parser::parenthesised() {
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

ExprPtr Parser::list_literal() {
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

ExprPtr Parser::dict_literal() {
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

ExprPtr Parser::postfix(ExprPtr e) {
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

ExprPtr Parser::filters_and_tests(ExprPtr e) {
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

ExprPtr Parser::subscript(ExprPtr obj) {
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
void Parser::call_args(Expr& e) {
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

ExprPtr Parser::call(ExprPtr callee) {
  ExprPtr c = node(ExprKind::Call, cur().line);
  c->args.push_back(std::move(callee));
  call_args(*c);
  return c;
}

ExprPtr Parser::filter(ExprPtr subject) {
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

ExprPtr Parser::test(ExprPtr subject) {
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
void Parser::check_filter_name(const std::string& n, int line) {
  if (filter_support(n) == Support::Yes) return;
  if (filter_support(n) == Support::JinjaOnly) fail_unsupported("filter '" + n + "'", line);
  if (!soft_) hard_unknowns_.emplace_back("no filter named '" + n + "'", line);
}

void Parser::check_test_name(const std::string& n, int line) {
  if (test_support(n) == Support::Yes) return;
  if (test_support(n) == Support::JinjaOnly) fail_unsupported("test '" + n + "'", line);
  if (!soft_) hard_unknowns_.emplace_back("no test named '" + n + "'", line);
}

}  // namespace ts::chat
