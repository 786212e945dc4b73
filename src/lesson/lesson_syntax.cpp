// Lexing and syntax checks for lesson action and check lines (no session needed).
#include "lesson/lesson_syntax.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "sampling/sampler_spec.h"
#include "session/command.h"

namespace ts {

std::string lesson_trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r')) --b;
  return std::string(s.substr(a, b - a));
}

namespace {

bool is_op(const std::string& w) {
  return w == "is" || w == "==" || w == "!=" || w == "<" || w == "<=" || w == ">" || w == ">=" ||
         w == "contains";
}

bool parse_int(const std::string& s, long* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size() || errno == ERANGE) return false;
  *out = v;
  return true;
}

bool parse_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE) return false;
  *out = v;
  return true;
}

// Parses tokens [i, end) as one operand.
Result<Operand> parse_operand(const std::vector<LessonToken>& t, size_t i, size_t end) {
  Operand o;
  if (i >= end) return make_error("a comparison is missing a side");
  double off = 0;
  if (end - i >= 3 && !t[end - 2].quoted && (t[end - 2].text == "+" || t[end - 2].text == "-") &&
      parse_double(t[end - 1].text, &off)) {  // "metric + 2"
    auto base = parse_operand(t, i, end - 2);
    if (!base.ok()) return base.error();
    Operand b = base.value();
    bool is_number = false;
    if (b.kind != Operand::Kind::Metric || !lesson_metric_known(b.text, &is_number) || !is_number) {
      return make_error("'+' and '-' only follow a numeric quantity");
    }
    b.offset = t[end - 2].text == "+" ? off : -off;
    return b;
  }
  if (end - i == 1 && t[i].quoted) {
    o.kind = Operand::Kind::Text;
    o.text = t[i].text;
    return o;
  }
  double d;
  if (end - i == 1 && parse_double(t[i].text, &d)) {
    o.kind = Operand::Kind::Number;
    o.number = d;
    return o;
  }
  o.kind = Operand::Kind::Metric;
  std::string name;
  size_t k = i;
  for (; k < end && !t[k].quoted && t[k].text != "("; ++k) {
    long n;
    if (parse_int(t[k].text, &n) && !name.empty()) {  // "token 3": the index argument
      o.arg = t[k].text;
      o.has_arg = true;
      ++k;
      break;
    }
    name += (name.empty() ? "" : "-") + t[k].text;
  }
  if (k < end && t[k].text == "(") {
    std::string arg;
    bool quoted = false;
    for (++k; k < end && !(t[k].text == ")" && !t[k].quoted); ++k) {
      if (t[k].quoted) quoted = true;
      // "step 3" -> "3"; "top-1" stays
      if (!t[k].quoted && t[k].text == "step") continue;
      arg += t[k].text;
    }
    if (k >= end) return make_error("missing ')' after '" + name + "('");
    ++k;
    o.arg = arg;
    o.arg_quoted = quoted;
    o.has_arg = true;
  }
  if (k != end) return make_error("unexpected '" + t[k].text + "' after '" + name + "'");
  bool is_number = false;
  if (!lesson_metric_known(name, &is_number)) {
    return make_error("unknown quantity '" + name +
                      "' (known: top-1 chosen token text stop-reason step p entropy "
                      "final-entropy kv-length prompt-tokens vocab-size cursor divergence branches lanes rank "
                      "flops flops-no-cache intensity weight-bytes kv-bytes-read format-bytes "
                      "format-speed)");
  }
  o.text = name;
  return o;
}

}  // namespace

namespace {
std::vector<std::string>& registered_panel_names() {
  static std::vector<std::string> names;  // set once at start-up, before any lesson is parsed
  return names;
}
}  // namespace

void set_lesson_panel_names(std::vector<std::string> names) {
  registered_panel_names() = std::move(names);
}

const std::vector<std::string>& lesson_panel_names() { return registered_panel_names(); }

bool lesson_panel_known(const std::string& name) {
  const std::vector<std::string>& names = registered_panel_names();
  if (!names.empty()) return std::find(names.begin(), names.end(), name) != names.end();
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || c == '-';
  });
}

bool lesson_metric_known(const std::string& name, bool* is_number) {
  static const std::vector<std::string> numbers = {
      "p", "entropy", "final-entropy", "kv-length", "prompt-tokens", "vocab-size", "cursor",
      "divergence",
      "branches", "lanes", "rank", "raw-rank", "raw-p", "flops", "flops-no-cache", "intensity", "weight-bytes",
      "kv-bytes-read", "format-bytes", "format-speed"};
  static const std::vector<std::string> texts = {"top-1", "chosen", "token", "text",
                                                 "stop-reason", "step"};
  if (std::find(numbers.begin(), numbers.end(), name) != numbers.end()) {
    *is_number = true;
    return true;
  }
  if (std::find(texts.begin(), texts.end(), name) != texts.end()) {
    *is_number = false;
    return true;
  }
  return false;
}

Result<std::vector<LessonToken>> lex_lesson_line(std::string_view line) {
  std::vector<LessonToken> out;
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    if (c == '"') {
      LessonToken tok;
      tok.quoted = true;
      ++i;
      bool closed = false;
      while (i < line.size()) {
        char d = line[i++];
        if (d == '"') {
          closed = true;
          break;
        }
        if (d == '\\' && i < line.size()) {
          const char e = line[i++];
          d = e == 'n' ? '\n' : e == 't' ? '\t' : e;
        }
        tok.text += d;
      }
      if (!closed) return make_error("a quoted string is not closed");
      out.push_back(tok);
      continue;
    }
    if (c == '(' || c == ')' || c == ':') {
      out.push_back({std::string(1, c), false});
      ++i;
      continue;
    }
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '(' &&
           line[j] != ')' && line[j] != '"' && line[j] != ':')
      ++j;
    out.push_back({std::string(line.substr(i, j - i)), false});
    i = j;
  }
  return out;
}

Result<LessonLine> parse_action_syntax(std::string_view raw) {
  const std::string line = lesson_trim(raw);
  size_t sp = line.find_first_of(" \t:");
  LessonLine a;
  a.verb = line.substr(0, sp);
  if (sp != std::string::npos) {
    size_t rest = sp;
    if (line[rest] == ':') ++rest;
    a.args = lesson_trim(line.substr(rest));
  }
  Result<Verb> v = parse_verb(a.verb + " " + a.args, "action");  // lesson/verb_table.h
  if (!v.ok()) return v.error();
  a.action = std::move(v).value();
  return a;
}

Result<Check> parse_check_syntax(std::string_view raw) {
  Check c;
  c.source = lesson_trim(raw);
  auto lexed = lex_lesson_line(c.source);
  if (!lexed.ok()) return lexed.error();
  std::vector<LessonToken> t = lexed.value();
  long n = 0;
  if (t.size() >= 3 && t[0].text == "lane" && parse_int(t[1].text, &n) && t[2].text == ":") {
    c.lane = static_cast<int>(n);
    t.erase(t.begin(), t.begin() + 3);
  }
  if (t.size() == 5 && t[0].text == "lanes" && (t[1].text == "diverge" || t[1].text == "agree") &&
      (t[2].text == "by" || t[2].text == "through") && t[3].text == "step" &&
      parse_int(t[4].text, &n)) {
    c.special = t[1].text == "diverge" ? "diverge-by" : "agree-through";
    c.step = static_cast<int>(n);
    return c;
  }
  size_t op = 0;
  while (op < t.size() && (t[op].quoted || !is_op(t[op].text))) ++op;
  if (op == t.size()) return make_error("a check needs a comparison (is, <, >, contains...)");
  c.op = t[op].text == "==" ? "is" : t[op].text;
  auto l = parse_operand(t, 0, op);
  if (!l.ok()) return l.error();
  c.lhs = l.value();
  if (c.lhs.kind != Operand::Kind::Metric) return make_error("a check starts with a quantity");
  bool lhs_num = false;
  lesson_metric_known(c.lhs.text, &lhs_num);
  auto r = parse_operand(t, op + 1, t.size());
  if (r.ok()) {
    c.rhs = r.value();
  } else if (!lhs_num && op + 1 < t.size()) {  // "stop-reason is max tokens": bare words as text
    c.rhs.kind = Operand::Kind::Text;
    for (size_t k = op + 1; k < t.size(); ++k) {
      if (t[k].quoted || t[k].text == "+" || t[k].text == "-") return r.error();
      c.rhs.text += (c.rhs.text.empty() ? "" : " ") + t[k].text;
    }
  } else {
    return r.error();
  }
  const bool rhs_text = c.rhs.kind == Operand::Kind::Text;
  if (c.op == "contains" && (lhs_num || !rhs_text)) {
    return make_error("'contains' compares a text quantity with a quoted string");
  }
  if (!lhs_num && c.op != "is" && c.op != "!=" && c.op != "contains") {
    return make_error("'" + c.lhs.text + "' is text: use is, != or contains");
  }
  if (lhs_num && rhs_text) return make_error("'" + c.lhs.text + "' is a number, not text");
  return c;
}

}  // namespace ts
