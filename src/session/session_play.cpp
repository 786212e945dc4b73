// Session play (steps paced by tick), "step into" (the phase cursor over one iteration) and
// "sample this step n times" (a histogram from RNG stream 1, never disturbing the generation).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "session/session.h"

namespace ts {

namespace {

constexpr int kMaxStepsPerTick = 256;  // a long stall (debugger, sleep) does not run away

}  // namespace

void Session::play(double tokens_per_second) {
  if (!(tokens_per_second > 0.0) || !std::isfinite(tokens_per_second)) {
    last_error_ = "play speed must be a positive number of tokens per second";
    playing_ = false;
    return;
  }
  play_rate_ = tokens_per_second;
  play_accum_ = 0.0;
  playing_ = can_step();
  last_error_ = playing_ ? std::string() : std::string("nothing to play: every lane has stopped");
}

void Session::pause() {
  playing_ = false;
  play_accum_ = 0.0;
}

int Session::tick(double dt_seconds) {
  if (!playing_ || !(dt_seconds > 0.0) || !std::isfinite(dt_seconds)) return 0;
  play_accum_ += dt_seconds * play_rate_;
  int steps = 0;
  while (play_accum_ >= 1.0 && playing_) {
    play_accum_ -= 1.0;
    if (!step().ok()) {
      pause();
      break;
    }
    ++steps;
    if (all_stopped()) {
      pause();
      break;
    }
    if (steps >= kMaxStepsPerTick) {
      play_accum_ = 0.0;
      break;
    }
  }
  return steps;
}

std::vector<PhaseItem> Session::phases(int lane) const {
  const int n_layers = loaded_ ? config().n_layers : 0;
  const Step* s = (lane >= 0 && lane < lane_count()) ? current_step(lane) : nullptr;
  if (!s) {
    std::vector<StageRecord> stages;
    if (lane >= 0 && lane < lane_count()) {
      const SamplerSettings& set = lanes_[lane].settings;
      for (const Stage& stage : set.chain) {
        StageRecord r;
        r.kind = kind_of(stage);
        r.name = stage_name(r.kind);
        if (is_off(stage)) r.name += " off";  // as the sampler names it (skipped by build_phases)
        stages.push_back(r);
      }
    }
    return build_phases(n_layers, stages, "draw", "append");
  }
  char buf[64];
  if (s->sampling.draw.greedy) {
    std::snprintf(buf, sizeof buf, "greedy pick");
  } else {
    std::snprintf(buf, sizeof buf, "draw u=%.3f", s->sampling.draw.u);
  }
  std::string draw = buf;
  if (s->forced) draw += " (replaced by a forced token)";
  return build_phases(n_layers, s->sampling.stages, draw, "append '" + s->display + "'");
}

int Session::phase_cursor() const {
  const int n = static_cast<int>(phases(0).size());
  if (phase_cursor_ < 0 || phase_cursor_ >= n) return n - 1;
  return phase_cursor_;
}

Status Session::set_phase(int phase_index) {
  const int n = static_cast<int>(phases(0).size());
  if (phase_index < 0 || phase_index >= n) {
    return finish(make_error("phase " + std::to_string(phase_index) + " is outside 0.." +
                             std::to_string(n - 1)));
  }
  phase_cursor_ = phase_index == n - 1 ? -1 : phase_index;
  return finish(ok_status());
}

Status Session::step_into() {
  const int n = static_cast<int>(phases(0).size());
  if (cursor_ >= 0 && phase_cursor() < n - 1) {
    phase_cursor_ = phase_cursor() + 1;
    if (phase_cursor_ == n - 1) phase_cursor_ = -1;
    return finish(ok_status());
  }
  TS_TRY(step());
  phase_cursor_ = 0;
  return finish(ok_status());
}

Result<Histogram> Session::histogram(int n, int lane) const {
  if (lane < 0 || lane >= lane_count()) return make_error("no lane " + std::to_string(lane));
  if (n < 1 || n > 10'000'000) return make_error("histogram samples must be in 1..10000000");
  const Step* s = current_step(lane);
  if (!s) return make_error("no step yet: step the prefill first");
  if (s->forward->logits.empty()) {
    return make_error("this step's record holds no logits: set the record level to summary");
  }
  const std::vector<int> hist = history(lane, s->parent);
  // The settings that chose this step (a sampler changed mid-run left earlier steps to the old).
  const SamplerSettings& set = s->sampler ? *s->sampler : lanes_[lane].settings;
  const std::vector<float> probs = final_distribution(set, s->forward->logits, hist);
  const std::vector<int> draws =
      draw_many(probs, set.seed, static_cast<uint64_t>(s->index), n, 1);
  std::map<int, int> counts;
  for (int id : draws) ++counts[id];
  std::vector<std::pair<int, int>> sorted(counts.begin(), counts.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  Histogram h;
  h.n_samples = n;
  h.step = s->index;
  for (const auto& [id, c] : sorted) {
    h.ids.push_back(id);
    h.counts.push_back(c);
    h.p.push_back(id >= 0 && id < static_cast<int>(probs.size()) ? probs[id] : 0.0f);
  }
  return h;
}

}  // namespace ts
