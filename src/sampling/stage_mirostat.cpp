// Mirostat v2 (stage_mirostat.h): descriptor and maths. mu = the previous step's recorded
// "mu_next" for this stage, else 2 tau. Alive tokens by p descending (ties by id) are kept while
// -log2 p <= mu, at least the best one. Recorded: "mu" (used at this step) and, after the draw,
// "mu_next" = mu - eta * (-log2 p_taken - tau), p_taken the final probability of the token
// taken: the drawn one, or a forced one (after_taking, sampler.h); mu stays for a forced token
// the stage had cut.
#include "sampling/stage_mirostat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sampling/sampler.h"
#include "sampling/stages.h"

namespace ts {

namespace {
constexpr Param<Mirostat> kMirostatParams[] = {
    {.field = "tau", .spec = "mirostat-tau|mirostat", .label = "mirostat tau", .off = 0,
     .lo = 0, .hi = 10, .f = &Mirostat::tau, .help = "target surprise in bits (0 = off)"},
    {.field = "eta", .spec = "mirostat-eta", .label = "mirostat eta", .off = 0.1, .lo = 0.01,
     .hi = 1, .f = &Mirostat::eta, .help = "how fast mu follows the target"},
};

double value_of(const StageRecord& r, const char* key, double fallback) {
  for (const StageValue& v : r.values)
    if (v.key == key) return v.value;
  return fallback;
}
}  // namespace

const char* Mirostat::name() { return "mirostat-v2"; }
std::span<const Param<Mirostat>> Mirostat::params() { return kMirostatParams; }
bool Mirostat::off() const { return !(tau > 0.0f); }
Status Mirostat::check() const {
  if (!std::isfinite(tau) || tau < 0)
    return stage_range_error("mirostat_tau", "a finite number >= 0 (0 = off)", tau);
  if (!std::isfinite(eta) || eta <= 0) return stage_range_error("mirostat_eta", "a finite number > 0", eta);
  return ok_status();
}
Mirostat Mirostat::clamped() const {
  Mirostat s = *this;
  if (!std::isfinite(s.tau) || s.tau < 0) s.tau = 0;
  if (!std::isfinite(s.eta) || s.eta <= 0) s.eta = 0.1f;
  return s;
}
std::string Mirostat::record() const {
  if (off()) return std::string(name()) + " off";
  return std::string(name()) + " tau " + format_param(tau) + " eta " + format_param(eta);
}

StageOutcome Mirostat::apply(const StageContext& ctx, ChainState& st) const {
  StageOutcome out(record());
  if (off()) return out;
  const double mu = ctx.previous ? value_of(*ctx.previous, "mu_next", 2.0 * tau) : 2.0 * tau;
  const std::vector<double> prob = softmax_alive(st);
  const std::vector<int> order = ranked_alive(st);
  size_t keep = 0;
  while (keep < order.size() && -std::log2(prob[order[keep]]) <= mu) ++keep;
  keep = std::max<size_t>(keep, 1);
  for (size_t r = keep; r < order.size(); ++r) st.alive[order[r]] = 0;
  out.cut_at = order.empty() ? 0 : prob[order[keep - 1]];
  out.values = {{"mu", mu}};
  char buf[48];
  std::snprintf(buf, sizeof buf, ": mu %.3f", mu);
  out.name += buf;
  return out;
}

void Mirostat::after_draw(StageRecord& rec, double chosen_p) const {
  if (off() || rec.values.empty()) return;
  std::erase_if(rec.values, [](const StageValue& v) { return v.key == "mu_next"; });
  const double mu = rec.values[0].value;
  // A taken token this stage had cut (forced, p = 0) has no finite surprise: mu stays.
  rec.values.push_back({"mu_next", chosen_p > 0 ? mu - eta * (-std::log2(chosen_p) - tau) : mu});
}

}  // namespace ts
