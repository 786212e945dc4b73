// Session play (steps paced by tick) and the phase cursor of "step into" (the phases
// themselves and the walk are in phase_walk.cpp).
#include <cmath>

#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session.h"

namespace ts {

namespace {

constexpr int kMaxStepsPerTick = 256;  // a long stall (debugger, sleep) does not run away

}  // namespace

Status Session::play(double tokens_per_second) {
  play_accum_ = 0.0;
  if (tokens_per_second == 0.0) {  // pause
    play_.playing = false;
    return finish(ok_status());
  }
  if (!(tokens_per_second > 0.0) || !std::isfinite(tokens_per_second)) {
    play_.playing = false;
    return finish(make_error("play speed must be a positive number of tokens per second"));
  }
  play_.rate = tokens_per_second;
  play_.playing = can_step(*this);
  if (!play_.playing) return finish(make_error("nothing to play: every lane has stopped"));
  return finish(ok_status());
}

int Session::tick(double dt_seconds) {
  if (!play_.playing || !(dt_seconds > 0.0) || !std::isfinite(dt_seconds)) return 0;
  play_accum_ += dt_seconds * play_.rate;
  int steps = 0;
  while (play_accum_ >= 1.0 && play_.playing) {
    play_accum_ -= 1.0;
    if (!step().ok()) {  // the step's error stays in last_error()
      play_.playing = false;
      play_accum_ = 0.0;
      break;
    }
    ++steps;
    if (all_stopped(*this)) {
      play_.playing = false;
      play_accum_ = 0.0;
      break;
    }
    if (steps >= kMaxStepsPerTick) {
      play_accum_ = 0.0;
      break;
    }
  }
  return steps;
}

int Session::phase_cursor() const {
  const int n = static_cast<int>(phases(*this, 0).size());
  if (phase_cursor_ < 0 || phase_cursor_ >= n) return n - 1;
  return phase_cursor_;
}

Status Session::set_phase(int phase_index) {
  const int n = static_cast<int>(phases(*this, 0).size());
  if (phase_index < 0 || phase_index >= n) {
    return finish(make_error("phase " + std::to_string(phase_index) + " is outside 0.." +
                             std::to_string(n - 1)));
  }
  phase_cursor_ = phase_index == n - 1 ? -1 : phase_index;
  return finish(ok_status());
}

}  // namespace ts
