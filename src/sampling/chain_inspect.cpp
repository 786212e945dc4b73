// The chain inspector (chain_inspect.h): static verdicts from the stage values, per-step ones
// by comparing a stage's recorded candidates with those before it (raw or the previous stage).
#include "sampling/chain_inspect.h"

#include <cmath>
#include <variant>

namespace ts {

namespace {

constexpr double kSameP = 1e-6;  // probabilities this close count as unchanged

// Why this stage alone can never act, or "".
std::string never_acts(const Stage& st) {
  if (const auto* t = std::get_if<Temperature>(&st)) return t->t == 1.0f ? "t = 1 divides by one" : "";
  return is_off(st) ? "off" : "";
}

// True when the stage leaves a single token whatever the logits.
bool leaves_one(const Stage& st) {
  if (const auto* t = std::get_if<Temperature>(&st)) return t->t == 0.0f;
  if (const auto* k = std::get_if<TopK>(&st)) return k->k == 1;
  if (const auto* m = std::get_if<MinP>(&st)) return m->p >= 1.0f;
  return false;
}

// The kept candidates of `now` have the probabilities they had in `before` (by id).
bool same_distribution(const std::vector<Candidate>& before, const std::vector<Candidate>& now) {
  for (const Candidate& c : now) {
    if (!c.kept) return false;  // something was cut
    bool found = false;
    for (const Candidate& b : before) {
      if (b.id != c.id || !b.kept) continue;
      found = std::abs(static_cast<double>(b.p) - c.p) <= kSameP;
      break;
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

std::vector<StageCheck> inspect_chain(const SamplerSettings& s, const SamplingRecord* rec) {
  std::vector<StageCheck> out(s.chain.size());
  const bool use_rec = rec && rec->stages.size() == s.chain.size();
  std::string one_left;  // the stage that left one token, once one has
  for (size_t i = 0; i < s.chain.size(); ++i) {
    const Stage& st = s.chain[i];
    StageCheck& c = out[i];
    const std::string alone = never_acts(st);
    if (!one_left.empty()) {
      c = {StageVerdict::NeverActs, "after " + one_left + ": one token left", false};
    } else if (!alone.empty()) {
      c = {StageVerdict::NeverActs, alone, true};
    } else if (use_rec) {
      const StageRecord& r = rec->stages[i];
      const int before_n = i == 0 ? -1 : rec->stages[i - 1].n_kept;
      const std::vector<Candidate>& before = i == 0 ? rec->raw : rec->stages[i - 1].top;
      const bool same_n = before_n < 0 || before_n == r.n_kept;
      if (same_n && same_distribution(before, r.top))
        c = {StageVerdict::Unchanged, "no change at this step", false};
    }
    if (one_left.empty() && leaves_one(st)) one_left = record_name(st);
  }
  return out;
}

std::string inspector_line(const SamplerSettings& s, const std::vector<StageCheck>& checks,
                           bool with_off) {
  std::string out;
  for (size_t i = 0; i < checks.size() && i < s.chain.size(); ++i) {
    if (checks[i].verdict == StageVerdict::Acts) continue;
    if (!with_off && checks[i].at_off_values) continue;
    out += (out.empty() ? "" : " · ") + std::string(stage_name(kind_of(s.chain[i]))) + ": " +
           (checks[i].verdict == StageVerdict::NeverActs ? "never acts (" + checks[i].why + ")"
                                                         : checks[i].why);
  }
  return out;
}

}  // namespace ts
