// Beam search (beam_search.h): per step, one decode pass per live beam in its slot, the best
// extensions over all beams, the tree's records, then the slots of the beams that go on.
#include "decode/beam_search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "decode/beam_slots.h"
#include "decode/log_prob.h"

namespace ts {

namespace {

using Clock = std::chrono::steady_clock;

struct Beam {
  int node = -1;  // -1: the prompt (before the first new token)
  int slot = 0;
};

struct Cand {
  int beam = 0;  // rank of the beam it extends
  int token = -1;
  double log_p = 0;
  double sum = 0;
};

bool better(const Cand& a, const Cand& b) {
  if (a.sum != b.sum) return a.sum > b.sum;
  if (a.log_p != b.log_p) return a.log_p > b.log_p;
  if (a.beam != b.beam) return a.beam < b.beam;
  return a.token < b.token;
}

// The best m extensions of beam `beam` (sum so far `base`) from its logits, appended to out;
// `allowed` (empty: every token) masks the tokens the constraints let through.
void extensions(std::span<const float> logits, int beam, double base, int m,
                const std::vector<uint8_t>& allowed, std::vector<Cand>& out) {
  const double lse = log_sum_exp(logits);
  std::vector<Cand> all;
  all.reserve(logits.size());
  for (int id = 0; id < static_cast<int>(logits.size()); ++id) {
    if (!allowed.empty() && !allowed[static_cast<size_t>(id)]) continue;
    const double lp = log_prob(logits, id, lse);
    if (std::isfinite(lp)) all.push_back({beam, id, lp, base + lp});
  }
  m = std::min(m, static_cast<int>(all.size()));
  std::partial_sort(all.begin(), all.begin() + m, all.end(), better);
  out.insert(out.end(), all.begin(), all.begin() + m);
}

double score_of(double sum, int len, double alpha) {
  return alpha == 0 ? sum : sum / std::pow(static_cast<double>(len), alpha);
}

int ancestor_at(const BeamResult& r, int node, int step) {
  while (node >= 0 && r.nodes[node].step > step) node = r.nodes[node].parent;
  return node;
}

// The search's state between steps.
struct Search {
  const BeamSettings& s;
  Forward& fwd;
  int n_prompt;
  BeamResult r;
  BeamSlots slots;
  std::vector<Beam> alive;
  int n_finished = 0;  // hypotheses so far (finished or budget-ended): their places are taken
  // Constraints: one automaton each, and per node the state its path's text reached in each.
  std::vector<RegexDfa> dfas;
  std::vector<int> root_states;
  std::vector<std::vector<int>> node_states;  // (nodes, constraints)

  const std::vector<int>& states_of(int node) const {
    return node < 0 ? root_states : node_states[static_cast<size_t>(node)];
  }

  // The tokens that keep the text after `node` on the way to every constraint's match (empty:
  // no constraint, no vocabulary text, or none fits: nothing is cut, as the stages do).
  std::vector<uint8_t> allowed_after(int node, int vocab) {
    if (dfas.empty()) return {};
    const std::vector<int>& at = states_of(node);
    std::vector<uint8_t> ok(static_cast<size_t>(vocab), 1);
    bool any = false;
    for (int id = 0; id < vocab; ++id) {
      const std::string& piece = s.text.pieces[static_cast<size_t>(id)];
      for (size_t c = 0; c < dfas.size() && ok[static_cast<size_t>(id)]; ++c) {
        const bool fits = id == s.text.eos_id
                              ? dfas[c].accepts(at[c])
                              : !piece.empty() && dfas[c].run(at[c], piece) != RegexDfa::kDead;
        if (!fits) ok[static_cast<size_t>(id)] = 0;
      }
      any = any || ok[static_cast<size_t>(id)];
    }
    if (!any) return {};
    return ok;
  }

  // A new node's states: its parent's, advanced by its token's bytes (eos reads none).
  void add_states(int parent, int token) {
    if (dfas.empty()) return;
    std::vector<int> st = states_of(parent);
    if (token != s.text.eos_id) {
      for (size_t c = 0; c < dfas.size(); ++c)
        st[c] = dfas[c].run(st[c], s.text.pieces[static_cast<size_t>(token)]);
    }
    node_states.push_back(std::move(st));
  }

  Search(const BeamSettings& set, Forward& f, int np, int capacity)
      : s(set),
        fwd(f),
        n_prompt(np),
        slots(f.model().config, set.width, capacity, np,
              [this](int node, int step) { return ancestor_at(r, node, step); }) {
    const size_t vocab = static_cast<size_t>(f.model().config.vocab_size);
    if (set.text.pieces.size() >= vocab) {
      for (const TextRegex& re : set.constraints) dfas.emplace_back(re);
      for (const RegexDfa& d : dfas) root_states.push_back(d.start());
    }
  }

  // The live beams' passes (their last token in their slot) and their extensions.
  Status expand(int step, int m, std::vector<Cand>& cands, BeamStepRecord& rec) {
    const ForwardOptions fo{RecordLevel::Off, 0, 0};
    for (int b = 0; b < static_cast<int>(alive.size()); ++b) {
      const Beam& beam = alive[b];
      if (step > 0) {
        const int token = r.nodes[beam.node].token;
        TS_TRY(fwd.run(slots.cache(beam.slot), std::span<const int>(&token, 1), fo, nullptr));
        slots.set_path(beam.slot, beam.node, step - 1);
        ++rec.passes;
        ++r.rows_computed;
      }
      const Vec& lg = fwd.logits();
      const double base = beam.node < 0 ? 0.0 : r.nodes[beam.node].sum_log_p;
      extensions({lg.data(), static_cast<size_t>(lg.size())}, b, base, m,
                 allowed_after(beam.node, static_cast<int>(lg.size())), cands);
    }
    return ok_status();
  }

  // Nodes for the chosen candidates; returns the ones that go on, with their parents' beams.
  std::vector<std::pair<int, int>> choose(int step, const std::vector<Cand>& cands, int n_select,
                                          BeamStepRecord& rec) {
    std::vector<std::pair<int, int>> next;  // (node, index of the parent beam in `alive`)
    std::vector<bool> has_child(alive.size(), false);
    const int n = std::min(n_select, static_cast<int>(cands.size()));
    for (int j = 0; j < n; ++j) {
      const Cand& c = cands[j];
      const int parent = alive[c.beam].node;
      BeamNode node;
      node.parent = parent;
      node.step = step;
      node.token = c.token;
      node.log_p = c.log_p;
      node.sum_log_p = c.sum;
      node.score = score_of(c.sum, step + 1, s.length_penalty);
      node.rank = j;
      const int id = static_cast<int>(r.nodes.size());
      const StopReason stop = decode_stop(s.limits, c.token, step + 1, n_prompt + step);
      if (stop != StopReason::None) {
        node.fate = stop == StopReason::Eos ? BeamFate::Finished : BeamFate::Budget;
        node.fate_step = step;
        rec.finished.push_back(id);
        ++n_finished;
      } else {
        rec.kept.push_back(id);
        next.emplace_back(id, c.beam);
      }
      r.nodes.push_back(node);
      add_states(parent, c.token);
      if (parent >= 0) r.nodes[parent].children.push_back(id);
      has_child[c.beam] = true;
    }
    for (int j = n; j < static_cast<int>(cands.size()) && j < n + s.width; ++j) {
      const Cand& c = cands[j];
      rec.cut.push_back({alive[c.beam].node, c.token, c.log_p, c.sum});
    }
    for (size_t b = 0; b < alive.size(); ++b) {
      const int p = alive[b].node;
      if (has_child[b] || p < 0) continue;
      r.nodes[p].fate = BeamFate::Pruned;
      r.nodes[p].fate_step = step;
      rec.pruned.push_back(p);
    }
    return next;
  }

  // Slots for the beams that go on: a parent's best child continues in its slot; the other
  // children fork into free slots, the one sharing most of the parent's path first.
  void assign_slots(int step, const std::vector<std::pair<int, int>>& next, BeamStepRecord& rec) {
    std::vector<bool> taken(slots.size(), false), parent_used(alive.size(), false);
    std::vector<Beam> beams(next.size());
    std::vector<size_t> forks;
    for (size_t i = 0; i < next.size(); ++i) {
      const auto [node, b] = next[i];
      beams[i].node = node;
      if (!parent_used[b]) {
        parent_used[b] = true;
        beams[i].slot = alive[b].slot;
        taken[alive[b].slot] = true;
      } else {
        forks.push_back(i);
      }
    }
    for (size_t i : forks) {
      const auto [node, b] = next[i];
      const int parent = alive[b].node;
      int best = -1, best_shared = -1;
      for (int f = 0; f < slots.size(); ++f) {
        if (taken[f]) continue;
        const int sh = slots.shared_rows(f, parent, step - 1);
        if (sh > best_shared) best = f, best_shared = sh;
      }
      taken[best] = true;
      const int copied = slots.fork(alive[b].slot, best, parent, step - 1);
      beams[i].slot = best;
      r.nodes[node].rows_copied = copied;
      rec.rows_copied += copied;
      r.rows_copied += copied;
    }
    for (const Beam& b : beams) r.nodes[b.node].slot = b.slot;
    alive = std::move(beams);
  }

  void finish() {
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < static_cast<int>(r.nodes.size()); ++i) {
      const BeamNode& n = r.nodes[i];
      if (n.fate != BeamFate::Finished && n.fate != BeamFate::Budget) continue;
      if (r.best < 0 || n.score > best) best = n.score, r.best = i;
    }
    if (r.best < 0) return;
    r.best_tokens = beam_path(r, r.best);
    const BeamNode& b = r.nodes[r.best];
    r.stop = decode_stop(s.limits, b.token, b.step + 1, n_prompt + b.step);
  }
};

}  // namespace

const char* beam_fate_name(BeamFate f) {
  switch (f) {
    case BeamFate::Extended:
      return "extended";
    case BeamFate::Pruned:
      return "pruned";
    case BeamFate::Finished:
      return "finished";
    case BeamFate::Budget:
      return "budget";
  }
  return "?";
}

Status validate(const BeamSettings& s) {
  if (s.width < 1 || s.width > kMaxBeamWidth) {
    return make_error("beam width must be in 1.." + std::to_string(kMaxBeamWidth) + ", got " +
                      std::to_string(s.width));
  }
  if (!(s.length_penalty >= 0 && s.length_penalty <= 4)) {
    return make_error("length penalty must be in 0..4, got " + std::to_string(s.length_penalty));
  }
  return validate(s.limits);
}

std::vector<int> beam_path(const BeamResult& r, int node) {
  std::vector<int> out;
  for (int n = node; n >= 0; n = r.nodes[n].parent) out.push_back(r.nodes[n].token);
  std::reverse(out.begin(), out.end());
  return out;
}

Result<BeamResult> beam_search(Forward& fwd, std::span<const int> prompt, const BeamSettings& s) {
  TS_TRY(validate(s));
  const int n_prompt = static_cast<int>(prompt.size());
  TS_TRY(check_prompt(s.limits, n_prompt));
  const auto t0 = Clock::now();
  const int capacity = std::min(s.limits.n_ctx, n_prompt + s.limits.max_tokens);
  Search st(s, fwd, n_prompt, capacity);
  TS_TRY(fwd.run(st.slots.cache(0), prompt, ForwardOptions{RecordLevel::Off, 0, 0}, nullptr));
  st.slots.set_prompt(0);
  st.r.forward_passes = 1;
  st.r.rows_computed = n_prompt;
  st.alive = {Beam{-1, 0}};
  for (int step = 0; !st.alive.empty(); ++step) {
    BeamStepRecord rec;
    rec.step = step;
    rec.passes = step == 0 ? 1 : 0;
    const int n_select = s.width - st.n_finished;
    std::vector<Cand> cands;
    TS_TRY(st.expand(step, n_select + s.width, cands, rec));
    if (cands.empty()) return make_error("the model gives no token a finite logit");
    std::sort(cands.begin(), cands.end(), better);
    const auto next = st.choose(step, cands, n_select, rec);
    st.r.forward_passes += step == 0 ? 0 : rec.passes;
    st.assign_slots(step, next, rec);
    st.r.steps.push_back(std::move(rec));
  }
  st.finish();
  st.r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return std::move(st.r);
}

}  // namespace ts
