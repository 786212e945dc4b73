// The sampler stages' maths over the full vocabulary (see stages.h): penalties, temperature,
// top-k, top-p, min-p, plus the softmax/ranking helpers they share. Pure functions of their inputs;
// nothing here records candidates or draws a token.
#include "sampling/stages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

namespace ts {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTol = 1e-6;  // slack for "mass reaches p" and "p >= min_p * p_max"
}  // namespace

SamplerSettings clamp_settings(SamplerSettings s) {
  for (Stage& st : s.chain) st = clamp(st);
  return s;
}

int ChainState::n_alive() const {
  int n = 0;
  for (uint8_t a : alive) n += a;
  return n;
}

ChainState make_chain_state(std::span<const float> logits) {
  ChainState st;
  st.logit.resize(logits.size());
  st.alive.resize(logits.size());
  bool any = false;
  for (size_t i = 0; i < logits.size(); ++i) {
    const double x = logits[i];
    const bool ok = !std::isnan(x) && x != -kInf;
    st.logit[i] = ok ? x : -kInf;
    st.alive[i] = ok ? 1 : 0;
    any = any || ok;
  }
  if (!any) {  // a broken model: still give the chain something to work on
    std::fill(st.logit.begin(), st.logit.end(), 0.0);
    std::fill(st.alive.begin(), st.alive.end(), uint8_t{1});
  }
  return st;
}

std::vector<double> softmax_alive(const ChainState& st) {
  const size_t n = st.logit.size();
  std::vector<double> p(n, 0.0);
  double m = -kInf;
  size_t n_alive = 0;
  for (size_t i = 0; i < n; ++i) {
    if (st.alive[i]) {
      m = std::max(m, st.logit[i]);
      ++n_alive;
    }
  }
  if (n_alive == 0) return p;
  if (m == kInf || m == -kInf) {  // +inf tokens share everything; all -inf: uniform
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) count += (st.alive[i] && st.logit[i] == m);
    for (size_t i = 0; i < n; ++i) p[i] = (st.alive[i] && st.logit[i] == m) ? 1.0 / count : 0.0;
    return p;
  }
  double sum = 0;
  for (size_t i = 0; i < n; ++i) {
    if (st.alive[i]) {
      p[i] = std::exp(st.logit[i] - m);
      sum += p[i];
    }
  }
  const double inv = 1.0 / sum;  // sum >= 1: the max contributes exp(0)
  for (size_t i = 0; i < n; ++i) p[i] *= inv;
  return p;
}

std::vector<int> ranked_alive(const ChainState& st, size_t n_sorted) {
  std::vector<int> ids;
  for (size_t i = 0; i < st.alive.size(); ++i) {
    if (st.alive[i]) ids.push_back(static_cast<int>(i));
  }
  auto before = [&](int a, int b) {
    if (st.logit[a] != st.logit[b]) return st.logit[a] > st.logit[b];
    return a < b;
  };
  // A heap of n (partial_sort) beats nth_element here: most tokens fail one comparison.
  const size_t n = std::min(n_sorted, ids.size());
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(), before);
  return ids;
}

double entropy_bits(std::span<const double> p) {
  double h = 0;
  for (double x : p) {
    if (x > 0) h -= x * std::log2(x);
  }
  return h;
}

StageOutcome apply_penalties(const Penalties& s, std::span<const int> history, ChainState& st) {
  if (is_off(s)) return {record_name(s), 0};
  const size_t last_n = std::min(history.size(), static_cast<size_t>(s.last_n));
  std::map<int, int> count;  // token id -> occurrences in the window
  for (size_t i = history.size() - last_n; i < history.size(); ++i) {
    const int id = history[i];
    if (id >= 0 && static_cast<size_t>(id) < st.logit.size()) ++count[id];
  }
  const double rp = s.repeat;
  for (const auto& [id, c] : count) {
    if (!st.alive[id]) continue;
    double& x = st.logit[id];
    x = x > 0 ? x / rp : x * rp;
    x -= c * static_cast<double>(s.frequency) + static_cast<double>(s.presence);
  }
  return {record_name(s), 0};
}

StageOutcome apply_temperature(float temperature, ChainState& st) {
  if (temperature > 0) {
    const double t = temperature;
    for (size_t i = 0; i < st.logit.size(); ++i) {
      if (st.alive[i]) st.logit[i] /= t;
    }
    return {record_name(Temperature{temperature}), 0};
  }
  const std::vector<int> order = ranked_alive(st, 1);
  for (size_t r = 1; r < order.size(); ++r) st.alive[order[r]] = 0;
  return {record_name(Temperature{0.0f}), order.empty() ? 0.0 : st.logit[order[0]]};
}

StageOutcome apply_top_k(int k, ChainState& st) {
  const std::string name = record_name(TopK{k});
  if (k <= 0) return {name, 0};
  const std::vector<int> order = ranked_alive(st, static_cast<size_t>(k));
  if (order.empty()) return {name, 0};
  const size_t keep = std::min(order.size(), static_cast<size_t>(k));
  for (size_t r = keep; r < order.size(); ++r) st.alive[order[r]] = 0;
  return {name, st.logit[order[keep - 1]]};
}

StageOutcome apply_top_p(float p, ChainState& st) {
  const std::string name = record_name(TopP{p});
  if (p >= 1.0f) return {name, 0};
  const std::vector<double> prob = softmax_alive(st);
  // Sort a prefix; widen it only while the mass is not reached (usually a few dozen tokens).
  std::vector<int> order;
  double cum = 0;
  size_t keep = 0;
  for (size_t n_sorted = 64; keep == 0; n_sorted *= 8) {
    order = ranked_alive(st, n_sorted);
    const size_t n = std::min(n_sorted, order.size());
    cum = 0;
    for (size_t r = 0; r < n && keep == 0; ++r) {
      cum += prob[order[r]];
      if (cum >= p - kTol) keep = r + 1;
    }
    if (n == order.size() && keep == 0) keep = order.size();  // rounding: keep everything
  }
  for (size_t r = keep; r < order.size(); ++r) st.alive[order[r]] = 0;
  return {name, std::min(cum, 1.0)};
}

StageOutcome apply_min_p(float min_p, ChainState& st) {
  const std::string name = record_name(MinP{min_p});
  if (min_p <= 0.0f) return {name, 0};
  double m = -kInf;
  for (size_t i = 0; i < st.logit.size(); ++i) {
    if (st.alive[i]) m = std::max(m, st.logit[i]);
  }
  // p_max = 1 / sum_i exp(logit_i - max) (1 / count of the max when the max is infinite).
  double denom = 0;
  for (size_t i = 0; i < st.logit.size(); ++i) {
    if (st.alive[i]) denom += std::isfinite(m) ? std::exp(st.logit[i] - m) : (st.logit[i] == m);
  }
  const double p_max = 1.0 / denom;
  const double need = static_cast<double>(min_p) * (1.0 - kTol);
  for (size_t i = 0; i < st.logit.size(); ++i) {
    if (!st.alive[i]) continue;
    // p_i / p_max = exp(logit_i - max); the +inf/-inf max cases keep the tokens at the max.
    const bool at_max = st.logit[i] == m;
    const bool keep = at_max || (std::isfinite(m) && std::exp(st.logit[i] - m) >= need);
    if (!keep) st.alive[i] = 0;
  }
  return {name, static_cast<double>(min_p) * p_max};
}

StageOutcome Penalties::apply(const StageContext& c, ChainState& st) const {
  return apply_penalties(*this, c.history, st);
}
StageOutcome Temperature::apply(const StageContext&, ChainState& st) const {
  return apply_temperature(t, st);
}
StageOutcome TopK::apply(const StageContext&, ChainState& st) const { return apply_top_k(k, st); }
StageOutcome TopP::apply(const StageContext&, ChainState& st) const { return apply_top_p(p, st); }
StageOutcome MinP::apply(const StageContext&, ChainState& st) const { return apply_min_p(p, st); }

StageOutcome apply_stage(const Stage& stage, const StageContext& ctx, ChainState& st) {
  return std::visit([&](const auto& s) { return s.apply(ctx, st); }, stage);
}
StageOutcome apply_stage(const Stage& stage, std::span<const int> history, ChainState& st) {
  return apply_stage(stage, StageContext{history}, st);
}

}  // namespace ts
