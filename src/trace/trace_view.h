// The read-only view of a trace whose model file is absent: for one lane and step, what the
// trace recorded, ready to show (the text so far, the chosen token, its probability and rank, the
// random draw, the raw and final candidates with their pieces, the sampler stages). Nothing is
// computed: every number comes from the trace. Labels are display-safe (control characters and
// invalid UTF-8 escaped); an id the trace has no piece for shows as "#id". No UI code here.
#pragma once
#include <string>
#include <vector>

#include "trace/trace_json.h"

namespace ts {

struct TraceBar {
  int id = -1;
  std::string label;  // the piece, display-safe, a space as "␣"; "#id" without one
  float p = 0;
  bool chosen = false;
};

struct TraceStepView {
  int lane = 0, step = 0, n_steps = 0;  // n_steps: the lane's recorded steps
  bool prefill = false;
  std::string text_before;  // prompt + tokens chosen before this step (display-safe)
  std::string chosen;       // the chosen token's label
  bool forced = false;
  float chosen_p = 0;
  int chosen_rank = 0;  // 1-based, as the app shows it
  bool greedy = false;
  double u = 0;
  float raw_entropy = 0, entropy = 0;     // bits
  std::string stop;                       // why the lane stopped after this step ("" if it did not)
  std::vector<TraceBar> raw, final_dist;  // at most `top` each, by probability
  std::vector<std::string> stages;        // "top-k 40: 40 kept", in chain order
};

// The label of `id`: its piece from the trace (display-safe), else "#id".
std::string trace_piece_label(const Trace& t, int id);
// The view of `lane`'s step `step` (clamped to the recorded steps; a lane with no steps gives
// n_steps 0 and the prompt alone).
TraceStepView trace_step_view(const Trace& t, int lane, int step, size_t top = 10);

}  // namespace ts
