// The parsed template: expressions and statements as plain data (parser.cpp builds them,
// eval.cpp and exec.cpp walk them). Each node keeps its template line for error messages.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chat/value.h"

namespace ts::chat {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

enum class ExprKind {
  Literal,  // literal
  Name,     // name
  List,     // args: items
  Tuple,    // args: items
  Dict,     // kwargs: key expression in args[2k], value in args[2k+1]
  Attr,     // args[0].name
  Item,     // args[0][args[1]]
  Slice,    // args[0][args[1]:args[2]:args[3]] (null parts absent)
  Call,     // args[0](args[1..], kwargs)
  Filter,   // args[0] | name(args[1..], kwargs)
  Test,     // args[0] is [not] name(args[1..])
  Unary,    // name: "-", "+", "not"
  Binary,   // name: "+", "-", "*", "/", "//", "%", "**", "and", "or"
  Concat,   // args joined with ~
  Compare,  // args[0] ops[0] args[1] ops[1] args[2] ... (chained, as in Python)
  Cond,     // args[0] if args[1] else args[2] (args[2] may be null)
};

struct Expr {
  ExprKind kind = ExprKind::Literal;
  int line = 0;
  std::string name;
  Value literal;
  std::vector<ExprPtr> args;
  std::vector<std::pair<std::string, ExprPtr>> kwargs;
  std::vector<std::string> ops;  // Compare: "==", "!=", "<", "<=", ">", ">=", "in", "not in"
  bool negated = false;          // Test: `is not`
};

struct Stmt;
using Body = std::vector<std::unique_ptr<Stmt>>;

enum class StmtKind {
  Text,    // text
  Output,  // {{ expr }}
  If,      // branches (cond, body), else_body
  For,     // targets in expr [if filter] body [else else_body]
  Set,     // targets (or target.attr) = expr; with no expr: body captured (set block)
  Macro,   // name(params) body
  Break,
  Continue,
  Generation,  // {% generation %} body: rendered as is (Hugging Face's marker for training)
};

struct MacroParam {
  std::string name;
  ExprPtr default_value;  // may be null
};

struct Stmt {
  StmtKind kind = StmtKind::Text;
  int line = 0;
  std::string text;  // Text; Macro: name; Set: attribute after `target.` (else empty)
  ExprPtr expr;      // Output value, For iterable, Set value
  ExprPtr filter;    // For: `if` condition (may be null)
  std::vector<std::string> targets;                // For / Set names (several: unpacking)
  std::vector<std::pair<ExprPtr, Body>> branches;  // If
  Body body;
  Body else_body;
  std::vector<MacroParam> params;  // Macro
};

struct TemplateAst {
  Body body;
};

}  // namespace ts::chat
