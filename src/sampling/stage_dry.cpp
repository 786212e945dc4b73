// DRY (stage_dry.h): descriptor and maths. With the window w = the last last_n tokens of the
// history (all with -1) and n its length: for each j in w, L(j) = how many tokens before j
// equal the last tokens of the history, stopping at a breaker or the window's start. The
// token at j gets the largest L(j); with L >= allowed (and the token not itself a breaker) its
// logit drops by multiplier * base^(L - allowed) (the exponent capped so the penalty stays a
// finite float). Recorded: the longest repeat, its token and penalty; marks are the history
// positions of the earlier occurrence, then of the repeating end (for highlighting).
#include "sampling/stage_dry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "sampling/stages.h"

namespace ts {

namespace {
constexpr Param<Dry> kDryParams[] = {
    {.field = "multiplier", .spec = "dry|dry-multiplier", .label = "dry multiplier", .off = 0,
     .lo = 0, .hi = 2, .f = &Dry::multiplier, .help = "the penalty at the allowed length (0 = off)"},
    {.field = "base", .spec = "dry-base", .label = "dry base", .off = 1.75, .lo = 1, .hi = 4,
     .f = &Dry::base, .help = "each token past the allowed length multiplies the penalty"},
    {.field = "allowed", .spec = "dry-allowed", .label = "dry allowed length", .off = 2, .lo = 1,
     .hi = 8, .i = &Dry::allowed, .help = "repeats shorter than this are not penalised"},
    {.field = "last_n", .spec = "dry-last-n", .label = "dry last n", .off = -1, .lo = -1,
     .hi = 512, .i = &Dry::last_n, .help = "how far back to look (-1 = all, 0 = off)"},
    {.field = "breakers", .spec = "dry-breakers", .label = "dry breakers (ids)", .off = 0,
     .lo = 0, .hi = 0, .get_text = dry_breakers_text, .set_text = parse_dry_breakers,
     .help = "token ids that end a repeat, e.g. 13,29 (a newline, a full stop)"},
};

bool is_breaker(const Dry& s, int id) {
  const int n = std::clamp(s.n_breakers, 0, Dry::kMaxBreakers);
  return std::find(s.breakers.begin(), s.breakers.begin() + n, id) != s.breakers.begin() + n;
}
}  // namespace

std::string dry_breakers_text(const Dry& s) {
  std::string out;
  for (int i = 0; i < std::clamp(s.n_breakers, 0, Dry::kMaxBreakers); ++i)
    out += (i ? "," : "") + std::to_string(s.breakers[i]);
  return out;
}

Status parse_dry_breakers(Dry& s, std::string_view text) {
  Dry out = s;
  out.breakers = {};
  out.n_breakers = 0;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string item(text.substr(0, comma));
    char* end = nullptr;
    const long id = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || end != item.c_str() + item.size() || id < 0 || id > 1 << 30)
      return make_error("sampler: dry breaker '" + item + "' is not a token id");
    if (out.n_breakers == Dry::kMaxBreakers)
      return make_error("sampler: dry takes at most 8 breakers");
    out.breakers[out.n_breakers++] = static_cast<int>(id);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  s = out;
  return ok_status();
}

const char* Dry::name() { return "dry"; }
std::span<const Param<Dry>> Dry::params() { return kDryParams; }
bool Dry::off() const { return !(multiplier > 0.0f) || last_n == 0; }
Status Dry::check() const {
  if (!std::isfinite(multiplier) || multiplier < 0)
    return stage_range_error("dry_multiplier", "a finite number >= 0 (0 = off)", multiplier);
  if (!std::isfinite(base) || base < 1) return stage_range_error("dry_base", "a finite number >= 1", base);
  if (allowed < 1) return stage_range_error("dry_allowed_length", "an integer >= 1", allowed);
  if (last_n < -1) return stage_range_error("dry_penalty_last_n", "an integer >= -1 (-1 = all, 0 = off)", last_n);
  if (n_breakers < 0 || n_breakers > kMaxBreakers)
    return stage_range_error("dry breakers count", "in [0, 8]", n_breakers);
  return ok_status();
}
Dry Dry::clamped() const {
  Dry s = *this;
  if (!std::isfinite(s.multiplier) || s.multiplier < 0) s.multiplier = 0;
  if (!std::isfinite(s.base) || s.base < 1) s.base = 1;
  s.allowed = std::max(s.allowed, 1);
  s.last_n = std::max(s.last_n, -1);
  s.n_breakers = std::clamp(s.n_breakers, 0, kMaxBreakers);
  return s;
}
std::string Dry::record() const {
  if (off()) return std::string(name()) + " off";
  return std::string(name()) + " x" + format_param(multiplier) + " base " + format_param(base) +
         " allowed " + std::to_string(allowed);
}

StageOutcome Dry::apply(const StageContext& ctx, ChainState& st) const {
  StageOutcome out(record());
  if (off()) return out;
  const std::span<const int> h = ctx.history;
  const size_t n = h.size();
  const size_t start = last_n < 0 ? 0 : n - std::min(n, static_cast<size_t>(last_n));
  if (n - start < 2 || is_breaker(*this, h[n - 1])) return out;
  std::map<int, std::pair<int, long>> best;  // token -> (longest repeat, its j)
  const long nn = static_cast<long>(n), s0 = static_cast<long>(start);
  for (long j = s0 + 1; j < nn; ++j) {
    long len = 0;  // h[j-1-len] is compared with h[nn-1-len]; nn-1-len > j-1-len >= s0
    while (j - 1 - len >= s0 && h[j - 1 - len] == h[nn - 1 - len] && !is_breaker(*this, h[j - 1 - len]))
      ++len;
    auto& b = best[h[j]];
    if (len >= allowed && len > b.first) b = {static_cast<int>(len), j};
  }
  const double max_exp = base > 1.000001f ? 88.7 / std::log(static_cast<double>(base)) : 0;
  int top_len = 0, top_id = -1;
  double top_penalty = 0;
  long top_j = 0;
  for (const auto& [id, b] : best) {
    if (b.first < allowed || id < 0 || static_cast<size_t>(id) >= st.logit.size()) continue;
    if (!st.alive[id] || is_breaker(*this, id)) continue;
    double e = b.first - allowed;
    if (max_exp > 0) e = std::min(e, max_exp);
    const double penalty = multiplier * std::pow(static_cast<double>(base), e);
    st.logit[id] -= penalty;
    if (b.first > top_len) top_len = b.first, top_id = id, top_penalty = penalty, top_j = b.second;
  }
  if (top_id < 0) return out;
  for (long k = top_j - top_len; k < top_j; ++k) out.marks.push_back(static_cast<int>(k));
  for (long k = nn - top_len; k < nn; ++k) out.marks.push_back(static_cast<int>(k));
  out.values = {{"length", double(top_len)}, {"token", double(top_id)}, {"penalty", top_penalty}};
  char buf[96];
  std::snprintf(buf, sizeof buf, ": repeat of %d, token %d -%.3g", top_len, top_id, top_penalty);
  out.name += buf;
  return out;
}

}  // namespace ts
