// Evaluating a lesson check against the session: measured quantities (top-1, p("x"), KV length,
// cost of a step...) compared with the lesson's claim. Messages say what was found instead.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "base/utf8.h"
#include "lesson/lesson_runner.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {

namespace {

struct Value {
  bool ok = false;
  bool is_number = true;
  double number = 0;
  std::string text;
  std::string error;
};

Value num(double d) { return Value{true, true, d, "", ""}; }
Value txt(std::string t) { return Value{true, false, 0, std::move(t), ""}; }
Value fail(std::string e) { return Value{false, true, 0, "", std::move(e)}; }

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : utf8_sanitize(s)) {
    if (c == '\n') out += "\\n";
    else if (c == '"') out += "\\\"";
    else out += c;
  }
  return out + "\"";
}

std::string normalise(std::string s) {  // "max tokens" == "max-tokens"
  for (char& c : s) c = c == ' ' ? '-' : c;
  return s;
}

// softmax(raw logits)[id] of a step (needs record level summary or full).
Value raw_p(const Step& st, int id) {
  if (!st.forward || st.forward->logits.empty()) return fail("the step has no logits (record off)");
  const std::vector<float>& z = st.forward->logits;
  if (id < 0 || id >= static_cast<int>(z.size())) return fail("token id out of range");
  double mx = -INFINITY;
  for (float v : z) mx = std::max(mx, static_cast<double>(v));
  double sum = 0;
  for (float v : z) sum += std::exp(static_cast<double>(v) - mx);
  return num(std::exp(static_cast<double>(z[id]) - mx) / sum);
}

Value metric_base(const Session& s, const Check& c, const Operand& o,
                  const FormatComparison* formats);

Value metric(const Session& s, const Check& c, const Operand& o,
             const FormatComparison* formats) {
  Value v = metric_base(s, c, o, formats);
  if (v.ok && v.is_number) v.number += o.offset;
  return v;
}

Value metric_base(const Session& s, const Check& c, const Operand& o,
                  const FormatComparison* formats) {
  if (o.kind == Operand::Kind::Number) return num(o.number);
  if (o.kind == Operand::Kind::Text) return txt(o.text);
  if (o.text == "format-bytes" || o.text == "format-speed") {  // compare-formats' rows
    if (!formats) return fail("no format comparison on this page (compare-formats)");
    const FormatSpeed* f = formats->find(o.arg);
    if (!f) return fail("no format '" + o.arg + "' (F32, Q8_0, Q4_K)");
    return num(o.text == "format-bytes" ? f->bytes_per_token : f->tokens_per_s);
  }
  const int lane = c.lane;
  if (lane < 0 || lane >= lane_count(s)) return fail("no lane " + std::to_string(lane));
  const std::string& m = o.text;
  if (m == "kv-length") return num(kv_length(s, lane));
  if (m == "prompt-tokens") return num(static_cast<double>(prompt_tokens(s).size()));
  if (m == "cursor") return num(s.cursor());
  if (m == "divergence") return num(first_divergence(s));
  if (m == "branches") return num(static_cast<double>(branches(s, lane).size()));
  if (m == "lanes") return num(lane_count(s));
  if (m == "vocab-size") return has_model(s) ? num(config(s).vocab_size) : fail("no model loaded");
  if (m == "text") return txt(generated_text(s, lane));
  if (m == "token") {
    const auto toks = path_tokens(s, lane);
    const int pos = std::atoi(o.arg.c_str());
    if (!o.has_arg || pos < 0 || pos >= static_cast<int>(toks.size())) {
      return fail("no token at position " + o.arg + " (the sequence has " +
                  std::to_string(toks.size()) + ")");
    }
    const int id = toks[pos].id;  // the token itself, not its context; a control token by name
    return txt(s.tokenizer().is_special(id) ? s.tokenizer().display_piece(id)
                                            : s.tokenizer().token_bytes(id));
  }
  // Everything below reads a step: the one named by the argument, or the cursor's.
  const bool step_arg = (m == "flops" || m == "flops-no-cache" || m == "intensity" ||
                         m == "weight-bytes" || m == "kv-bytes-read") && o.has_arg;
  const Step* st = step_arg ? step_at(s, lane, std::atoi(o.arg.c_str())) : current_step(s, lane);
  if (!st) return fail(step_arg ? "no step " + o.arg + " on the current path" : "nothing computed yet");
  if (m == "stop-reason") return txt(stop_reason_name(st->stop));
  if (m == "chosen") return txt(st->piece);
  if (m == "rank") {  // 1-based, as the app shows it: 1 = the most probable token
    if (st->chosen_rank < 0) return fail("the chosen token is not among the recorded candidates");
    return num(st->chosen_rank + 1);
  }
  if (m == "raw-rank" || m == "raw-p") {  // the chosen token in the raw model, as the Next
                                           // token panel's "raw" line shows it (a forced one too)
    if (!st->forward || st->forward->logits.empty())
      return fail("the step has no logits (record off)");
    if (m == "raw-p") return raw_p(*st, st->token);
    const std::vector<float>& z = st->forward->logits;
    if (st->token < 0 || st->token >= static_cast<int>(z.size())) return fail("token id out of range");
    int above = 0;  // 1-based: tokens with a higher logit, plus one
    for (float v : z) above += v > z[st->token];
    return num(above + 1);
  }
  if (m == "entropy") return num(st->sampling.draw.raw_entropy);
  if (m == "final-entropy") return num(st->sampling.draw.entropy);
  if (m == "top-1" || (m == "p" && o.arg == "top-1" && !o.arg_quoted)) {
    if (st->sampling.raw.empty()) return fail("the step recorded no candidates");
    const Candidate& top = st->sampling.raw.front();
    if (m == "p") return num(top.p);
    return txt(s.tokenizer().token_bytes(top.id));
  }
  if (m == "p") {
    if (o.arg == "chosen" && !o.arg_quoted) return num(st->chosen_p);
    const int id = s.tokenizer().find_text(o.arg);
    if (id < 0) return fail("no token is exactly " + quote(o.arg));
    return raw_p(*st, id);
  }
  if (!st->forward) return fail("the step has no forward record");
  const CostRecord& cost = st->forward->cost;
  if (m == "step") return txt(phase_name(st->forward->phase));
  if (m == "flops") return num(cost.flops);
  if (m == "flops-no-cache") return num(cost.flops_no_cache);
  if (m == "intensity") return num(cost.arithmetic_intensity());
  if (m == "weight-bytes") return num(cost.weight_bytes);
  if (m == "kv-bytes-read") return num(cost.kv_bytes_read);
  return fail("unknown quantity '" + m + "'");
}

std::string show(const Value& v) {
  if (!v.is_number) return quote(v.text);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v.number);
  return buf;
}

}  // namespace

CheckResult evaluate_check(const Session& s, const Check& c, const FormatComparison* formats) {
  CheckResult r;
  if (!has_model(s)) {
    r.message = "no model loaded";
    return r;
  }
  if (!c.special.empty()) {
    const int d = first_divergence(s);
    if (lane_count(s) < 2) {
      r.message = "there is only one lane";
    } else if (c.special == "diverge-by") {
      r.ok = d >= 0 && d <= c.step;
      if (!r.ok) r.message = d < 0 ? "the lanes have not diverged" : "they diverge at step " + std::to_string(d);
    } else {
      r.ok = d < 0 || d > c.step;
      if (!r.ok) r.message = "they diverge at step " + std::to_string(d);
    }
    return r;
  }
  const Value a = metric(s, c, c.lhs, formats);
  if (!a.ok) {
    r.message = a.error;
    return r;
  }
  const Value b = metric(s, c, c.rhs, formats);
  if (!b.ok) {
    r.message = b.error;
    return r;
  }
  if (a.is_number != b.is_number) {
    r.message = "cannot compare " + show(a) + " with " + show(b);
    return r;
  }
  if (!a.is_number) {
    const std::string x = normalise(a.text), y = normalise(b.text);
    if (c.op == "is") r.ok = x == y;
    else if (c.op == "!=") r.ok = x != y;
    else r.ok = x.find(y) != std::string::npos;
  } else {
    const double x = a.number, y = b.number;
    const double tol = 1e-9 * std::max(1.0, std::fabs(y));
    if (c.op == "is") r.ok = std::fabs(x - y) <= tol;
    else if (c.op == "!=") r.ok = std::fabs(x - y) > tol;
    else if (c.op == "<") r.ok = x < y;
    else if (c.op == "<=") r.ok = x <= y;
    else if (c.op == ">") r.ok = x > y;
    else if (c.op == ">=") r.ok = x >= y;
  }
  if (!r.ok) r.message = "got " + show(a) + (c.rhs.kind == Operand::Kind::Metric ? " vs " + show(b) : "");
  return r;
}

}  // namespace ts
