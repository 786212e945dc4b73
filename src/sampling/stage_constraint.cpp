// The constraint stages (stage_constraint.h): descriptors and the one mask both apply. The text
// so far is the bytes of history[start..]; a lazy DFA (text_regex.h) runs it once, then each
// alive token's bytes from there. A token fits when the DFA is not dead after it; a token
// without bytes (a special token) never does, but the end of text fits once the text is a
// match. Recorded: "mass removed" (the probability the cut tokens had before it) and, once the
// text so far is already a match, "complete" 1. One-of phrases may begin after one
// space, as a word after a prompt does ("yes" allows " yes").
#include "sampling/stage_constraint.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sampling/stages.h"
#include "sampling/text_regex.h"

namespace ts {

namespace {

constexpr Param<OneOf> kOneOfParams[] = {
    {.field = "phrases",
     .spec = "one-of",
     .label = "one of (a|b|c)",
     .off = 0,
     .lo = 0,
     .hi = 0,
     .get_text = one_of_text,
     .set_text = parse_one_of,
     .help = "the text must be exactly one of these phrases, separated by |"},
};
constexpr Param<Regex> kRegexParams[] = {
    {.field = "pattern",
     .spec = "regex",
     .label = "regex",
     .off = 0,
     .lo = 0,
     .hi = 0,
     .get_text = regex_text,
     .set_text = parse_regex,
     .help =
         "the text must match this regular expression, e.g. [A-Z][a-z]+ (bytes; . * + ? | [ ])"},
};

std::vector<std::string> split_phrases(std::string_view text) {
  std::vector<std::string> out;
  while (true) {
    const size_t bar = text.find('|');
    out.emplace_back(text.substr(0, bar));
    if (bar == std::string_view::npos) break;
    text.remove_prefix(bar + 1);
  }
  return out;
}

TextRegex one_of_regex(const OneOf& s) {
  std::vector<std::string> phrases;
  for (const std::string& p : split_phrases(s.phrases.view())) {
    phrases.push_back(p);
    if (p.empty() || p[0] != ' ') phrases.push_back(" " + p);
  }
  return TextRegex::one_of(phrases);
}

// The mask: cuts every alive token that cannot continue the text toward a match.
StageOutcome constrain(const TextRegex& re, const StageContext& ctx, ChainState& st,
                       StageOutcome out) {
  const TokenText& t = ctx.text;
  const int V = static_cast<int>(st.logit.size());
  if (t.pieces.size() < st.logit.size()) {
    out.name += ": no vocabulary text here, nothing cut";
    return out;
  }
  RegexDfa dfa(re);
  int at = dfa.start();
  for (size_t i = std::min(t.start, ctx.history.size()); i < ctx.history.size(); ++i) {
    const int id = ctx.history[i];
    if (id >= 0 && id < V) at = dfa.run(at, t.pieces[static_cast<size_t>(id)]);
  }
  if (at == RegexDfa::kDead) {
    out.values = {{"mass removed", 0}, {"complete", 0}};
    out.name += ": the text so far already breaks it, nothing cut";
    return out;
  }
  const bool complete = dfa.accepts(at);
  const std::vector<double> prob = softmax_alive(st);
  std::vector<int> cut;
  double removed = 0;
  int alive = 0;
  for (int id = 0; id < V; ++id) {
    if (!st.alive[static_cast<size_t>(id)]) continue;
    ++alive;
    const std::string& piece = t.pieces[static_cast<size_t>(id)];
    const bool fits =
        id == t.eos_id ? complete : !piece.empty() && dfa.run(at, piece) != RegexDfa::kDead;
    if (!fits) {
      cut.push_back(id);
      removed += prob[static_cast<size_t>(id)];
    }
  }
  if (static_cast<int>(cut.size()) == alive) {
    out.values = {{"mass removed", 0}, {"complete", complete ? 1.0 : 0.0}};
    out.name += complete ? ": complete, and no token may follow: nothing cut"
                         : ": no alive token fits, nothing cut";
    return out;
  }
  for (int id : cut) st.alive[static_cast<size_t>(id)] = 0;
  out.values = {{"mass removed", removed}};
  if (complete) out.values.push_back({"complete", 1});
  return out;
}

}  // namespace

std::string_view StageText::view() const {
  return {bytes.data(), static_cast<size_t>(std::clamp(n, 0, kMax))};
}

Status StageText::set(std::string_view text, const char* field) {
  if (text.size() > static_cast<size_t>(kMax))
    return make_error(std::string("sampler: ") + field + " is longer than " + std::to_string(kMax) +
                      " bytes");
  bytes = {};
  std::memcpy(bytes.data(), text.data(), text.size());
  n = static_cast<int>(text.size());
  return ok_status();
}

std::string one_of_text(const OneOf& s) { return std::string(s.phrases.view()); }
Status parse_one_of(OneOf& s, std::string_view text) {
  for (const std::string& p : split_phrases(text))
    if (p.empty() && !text.empty())
      return make_error("sampler: one-of has an empty phrase (write them as yes|no|maybe)");
  OneOf out;
  if (Status st = out.phrases.set(text, "one-of"); !st.ok()) return st;
  s = out;
  return ok_status();
}

std::string regex_text(const Regex& s) { return std::string(s.pattern.view()); }
Status parse_regex(Regex& s, std::string_view text) {
  if (!text.empty()) {
    Result<TextRegex> re = TextRegex::compile(text);
    if (!re.ok()) return make_error("sampler: " + re.error().message);
  }
  Regex out;
  if (Status st = out.pattern.set(text, "regex"); !st.ok()) return st;
  s = out;
  return ok_status();
}

std::optional<TextRegex> constraint_regex(const OneOf& s) {
  if (s.off()) return std::nullopt;
  return one_of_regex(s);
}

std::optional<TextRegex> constraint_regex(const Regex& s) {
  if (s.off()) return std::nullopt;
  Result<TextRegex> re = TextRegex::compile(s.pattern.view());
  if (!re.ok()) return std::nullopt;
  return std::move(re).value();
}

const char* OneOf::name() { return "one-of"; }
std::span<const Param<OneOf>> OneOf::params() { return kOneOfParams; }
bool OneOf::off() const { return phrases.n <= 0; }
Status OneOf::check() const {
  if (phrases.n < 0 || phrases.n > StageText::kMax)
    return stage_range_error("one-of length", "in [0, 95]", phrases.n);
  return ok_status();
}
OneOf OneOf::clamped() const {
  OneOf s = *this;
  s.phrases.n = std::clamp(s.phrases.n, 0, StageText::kMax);
  return s;
}
std::string OneOf::record() const {
  return std::string(name()) + (off() ? std::string(" off") : " " + one_of_text(*this));
}
StageOutcome OneOf::apply(const StageContext& ctx, ChainState& st) const {
  if (off()) return StageOutcome(record());
  return constrain(one_of_regex(*this), ctx, st, StageOutcome(record()));
}

const char* Regex::name() { return "regex"; }
std::span<const Param<Regex>> Regex::params() { return kRegexParams; }
bool Regex::off() const { return pattern.n <= 0; }
Status Regex::check() const {
  if (pattern.n < 0 || pattern.n > StageText::kMax)
    return stage_range_error("regex length", "in [0, 95]", pattern.n);
  if (off()) return ok_status();
  Result<TextRegex> re = TextRegex::compile(pattern.view());
  if (!re.ok()) return make_error("sampler: " + re.error().message);
  return ok_status();
}
Regex Regex::clamped() const {
  Regex s = *this;
  s.pattern.n = std::clamp(s.pattern.n, 0, StageText::kMax);
  if (s.pattern.n > 0 && !TextRegex::compile(s.pattern.view()).ok()) s.pattern = {};
  return s;
}
std::string Regex::record() const {
  return std::string(name()) + (off() ? std::string(" off") : " " + regex_text(*this));
}
StageOutcome Regex::apply(const StageContext& ctx, ChainState& st) const {
  if (off()) return StageOutcome(record());
  Result<TextRegex> re = TextRegex::compile(pattern.view());
  if (!re.ok()) return StageOutcome(record() + ": " + re.error().message);
  return constrain(re.value(), ctx, st, StageOutcome(record()));
}

}  // namespace ts
