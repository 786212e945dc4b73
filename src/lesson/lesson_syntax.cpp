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
  const auto& verbs = lesson_action_verbs();
  if (a.verb == "poll-wait")  // a script's verb: a lesson waits for the teacher's PageDown
    return make_error("'poll-wait' is for scripts: in a lesson the teacher turns the page once "
                      "the class has answered");
  if (std::find(verbs.begin(), verbs.end(), a.verb) == verbs.end()) {
    return make_error("unknown action '" + a.verb + "'");
  }
  long n = 0;
  if (is_command_verb(a.verb)) {  // the session's own words: session/command.h's parser
    Result<SessionCommand> c = parse_command(a.verb + " " + a.args);
    if (!c.ok()) return c.error();
  } else if (a.verb == "sample") {
    long n = 0;
    if (!a.args.empty() && (!parse_int(a.args, &n) || n < 1 || n > 100000))
      return make_error("'sample' takes how many draws, 1 to 100000 (default 1000)");
  } else if (a.verb == "reveal" || a.verb == "compare-formats" || a.verb == "measure" ||
             a.verb == "poll-open" || a.verb == "poll-close") {
    if (!a.args.empty()) return make_error("'" + a.verb + "' takes nothing, got '" + a.args + "'");
  } else if (a.verb == "select") {
    auto toks = lex_lesson_line(a.args);
    if (!toks.ok()) return toks.error();
    const auto& t = toks.value();
    if (t.size() != 2 || (t[0].text != "position" && t[0].text != "layer" && t[0].text != "head") ||
        !parse_int(t[1].text, &n) || n < -1) {
      return make_error("'select' needs 'position N', 'layer N' or 'head N'");
    }
  } else if (a.verb == "show" || a.verb == "hide" || a.verb == "focus") {
    if (a.args.empty()) return make_error("'" + a.verb + "' needs a panel name");
    std::string rest = a.args;
    while (!rest.empty()) {
      const size_t s2 = rest.find(' ');
      const std::string p = rest.substr(0, s2);
      if (!p.empty() && !lesson_panel_known(p)) {
        return make_error("unknown panel '" + p + "'");
      }
      rest = s2 == std::string::npos ? "" : rest.substr(s2 + 1);
    }
  } else if (a.verb == "view") {
    // raw, final or a sampler stage's name (checked against the chain when run), or one of the
    // Cost panel's sections
    if (a.args.empty() || a.args.find(' ') != std::string::npos)
      return make_error("'view' needs raw, final, a sampler stage (e.g. top-k), per-step, roofline, "
                        "formats, receipt, intervention or map");
  } else if (a.verb == "rival") {  // a piece or #ID, looked up when the page runs
    auto toks = lex_lesson_line(a.args);
    if (!toks.ok()) return toks.error();
    if (toks.value().size() != 1 || toks.value()[0].text.empty())
      return make_error("'rival' needs one token: a piece (quoted to keep spaces) or #ID");
  } else if (a.verb == "no-cache") {
    if (a.args != "on" && a.args != "off")
      return make_error("'no-cache' needs on or off, got '" + a.args + "'");
  } else if (a.verb == "heads") {
    if (a.args != "all" && (!parse_int(a.args, &n) || n < 0))
      return make_error("'heads' needs all or a head number, got '" + a.args + "'");
  } else if (a.verb == "size") {
    const size_t s2 = a.args.find(' ');
    const std::string p = a.args.substr(0, s2);
    std::string pct = s2 == std::string::npos ? "" : lesson_trim(a.args.substr(s2 + 1));
    if (!pct.empty() && pct.back() == '%') pct.pop_back();
    if (!lesson_panel_known(p))
      return make_error("'size' needs a panel name and a percentage, e.g. size kv-cache 60%");
    if (!parse_int(pct, &n) || n < 10 || n > 90)
      return make_error("'size' needs a percentage from 10% to 90%, got '" + a.args + "'");
  } else if (a.verb == "prompt" || a.verb == "model" || a.verb == "tokenizer") {
    if (a.verb != "prompt" && a.args.empty()) return make_error("'" + a.verb + "' needs a path");
  }
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
