// XTC (stage_xtc.h): descriptor and maths. The coin is uniform01(seed, step, kCoinStream), its
// own RNG stream (stream 0 is the draw's, 1 the histogram's), so the same (seed, step) flips the
// same coin on replay and rewind. Fires when coin < probability; then, of the alive tokens with
// p >= threshold (by p descending, ties by id), all but the last are cut when there are two or
// more. Recorded: coin, probability, threshold, fired (0/1), removed; cut_at is the
// probability of the most probable token left when it fired.
#include "sampling/stage_xtc.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "base/rng.h"
#include "sampling/stages.h"

namespace ts {

namespace {
constexpr uint64_t kCoinStream = 0x787463;  // "xtc"

constexpr Param<Xtc> kXtcParams[] = {
    {.field = "probability", .spec = "xtc-p|xtc-probability", .label = "xtc probability",
     .off = 0, .lo = 0, .hi = 1, .f = &Xtc::probability,
     .help = "chance per step that the top choices are cut (0 = off)"},
    {.field = "threshold", .spec = "xtc-threshold|xtc-t", .label = "xtc threshold", .off = 0.1,
     .lo = 0, .hi = 0.5, .f = &Xtc::threshold,
     .help = "tokens at or above this probability are the top choices"},
};

float unit_clamped(float x, float if_nan) {
  return std::isnan(x) ? if_nan : std::clamp(x, 0.0f, 1.0f);
}
}  // namespace

const char* Xtc::name() { return "xtc"; }
std::span<const Param<Xtc>> Xtc::params() { return kXtcParams; }
bool Xtc::off() const { return !(probability > 0.0f) || !(threshold <= 0.5f); }
Status Xtc::check() const {
  if (!(probability >= 0 && probability <= 1))
    return stage_range_error("xtc_probability", "in [0, 1] (0 = off)", probability);
  if (!(threshold >= 0 && threshold <= 1))
    return stage_range_error("xtc_threshold", "in [0, 1] (> 0.5 = never acts)", threshold);
  return ok_status();
}
Xtc Xtc::clamped() const {
  return Xtc{unit_clamped(probability, 0.0f), unit_clamped(threshold, 1.0f)};
}
std::string Xtc::record() const {
  if (off()) return std::string(name()) + " off";
  return std::string(name()) + " p " + format_param(probability) + " threshold " +
         format_param(threshold);
}

StageOutcome Xtc::apply(const StageContext& ctx, ChainState& st) const {
  StageOutcome out(record());
  if (off()) return out;
  const double coin = uniform01(ctx.seed, ctx.step, kCoinStream);
  const bool fired = coin < probability;
  std::vector<int> above;
  int removed = 0;
  if (fired) {
    const std::vector<double> prob = softmax_alive(st);
    for (int id : ranked_alive(st)) {
      if (prob[id] < threshold) break;
      above.push_back(id);
    }
    if (above.size() >= 2) {
      removed = static_cast<int>(above.size()) - 1;
      for (int r = 0; r < removed; ++r) st.alive[above[r]] = 0;
      out.cut_at = prob[above.back()];
    }
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, ": coin %.3f %s", coin,
                !fired ? "(no)" : removed ? "(fired)" : "(fired, fewer than 2 above)");
  out.name += buf;
  out.values = {{"coin", coin},
                {"probability", probability},
                {"threshold", threshold},
                {"fired", fired ? 1.0 : 0.0},
                {"removed", static_cast<double>(removed)}};
  return out;
}

}  // namespace ts
