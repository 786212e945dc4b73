// top-nσ (stage_top_n_sigma.h): descriptor and maths. Over the alive tokens with a finite logit:
// max, mean and the population deviation sd; tokens with logit < max - n * sd are cut (the
// best is never cut). Recorded: max, mean, sd; cut_at is the threshold logit.
#include "sampling/stage_top_n_sigma.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sampling/stages.h"

namespace ts {

namespace {
constexpr Param<TopNSigma> kTopNSigmaParams[] = {
    {.field = "n", .spec = "top-n-sigma|top-nsigma", .label = "top-n-sigma", .off = 0, .lo = 0,
     .hi = 5, .f = &TopNSigma::n, .help = "keep logits within n deviations of the best (0 = off)"},
};
}  // namespace

const char* TopNSigma::name() { return "top-n-sigma"; }
std::span<const Param<TopNSigma>> TopNSigma::params() { return kTopNSigmaParams; }
bool TopNSigma::off() const { return !(n > 0.0f); }
Status TopNSigma::check() const {
  if (!std::isfinite(n) || n < 0) return stage_range_error("top_n_sigma", "a finite number >= 0 (0 = off)", n);
  return ok_status();
}
TopNSigma TopNSigma::clamped() const {
  return TopNSigma{std::isnan(n) || n < 0 ? 0.0f : std::min(n, std::numeric_limits<float>::max())};
}
std::string TopNSigma::record() const {
  return std::string(name()) + (off() ? std::string(" off") : " " + format_param(n));
}

StageOutcome TopNSigma::apply(const StageContext&, ChainState& st) const {
  StageOutcome out(record());
  if (off()) return out;
  double mx = -std::numeric_limits<double>::infinity(), sum = 0;
  size_t count = 0;
  for (size_t i = 0; i < st.logit.size(); ++i) {
    if (!st.alive[i] || !std::isfinite(st.logit[i])) continue;
    mx = std::max(mx, st.logit[i]);
    sum += st.logit[i];
    ++count;
  }
  if (count < 2) return out;
  const double mean = sum / static_cast<double>(count);
  double acc = 0;
  for (size_t i = 0; i < st.logit.size(); ++i)
    if (st.alive[i] && std::isfinite(st.logit[i])) acc += (st.logit[i] - mean) * (st.logit[i] - mean);
  const double sd = std::sqrt(acc / static_cast<double>(count));
  const double at = mx - static_cast<double>(n) * sd;
  for (size_t i = 0; i < st.logit.size(); ++i)
    if (st.alive[i] && st.logit[i] < at) st.alive[i] = 0;  // mx itself is >= at
  out.cut_at = at;
  out.values = {{"max", mx}, {"mean", mean}, {"sd", sd}};
  return out;
}

}  // namespace ts
