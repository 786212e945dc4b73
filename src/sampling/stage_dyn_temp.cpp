// Dynamic temperature (stage_dyn_temp.h): descriptor and maths. With n alive tokens (n >= 2),
// p = softmax, H = -sum p ln p, Hn = H / ln n in [0, 1]; lo = max(0, t - range), hi = t + range;
// T = lo + (hi - lo) * Hn^exponent; alive logits are divided by T (T = 0 keeps only the best,
// ties by lowest id). Recorded: entropy (nats), normalised entropy, the temperature used ("T").
#include "sampling/stage_dyn_temp.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sampling/stages.h"

namespace ts {

namespace {
constexpr Param<DynTemp> kDynTempParams[] = {
    {.field = "t", .spec = "dyn-temp", .label = "dyn temperature", .off = 1, .lo = 0.05, .hi = 2,
     .f = &DynTemp::t, .help = "the middle of the temperature range"},
    {.field = "range", .spec = "dyn-range", .label = "dyn range", .off = 0, .lo = 0, .hi = 2,
     .f = &DynTemp::range, .help = "the temperature moves within t +- range (0 = off)"},
    {.field = "exponent", .spec = "dyn-exponent|dyn-exp", .label = "dyn exponent", .off = 1,
     .lo = 0.1, .hi = 4, .f = &DynTemp::exponent, .help = "shapes entropy -> temperature"},
};
}  // namespace

const char* DynTemp::name() { return "dynamic-temperature"; }
std::span<const Param<DynTemp>> DynTemp::params() { return kDynTempParams; }
bool DynTemp::off() const { return !(range > 0.0f); }
Status DynTemp::check() const {
  if (!std::isfinite(t) || t <= 0) return stage_range_error("dyn_temp", "a finite number > 0", t);
  if (!std::isfinite(range) || range < 0)
    return stage_range_error("dyn_range", "a finite number >= 0 (0 = off)", range);
  if (!std::isfinite(exponent) || exponent <= 0)
    return stage_range_error("dyn_exponent", "a finite number > 0", exponent);
  return ok_status();
}
DynTemp DynTemp::clamped() const {
  DynTemp s = *this;
  if (!std::isfinite(s.t) || s.t <= 0) s.t = 1;
  if (!std::isfinite(s.range) || s.range < 0) s.range = 0;
  if (!std::isfinite(s.exponent) || s.exponent <= 0) s.exponent = 1;
  return s;
}
std::string DynTemp::record() const {
  if (off()) return std::string(name()) + " off";
  return std::string(name()) + " " + format_param(t) + " +- " + format_param(range) + " exp " +
         format_param(exponent);
}

StageOutcome DynTemp::apply(const StageContext&, ChainState& st) const {
  StageOutcome out(record());
  const int n = st.n_alive();
  if (off() || n < 2) return out;
  const std::vector<double> prob = softmax_alive(st);
  double h = 0;
  for (size_t i = 0; i < prob.size(); ++i)
    if (st.alive[i] && prob[i] > 0) h -= prob[i] * std::log(prob[i]);
  const double hn = h / std::log(static_cast<double>(n));
  const double lo = std::max(0.0, static_cast<double>(t) - range);
  const double hi = static_cast<double>(t) + range;
  const double temp = lo + (hi - lo) * std::pow(hn, static_cast<double>(exponent));
  if (temp > 0) {
    for (size_t i = 0; i < st.logit.size(); ++i)
      if (st.alive[i]) st.logit[i] /= temp;
  } else {
    const std::vector<int> order = ranked_alive(st, 1);
    for (size_t r = 1; r < order.size(); ++r) st.alive[order[r]] = 0;
  }
  out.values = {{"entropy", h}, {"normalised_entropy", hn}, {"T", temp}};
  char buf[48];
  std::snprintf(buf, sizeof buf, ": T %.3f", temp);
  out.name += buf;
  return out;
}

}  // namespace ts
