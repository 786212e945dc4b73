// The fast chain (fast_chain.h): the stages on a FastState (fast_state.h) with the reference's
// arithmetic (stages.cpp), records from the pool's best `top` before a cut and the
// probabilities after, and the draw on the kept tokens (or on the ranking, if nothing was cut).
#include "sampling/fast_chain.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "base/rng.h"
#include "sampling/dense_scan.h"
#include "sampling/fast_state.h"
#include "sampling/prob_order.h"
#include "sampling/stages.h"
#include "sampling/strip.h"

namespace ts {

namespace {

constexpr double kFastInf = std::numeric_limits<double>::infinity();
constexpr double kFastTol = 1e-6;  // as stages.cpp's kTol

// A stage that changes values (and cuts nothing) with these parameters.
bool changes_values(const Stage& stage) {
  if (const auto* t = std::get_if<Temperature>(&stage)) return t->t > 0;
  return std::holds_alternative<Penalties>(stage) && !is_off(stage);
}

StageOutcome penalties(const Penalties& s, std::span<const int> history, FastState& w) {
  if (is_off(s)) return {record_name(s), 0};
  const size_t last_n = std::min(history.size(), static_cast<size_t>(s.last_n));
  std::map<int, int> count;  // token id -> occurrences in the window
  for (size_t i = history.size() - last_n; i < history.size(); ++i) {
    const int id = history[i];
    if (id >= 0 && id < w.vocab()) ++count[id];
  }
  const double rp = s.repeat;
  std::vector<std::pair<int, double>> nv;  // ascending ids, as the map
  for (const auto& [id, c] : count) {
    if (!w.alive(id)) continue;
    double x = w.value(id);
    x = x > 0 ? x / rp : x * rp;
    x -= c * static_cast<double>(s.frequency) + static_cast<double>(s.presence);
    nv.push_back({id, x});
  }
  w.set_values(nv);
  return {record_name(s), 0};
}

StageOutcome temperature(float temp, FastState& w) {
  if (temp > 0) {
    w.divide(temp);
    return {record_name(Temperature{temp}), 0};
  }
  const int best = w.ranked(1)[0];
  const double at = w.value(best);
  if (w.n_alive() > 1) w.keep_only({best});
  return {record_name(Temperature{0.0f}), at};
}

StageOutcome top_k(int k, FastState& w) {
  if (k <= 0) return {record_name(TopK{k}), 0};
  const std::vector<int> order = w.ranked(static_cast<size_t>(k));
  const size_t keep = std::min(order.size(), static_cast<size_t>(k));
  const double at = w.value(order[keep - 1]);
  if (keep < static_cast<size_t>(w.n_alive())) {
    w.keep_only(std::vector<int>(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep)));
  }
  return {record_name(TopK{k}), at};
}

// Top-p on the dense state when the mass is not reached among the best kMinRanked: the whole
// softmax at once, the strip's order by buckets (prob_order.h), the kept ids ascending by a
// mask. Probabilities equal only where values are (or both 0, never needed: the walk stops at
// a token with p > 0), so this is the ranking by value.
StageOutcome dense_top_p(float p, FastState& w) {
  // The terms e = exp(value - max): e / S is the probability.
  const std::vector<double>& prob = w.dense_terms();
  const StripCrossing x = cross_strip(prob, w.sums().sum, p - kFastTol, false, w.pool());
  double cum = x.cum_hi;
  if (x.index >= 0 && !x.last) {  // the kept set: p above the crossing's, and its run to it
    const double at = prob[static_cast<size_t>(x.index)];
    std::vector<int> ids = w.take_ids();
    std::vector<double> values = w.take_values();  // the kept ids' values (no lookups later)
    dense_kept(w.dense_logits(), prob, at, x.index, ids, values, w.pool());
    w.keep_sorted(std::move(ids), std::move(values));
  } else if (x.index >= 0) {
    // The mass is reached only at the strip's end, or never (rounding): every token stays, as
    // the reference keeps all when its walk ends without reaching p.
    std::vector<int> ids;
    for (size_t i = 0; i < prob.size(); ++i) {
      if (prob[i] > 0) ids.push_back(static_cast<int>(i));
    }
    if (cum >= p - kFastTol && ids.size() < prob.size()) w.keep_only(std::move(ids));
  }
  return {record_name(TopP{p}), std::min(cum, 1.0)};
}

StageOutcome top_p(float p, FastState& w) {
  if (p >= 1.0f) return {record_name(TopP{p}), 0};
  const size_t alive = static_cast<size_t>(w.n_alive());
  double cum = 0;
  size_t keep = 0, r = 0;
  std::vector<int> order;
  for (size_t n_sorted = 64; keep == 0; n_sorted *= 8) {
    if (n_sorted > kMinRanked && w.dense()) return dense_top_p(p, w);
    order = w.ranked(n_sorted);  // the prefix already summed stays the same
    const size_t n = std::min(n_sorted, alive);
    for (; r < n && keep == 0; ++r) {
      cum += w.p(order[r]);
      if (cum >= p - kFastTol) keep = r + 1;
    }
    if (n == alive && keep == 0) keep = alive;
  }
  if (keep < alive) {
    w.keep_only(std::vector<int>(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep)));
  }
  return {record_name(TopP{p}), std::min(cum, 1.0)};
}

StageOutcome min_p(float mp, FastState& w) {
  const std::string name = record_name(MinP{mp});
  if (mp <= 0.0f) return {name, 0};
  const double need = static_cast<double>(mp) * (1.0 - kFastTol);
  double m = -kFastInf, denom = 0;
  std::vector<int> cand;  // ascending ids that may pass; checked exactly below
  if (w.dense()) {
    const DenseSums& s = w.sums();
    m = s.max;
    denom = s.sum;
    // exp(x - m) >= need only if x - m >= log(need) (up to rounding: dense_at_least is loose).
    cand = dense_at_least(w.dense_logits(), m + std::log(need), w.pool());
  } else {
    const std::vector<int>& ids = w.ids();
    for (int id : ids) m = std::max(m, w.value(id));
    for (int id : ids) denom += std::exp(w.value(id) - m);
    cand = ids;
  }
  std::vector<int> keep;
  for (int id : cand) {
    const double x = w.value(id);
    if (x == m || std::exp(x - m) >= need) keep.push_back(id);
  }
  if (keep.size() < static_cast<size_t>(w.n_alive())) w.keep_only(std::move(keep));
  return {name, static_cast<double>(mp) * (1.0 / denom)};
}

// The stages with a fast version; a chain with any other stage runs the reference sampler.
struct Apply {
  std::span<const int> history;
  FastState& w;
  StageOutcome operator()(const Penalties& s) const { return penalties(s, history, w); }
  StageOutcome operator()(const Temperature& s) const { return temperature(s.t, w); }
  StageOutcome operator()(const TopK& s) const { return top_k(s.k, w); }
  StageOutcome operator()(const TopP& s) const { return top_p(s.p, w); }
  StageOutcome operator()(const MinP& s) const { return min_p(s.p, w); }
};

bool has_fast_version(const Stage& stage) {
  return std::visit([](const auto& s) { return std::is_invocable_v<Apply, decltype(s)>; }, stage);
}

StageOutcome apply(const Stage& stage, std::span<const int> history, FastState& w) {
  return std::visit(
      [&](const auto& s) -> StageOutcome {
        if constexpr (std::is_invocable_v<Apply, decltype(s)>) return Apply{history, w}(s);
        return {};  // not reached: fast_sample() refuses such a chain
      },
      stage);
}

// The best min(top, alive) alive tokens with their values (what a record lists first).
std::vector<std::pair<int, double>> best_with_values(FastState& w, int top) {
  const std::vector<int>& r = w.ranked(static_cast<size_t>(top));
  const size_t n = std::min(r.size(), static_cast<size_t>(top));
  std::vector<std::pair<int, double>> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = {r[i], w.value(r[i])};
  return out;
}

// Candidates of a record from the pool's best entries (ids and values before a cut): kept ones
// (alive in w now) with their probabilities, cut ones with p = 0. A cut keeps a prefix of the
// pool's order (top-k, top-p, min-p and greedy keep the highest values), so this is the
// reference's order: kept by value, then cut by value, ties by id.
std::vector<Candidate> candidates(FastState& w, const std::vector<std::pair<int, double>>& pool) {
  std::vector<Candidate> out;
  out.reserve(pool.size());
  for (const auto& [id, x] : pool) {
    const bool kept = w.alive(id);
    out.push_back({id, static_cast<float>(x), kept ? static_cast<float>(w.p(id)) : 0.0f, kept});
  }
  return out;
}

// The draw on the final (sparse) state, as CumulativeStrip: tokens with p > 0 by p descending
// then id, scaled by their sum in that order, the last interval ending at exactly 1.
StripPick large_draw(FastState& w, double u);

StripPick draw(FastState& w, bool greedy, double u) {
  if (w.large() && !greedy) return large_draw(w, u);
  const std::vector<double>& prob = w.sparse_probs();
  const std::vector<int>& ids = w.ids();
  const std::vector<std::pair<double, int>> order = strip_pairs(prob);  // (p, index into ids)
  StripPick pick;
  if (order.empty()) return pick;
  double total = 0;
  for (const auto& e : order) total += e.first;
  double cum = 0;
  for (size_t r = 0; r < order.size(); ++r) {
    const double q = order[r].first / total;
    const double lo = cum;
    cum += q;
    const double hi = r + 1 == order.size() ? 1.0 : cum;
    if (greedy ? r == 0 : (hi > u || r + 1 == order.size())) {
      pick.id = ids[static_cast<size_t>(order[r].second)];
      pick.rank = static_cast<int>(r);
      pick.p = q;
      pick.cum_lo = lo;
      pick.cum_hi = hi;
      return pick;
    }
  }
  return pick;
}

// The draw on a large kept set (FastState::large): the crossing found by bucket masses, as the
// dense draw, no order of the whole set.
StripPick large_draw(FastState& w, double u) {
  const std::vector<double>& prob = w.sparse_probs();
  const double total = w.sparse_total();
  const StripCrossing x = cross_strip(prob, total, u, true, w.pool());
  StripPick pick;
  if (x.index < 0) return pick;
  pick.id = w.ids()[static_cast<size_t>(x.index)];
  pick.rank = x.rank;
  pick.p = prob[static_cast<size_t>(x.index)] / total;
  pick.cum_lo = x.cum_lo;
  pick.cum_hi = x.last ? 1.0 : x.cum_hi;
  return pick;
}

// The draw while every token is alive: the strip in probability order (exp is monotone, ties
// by id) walked only as far as u. The best kMinRanked first; past them the whole softmax at
// once and the crossing found by bucket masses (cross_strip), no order of the vocabulary. Its
// total is S x (1 / S) instead of the reference's sum over the strip (the same to the last bits).
StripPick dense_draw(FastState& w, double u) {
  const DenseSums& sm = w.sums();
  const double inv = 1.0 / sm.sum;
  const double total = sm.sum * inv;
  auto p_of = [&](int id) { return std::exp(w.value(id) - sm.max) * inv; };
  auto pick_at = [&](int id, size_t r, double q, double lo, double hi) {
    StripPick pick;
    pick.id = id;
    pick.rank = static_cast<int>(r);
    pick.p = q;
    pick.cum_lo = lo;
    pick.cum_hi = hi;
    return pick;
  };
  // The head: the ranking by value, while no run of equal probability reaches its end.
  const std::vector<int> head = w.ranked(kMinRanked);
  double cum = 0;
  for (size_t r = 0; r + 1 < head.size(); ++r) {
    const double pr = p_of(head[r]);
    const double next = p_of(head[r + 1]);
    if (pr == next || next == 0) break;  // a tie, or r ends the strip: the full walk
    const double q = pr / total;
    const double lo = cum;
    cum += q;
    if (cum > u) return pick_at(head[r], r, q, lo, cum);
  }
  // The terms e = exp(value - max), over S the probabilities (S x total: the strip's total).
  const std::vector<double>& terms = w.dense_terms();
  const double divisor = sm.sum * total;
  const StripCrossing x = cross_strip(terms, divisor, u, true, w.pool());
  if (x.index < 0) return {};
  return pick_at(x.index, static_cast<size_t>(x.rank),
                 terms[static_cast<size_t>(x.index)] / divisor, x.cum_lo, x.last ? 1.0 : x.cum_hi);
}

// glibc serves an allocation above its (adaptive) threshold with a fresh mapping and gives the
// heap's free top back to the system: the scratch vectors of one step on a 152k vocabulary (a
// few MB: probabilities, kept ids and values, the strip's pairs) were faulted in page by page on
// every step, about 1 ms. Fixed thresholds keep such blocks in the heap for the next step. Once
// per process, before the first fast sample; blocks above 64 MiB (model weights) still map.
void keep_scratch_in_heap() {
#if defined(__GLIBC__)
  static const bool done = [] {
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    return true;
  }();
  (void)done;
#endif
}

}  // namespace

bool fast_path_applies(const SamplerSettings& s, std::span<const float> logits, ThreadPool* pool) {
  for (const Stage& st : s.chain)
    if (!has_fast_version(st)) return false;
  return !logits.empty() && all_finite(logits, pool);
}

std::optional<int> fast_sample(const SamplerSettings& s, std::span<const float> logits,
                               std::span<const int> history, uint64_t step, SamplingRecord* rec,
                               int top, ThreadPool* pool) {
  for (const Stage& st : s.chain)
    if (!has_fast_version(st)) return std::nullopt;
  float raw_max = 0;
  if (logits.empty() || !all_finite(logits, pool, &raw_max)) return std::nullopt;
  keep_scratch_in_heap();
  if (rec) *rec = SamplingRecord{};
  FastState w(logits, raw_max, pool);
  if (rec) {
    rec->raw = candidates(w, best_with_values(w, top));
    rec->draw.raw_entropy = static_cast<float>(w.entropy());
  }
  for (const Stage& stage : s.chain) {
    std::vector<std::pair<int, double>> before;
    const bool values = changes_values(stage);
    if (rec && !values) before = best_with_values(w, top);
    const StageOutcome out = apply(stage, history, w);
    if (rec) {
      if (values) before = best_with_values(w, top);
      StageRecord sr;
      sr.kind = kind_of(stage);
      sr.name = out.name;
      sr.n_kept = w.n_alive();
      sr.cut_at = static_cast<float>(out.cut_at);
      sr.top = candidates(w, before);
      rec->stages.push_back(std::move(sr));
    }
  }
  // Greedy (a Temperature 0 stage) has cut to one token; a dense state is a chain that cut
  // nothing.
  const double u = uniform01(s.seed, step, 0);
  const StripPick pick = w.dense() ? dense_draw(w, u) : draw(w, greedy(s), u);
  if (rec) {
    rec->final_dist = candidates(w, best_with_values(w, top));
    DrawRecord& d = rec->draw;
    d.greedy = greedy(s);
    d.u = u;
    d.chosen_id = pick.id;
    d.chosen_rank = pick.rank;
    d.chosen_p = static_cast<float>(pick.p);
    d.cum_lo = pick.cum_lo;
    d.cum_hi = pick.cum_hi;
    d.entropy = static_cast<float>(w.entropy());
  }
  return pick.id;
}

}  // namespace ts
