// typical-p (stage_typical.h): descriptor and maths. Entropy H = -sum p ln p over the alive
// tokens; each token's distance |-ln p - H|; tokens by distance ascending (ties: more probable
// first, then lower id) are kept until their cumulative mass exceeds p (strictly, as llama.cpp),
// at least one. Recorded: the entropy (nats) and, as cut_at, the kept mass.
#include "sampling/stage_typical.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "sampling/stages.h"

namespace ts {

namespace {
constexpr Param<TypicalP> kTypicalParams[] = {
    {.field = "p", .spec = "typical-p|typical", .label = "typical-p", .off = 1, .lo = 0.01,
     .hi = 1, .f = &TypicalP::p, .help = "keep the tokens nearest the entropy, mass p (1 = off)"},
};
}  // namespace

const char* TypicalP::name() { return "typical-p"; }
std::span<const Param<TypicalP>> TypicalP::params() { return kTypicalParams; }
bool TypicalP::off() const { return !(p < 1.0f); }
Status TypicalP::check() const {
  if (!(p > 0 && p <= 1)) return stage_range_error("typical_p", "in (0, 1] (1 = off)", p);
  return ok_status();
}
TypicalP TypicalP::clamped() const {
  return TypicalP{std::isnan(p) || p > 1 ? 1.0f : std::max(p, 1e-6f)};
}
std::string TypicalP::record() const {
  return std::string(name()) + (off() ? std::string(" off") : " " + format_param(p));
}

StageOutcome TypicalP::apply(const StageContext&, ChainState& st) const {
  StageOutcome out(record());
  if (off()) return out;
  const std::vector<double> prob = softmax_alive(st);
  double h = 0;  // nats
  for (size_t i = 0; i < prob.size(); ++i)
    if (st.alive[i] && prob[i] > 0) h -= prob[i] * std::log(prob[i]);
  std::vector<int> ids;
  std::vector<double> dist(prob.size(), std::numeric_limits<double>::infinity());
  for (size_t i = 0; i < prob.size(); ++i) {
    if (!st.alive[i]) continue;
    ids.push_back(static_cast<int>(i));
    if (prob[i] > 0) dist[i] = std::abs(-std::log(prob[i]) - h);
  }
  std::sort(ids.begin(), ids.end(), [&](int a, int b) {
    if (dist[a] != dist[b]) return dist[a] < dist[b];
    if (prob[a] != prob[b]) return prob[a] > prob[b];
    return a < b;
  });
  double cum = 0;
  size_t keep = ids.size();
  for (size_t r = 0; r < ids.size(); ++r) {
    cum += prob[ids[r]];
    if (cum > p) {
      keep = r + 1;
      break;
    }
  }
  for (size_t r = keep; r < ids.size(); ++r) st.alive[ids[r]] = 0;
  out.cut_at = std::min(cum, 1.0);
  out.values = {{"entropy", h}};
  return out;
}

}  // namespace ts
