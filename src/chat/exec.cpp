// Statement execution: text and {{ }} output, if, for (loop variables, `if` filter, else,
// break/continue), set (names, unpacking, namespace attributes, set blocks), macros and their
// calls. Output is appended to one string whose size is checked as it grows.
#include <utility>

#include "chat/builtins.h"
#include "chat/interp.h"

namespace ts::chat {

void Interp::render(const Body& body, std::string& out) {
  std::string* saved = out_;
  out_ = &out;
  exec_body(body);
  out_ = saved;
}

void Interp::emit(const std::string& text, int line) {
  out_->append(text);
  check_size(out_->size(), line);
}

Interp::Flow Interp::exec_body(const Body& body) {
  for (const auto& s : body) {
    const Flow f = exec(*s);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Interp::Flow Interp::exec(const Stmt& s) {
  step(s.line);
  switch (s.kind) {
    case StmtKind::Text:
      emit(s.text, s.line);
      return Flow::Normal;
    case StmtKind::Output:
      emit(py_str(eval(*s.expr)), s.line);
      return Flow::Normal;
    case StmtKind::If:
      for (const auto& br : s.branches) {
        if (truthy(eval(*br.first))) return exec_body(br.second);
      }
      return exec_body(s.else_body);
    case StmtKind::For:
      return exec_for(s);
    case StmtKind::Set:
      exec_set(s);
      return Flow::Normal;
    case StmtKind::Macro:
      define_macro(s);
      return Flow::Normal;
    case StmtKind::Break:
      return Flow::Break;
    case StmtKind::Continue:
      return Flow::Continue;
    case StmtKind::Generation:
      return exec_body(s.body);
  }
  return Flow::Normal;
}

namespace {

// Binds `names` to `v` in `scope`: one name takes the value, several unpack a sequence.
void bind_targets(Scope& scope, const std::vector<std::string>& names, const Value& v, int line) {
  if (names.size() == 1) {
    scope.set(names[0], v);
    return;
  }
  const std::vector<Value> items = iterate(v, line);
  if (items.size() != names.size()) {
    fail("cannot unpack " + std::to_string(items.size()) + " values into " +
             std::to_string(names.size()) + " names",
         line);
  }
  for (size_t k = 0; k < names.size(); ++k) scope.set(names[k], items[k]);
}

Value loop_object(const std::vector<Value>& items, size_t k) {
  Value loop = Value::new_namespace();
  loop.dict->frozen = true;
  const auto n = static_cast<int64_t>(items.size());
  const auto i = static_cast<int64_t>(k);
  DictData& d = *loop.dict;
  d.set("index", Value::integer(i + 1));
  d.set("index0", Value::integer(i));
  d.set("revindex", Value::integer(n - i));
  d.set("revindex0", Value::integer(n - i - 1));
  d.set("first", Value::boolean(i == 0));
  d.set("last", Value::boolean(i == n - 1));
  d.set("length", Value::integer(n));
  d.set("depth", Value::integer(1));
  d.set("depth0", Value::integer(0));
  d.set("previtem", k > 0 ? items[k - 1] : Value::undefined("loop.previtem"));
  d.set("nextitem", k + 1 < items.size() ? items[k + 1] : Value::undefined("loop.nextitem"));
  d.set("cycle", Value::function("loop.cycle", [i](Interp&, CallArgs& a) {
          if (a.pos.empty()) fail("loop.cycle() needs at least one value", a.line);
          return a.pos[static_cast<size_t>(i) % a.pos.size()];
        }));
  d.set("changed", Value::function("loop.changed", [](Interp&, CallArgs& a) -> Value {
          fail_unsupported("loop.changed()", a.line);
        }));
  return loop;
}

}  // namespace

Interp::Flow Interp::exec_for(const Stmt& s) {
  const std::vector<Value> all = iterate(eval(*s.expr), s.line);
  std::vector<Value> items;
  const std::shared_ptr<Scope> outer = scope_;
  if (s.filter) {  // the `if` of the loop sees each item, not `loop`
    for (const Value& v : all) {
      scope_ = std::make_shared<Scope>();
      scope_->parent = outer;
      bind_targets(*scope_, s.targets, v, s.line);
      const bool keep = truthy(eval(*s.filter));
      scope_ = outer;
      if (keep) items.push_back(v);
    }
  } else {
    items = all;
  }
  for (size_t k = 0; k < items.size(); ++k) {
    step(s.line);
    scope_ = std::make_shared<Scope>();
    scope_->parent = outer;
    bind_targets(*scope_, s.targets, items[k], s.line);
    scope_->set("loop", loop_object(items, k));
    const Flow f = exec_body(s.body);
    scope_ = outer;
    if (f == Flow::Break) break;
  }
  if (items.empty()) return exec_body(s.else_body);
  return Flow::Normal;
}

void Interp::exec_set(const Stmt& s) {
  Value v;
  if (!s.expr) {  // {% set x %}...{% endset %}
    std::string captured;
    std::string* saved = out_;
    out_ = &captured;
    exec_body(s.body);
    out_ = saved;
    v = Value::string(std::move(captured));
  } else {
    v = eval(*s.expr);
  }
  if (!s.text.empty()) {  // {% set ns.attr = v %}
    const Value target = lookup(s.targets[0]);
    if (target.kind != Value::Kind::Namespace || target.dict->frozen) {
      const std::string what =
          target.kind == Value::Kind::Namespace ? "the loop object" : type_name(target);
      fail("can only set attributes of a namespace() ('" + s.targets[0] + "' is " + what + ")",
           s.line);
    }
    check_no_namespace(v, s.line);
    target.dict->set(s.text, std::move(v));
    return;
  }
  bind_targets(*scope_, s.targets, v, s.line);
}

void Interp::define_macro(const Stmt& s) {
  const Stmt* def = &s;
  // Held weakly: the macro lives in the scope it captures, and a strong pointer would be a cycle.
  const std::weak_ptr<Scope> weak_scope = scope_;
  Value fn = Value::function(s.text, [def, weak_scope](Interp& in, CallArgs& a) {
    const std::shared_ptr<Scope> defined_in = weak_scope.lock();
    if (!defined_in)
      fail_unsupported("calling a macro outside the block it was defined in", a.line);
    if (a.pos.size() > def->params.size()) {
      fail("macro '" + def->text + "' takes " + std::to_string(def->params.size()) +
               " arguments, " + std::to_string(a.pos.size()) + " given",
           a.line);
    }
    const std::shared_ptr<Scope> saved = in.scope_;
    in.scope_ = std::make_shared<Scope>();
    in.scope_->parent = defined_in;
    for (size_t k = 0; k < def->params.size(); ++k) {
      const MacroParam& p = def->params[k];
      const Value* given = k < a.pos.size() ? &a.pos[k] : nullptr;
      for (const auto& kv : a.kw)
        if (kv.first == p.name) given = &kv.second;
      if (given) {
        in.scope_->set(p.name, *given);
      } else if (p.default_value) {
        in.scope_->set(p.name, in.eval(*p.default_value));
      } else {
        in.scope_->set(p.name, Value::undefined(p.name));
      }
    }
    for (const auto& kv : a.kw) {
      bool known = false;
      for (const MacroParam& p : def->params) known = known || p.name == kv.first;
      if (!known) fail("macro '" + def->text + "' has no parameter '" + kv.first + "'", a.line);
    }
    std::string text;
    in.render(def->body, text);
    in.scope_ = saved;
    return Value::string(std::move(text));
  });
  scope_->set(s.text, std::move(fn));
}

}  // namespace ts::chat
