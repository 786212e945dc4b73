// The progress log `tokenscope train` prints, read back as numbers (for `tokenscope plot-loss`):
// the train loss (EMA) per logged step, the validation loss where it was evaluated, tokens seen.
// Runs appended after --resume are joined: a `loaded ...: step N / M` line drops what an earlier
// run logged past step N, and a later line for the same step wins. Other lines are ignored.
#pragma once
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

struct TrainLogPoint {
  long step = 0;
  double loss = 0.0;  // training loss (EMA), nats/token
  double val = 0.0;   // validation loss in effect at this step; NaN before the first evaluation
  bool evaluated = false;  // val was computed at this step (it changed from the line before)
  double tokens = 0.0;     // tokens seen at this step; NaN when no `training ... x B x T` line says
};

struct TrainLog {
  std::vector<TrainLogPoint> points;  // ascending step
  long total_steps = 0;               // the M of the last `step N/M` line
  long tokens_per_step = 0;           // B x T of the last run, 0 when the log never said
  int runs = 0;                       // training runs seen (1 + resumes)
  std::vector<long> resumed_at;       // the step of each `loaded ...: step N` line
  double unigram = std::numeric_limits<double>::quiet_NaN();  // `unigram baseline loss X`

  // Tokens seen at `step` (piecewise linear over the runs' B x T), NaN when unknown.
  double tokens_at(double step) const;
  std::vector<double> steps() const;
  std::vector<double> losses() const;
  // Only the evaluated points: their steps and validation losses.
  std::vector<double> val_steps() const;
  std::vector<double> vals() const;

  struct Segment {  // tokens = tokens0 + (step - step0) * per_step, for step >= step0
    long step0 = 0;
    double tokens0 = 0.0;
    long per_step = 0;
  };
  std::vector<Segment> segments;
};

// Never fails: a text without step lines gives a log without points (the caller reports that).
TrainLog parse_train_log(std::string_view text);

}  // namespace ts
