// Logit bias (stage_logit_bias.h): descriptor and maths. Each listed id that is alive gets its
// bias added (ids outside the vocabulary are skipped); a -inf bias cuts the token unless it is
// the last alive one. Recorded: how many tokens were changed and how many banned.
#include "sampling/stage_logit_bias.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "sampling/stages.h"

namespace ts {

namespace {
constexpr Param<LogitBias> kLogitBiasParams[] = {
    {.field = "bias", .spec = "bias|logit-bias", .label = "logit bias (id:bias,...)", .off = 0,
     .lo = 0, .hi = 0, .get_text = logit_bias_text, .set_text = parse_logit_bias,
     .help = "token id:amount pairs added to the logits, e.g. 15:-5,16:2.5 (-inf bans)"},
};
}  // namespace

std::string logit_bias_text(const LogitBias& s) {
  std::string out;
  for (int i = 0; i < std::clamp(s.n, 0, LogitBias::kMax); ++i) {
    const auto& [id, b] = s.bias[i];
    if (!out.empty()) out += ",";
    out += std::to_string(id) + ":" + (std::isinf(b) ? std::string(b < 0 ? "-inf" : "inf")
                                                      : format_param(b));
  }
  return out;
}

Status parse_logit_bias(LogitBias& s, std::string_view text) {
  LogitBias out;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string item(text.substr(0, comma));
    const size_t colon = item.find(':');
    char* end = nullptr;
    errno = 0;
    const long id = std::strtol(item.c_str(), &end, 10);
    const bool id_ok = colon != std::string::npos && end == item.c_str() + colon && colon > 0 &&
                       errno == 0 && id >= 0 && id <= 1 << 30;
    double b = 0;
    if (id_ok) {
      const std::string v = item.substr(colon + 1);
      b = std::strtod(v.c_str(), &end);
      if (v.empty() || end != v.c_str() + v.size() || std::isnan(b)) b = NAN;
    }
    if (!id_ok || std::isnan(b))
      return make_error("sampler: logit bias entry '" + item + "' is not id:amount (e.g. 15:-5)");
    if (out.n == LogitBias::kMax)
      return make_error("sampler: logit bias takes at most " + std::to_string(LogitBias::kMax) +
                        " ids");
    out.bias[out.n++] = {static_cast<int>(id), static_cast<float>(b)};
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  s = out;
  return ok_status();
}

const char* LogitBias::name() { return "logit-bias"; }
std::span<const Param<LogitBias>> LogitBias::params() { return kLogitBiasParams; }
bool LogitBias::off() const {
  for (int i = 0; i < std::clamp(n, 0, kMax); ++i)
    if (bias[i].second != 0.0f) return false;
  return true;
}
Status LogitBias::check() const {
  if (n < 0 || n > kMax) return stage_range_error("logit_bias count", "in [0, 16]", n);
  for (int i = 0; i < n; ++i) {
    const auto& [id, b] = bias[i];
    if (id < 0) return stage_range_error("logit_bias id", "an integer >= 0", id);
    if (std::isnan(b) || b == INFINITY)
      return stage_range_error("logit_bias", "a finite number or -inf", b);
  }
  return ok_status();
}
LogitBias LogitBias::clamped() const {
  LogitBias s;
  for (int i = 0; i < std::clamp(n, 0, kMax); ++i) {
    const auto& e = bias[i];
    if (e.first >= 0 && !std::isnan(e.second) && e.second != INFINITY) s.bias[s.n++] = e;
  }
  return s;
}
std::string LogitBias::record() const {
  return std::string(name()) + (off() ? std::string(" off") : " " + logit_bias_text(*this));
}

StageOutcome LogitBias::apply(const StageContext&, ChainState& st) const {
  StageOutcome out(record());
  int changed = 0, banned = 0;
  for (int i = 0; i < std::clamp(n, 0, kMax); ++i) {
    const auto& [id, b] = bias[i];
    if (id < 0 || static_cast<size_t>(id) >= st.logit.size() || !st.alive[id] || b == 0) continue;
    if (b == -INFINITY) {
      if (st.n_alive() <= 1) continue;
      st.alive[id] = 0;
      ++banned;
    } else {
      st.logit[id] += b;
      ++changed;
    }
  }
  if (!off()) out.values = {{"changed", double(changed)}, {"banned", double(banned)}};
  return out;
}

}  // namespace ts
