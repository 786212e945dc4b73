// The reference sampler (reference_sampler.h): the stage chain of stages.h over the whole
// vocabulary in double, a full softmax per recorded stage and the strip sorted over every token.
// Slow but plain; sample() (sampler.cpp) must record exactly what this records.
#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

#include "base/rng.h"
#include "sampling/reference_sampler.h"
#include "sampling/stages.h"
#include "sampling/strip.h"

namespace ts {

namespace {

// The recorded candidates among `pool` (tokens alive before a stage): kept ones by logit
// descending (= p descending), then cut ones by logit descending; ties by id; at most `top`.
std::vector<Candidate> top_candidates(const ChainState& st, const std::vector<double>& prob,
                                      const std::vector<uint8_t>& pool, int top) {
  std::vector<int> ids;
  for (size_t i = 0; i < pool.size(); ++i) {
    if (pool[i]) ids.push_back(static_cast<int>(i));
  }
  auto before = [&](int a, int b) {
    if (st.alive[a] != st.alive[b]) return st.alive[a] > st.alive[b];
    if (st.logit[a] != st.logit[b]) return st.logit[a] > st.logit[b];
    return a < b;
  };
  const size_t n = std::min(ids.size(), static_cast<size_t>(top));
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(), before);
  std::vector<Candidate> out;
  out.reserve(n);
  for (size_t r = 0; r < n; ++r) {
    const int id = ids[r];
    out.push_back({id, static_cast<float>(st.logit[id]), static_cast<float>(prob[id]),
                   st.alive[id] != 0});
  }
  return out;
}

// Runs the chain (a greedy Temperature stage collapses it to the argmax) on a clamped copy of
// the settings; records the raw and per-stage candidates when rec is given. Returns the final
// state.
ChainState run_chain(const SamplerSettings& s, std::span<const float> logits,
                     StageContext ctx, SamplingRecord* rec, int top,
                     const SamplingRecord* previous = nullptr) {
  ChainState st = make_chain_state(logits);
  if (rec) {
    const std::vector<double> raw = softmax_alive(st);
    rec->raw = top_candidates(st, raw, std::vector<uint8_t>(st.alive.size(), 1), top);
    rec->draw.raw_entropy = static_cast<float>(entropy_bits(raw));
  }
  for (size_t i = 0; i < s.chain.size(); ++i) {
    const Stage& stage = s.chain[i];
    const bool same = previous && i < previous->stages.size() &&
                      previous->stages[i].kind == kind_of(stage);
    ctx.previous = same ? &previous->stages[i] : nullptr;
    std::vector<uint8_t> pool;
    if (rec) pool = st.alive;
    const StageOutcome out = apply_stage(stage, ctx, st);
    if (rec) {
      StageRecord sr;
      sr.kind = kind_of(stage);
      sr.name = out.name;
      sr.n_kept = st.n_alive();
      sr.cut_at = static_cast<float>(out.cut_at);
      sr.top = top_candidates(st, softmax_alive(st), pool, top);
      sr.values = out.values;
      sr.marks = out.marks;
      rec->stages.push_back(std::move(sr));
    }
  }
  return st;
}

}  // namespace

int reference_sample(const SamplerSettings& settings, std::span<const float> logits,
                     std::span<const int> history, uint64_t step, SamplingRecord* rec,
                     const SampleOptions& opt) {
  if (rec) *rec = SamplingRecord{};
  if (logits.empty()) return -1;
  const SamplerSettings s = clamp_settings(settings);
  const int top = std::max(opt.record_top, 0);
  StageContext ctx{history, s.seed, step};
  ctx.text = opt.text;
  const ChainState st = run_chain(s, logits, ctx, rec, top, opt.previous);
  const std::vector<double> prob = softmax_alive(st);
  const CumulativeStrip strip{std::span<const double>(prob)};
  const double u = uniform01(s.seed, step, 0);
  const StripPick pick = greedy(s) ? strip.top() : strip.pick(u);
  if (rec) {
    std::vector<Candidate> fin = top_candidates(st, prob, st.alive, top);
    std::erase_if(fin, [](const Candidate& c) { return !c.kept; });
    rec->final_dist = std::move(fin);
    DrawRecord& d = rec->draw;
    d.greedy = greedy(s);
    d.u = u;
    d.chosen_id = pick.id;
    d.chosen_rank = pick.rank;
    d.chosen_p = static_cast<float>(pick.p);
    d.cum_lo = pick.cum_lo;
    d.cum_hi = pick.cum_hi;
    d.entropy = static_cast<float>(entropy_bits(prob));
    // Stages that update their state from the drawn token (mirostat's mu).
    after_taking(s, *rec, pick.p);
  }
  return pick.id;
}

std::vector<float> reference_final_distribution(const SamplerSettings& settings,
                                                std::span<const float> logits,
                                                std::span<const int> history, uint64_t step,
                                                const SampleOptions& opt) {
  if (logits.empty()) return {};
  StageContext ctx{history, settings.seed, step};
  ctx.text = opt.text;
  const ChainState st = run_chain(clamp_settings(settings), logits, ctx, nullptr, 0, opt.previous);
  const std::vector<double> prob = softmax_alive(st);
  return std::vector<float>(prob.begin(), prob.end());
}

}  // namespace ts
