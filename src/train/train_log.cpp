// Reading a training progress log back (see train_log.h). Line formats are those printed by
// cli/cmd_train.cpp; a line that matches none of them (samples, checkpoints, errors) is skipped.
#include "train/train_log.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace ts {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// `step N/M | loss L | val V | ...`: false when the line is not one.
bool parse_step_line(const std::string& line, long& step, long& total, double& loss, double& val) {
  char v[64] = {0};
  if (std::sscanf(line.c_str(), "step %ld/%ld | loss %lf | val %63s", &step, &total, &loss, v) != 4)
    return false;
  if (step < 0 || !std::isfinite(loss)) return false;
  if (std::string_view(v) == "-") {
    val = kNaN;
  } else {
    char* end = nullptr;
    val = std::strtod(v, &end);
    if (end == v || !std::isfinite(val)) return false;
  }
  return true;
}

}  // namespace

double TrainLog::tokens_at(double step) const {
  if (segments.empty()) return kNaN;
  const Segment* s = &segments.front();
  for (const Segment& g : segments) {
    if (g.step0 <= step) s = &g;
  }
  return s->tokens0 + (step - static_cast<double>(s->step0)) * static_cast<double>(s->per_step);
}

std::vector<double> TrainLog::steps() const {
  std::vector<double> r;
  for (const TrainLogPoint& p : points) r.push_back(static_cast<double>(p.step));
  return r;
}

std::vector<double> TrainLog::losses() const {
  std::vector<double> r;
  for (const TrainLogPoint& p : points) r.push_back(p.loss);
  return r;
}

std::vector<double> TrainLog::val_steps() const {
  std::vector<double> r;
  for (const TrainLogPoint& p : points)
    if (p.evaluated) r.push_back(static_cast<double>(p.step));
  return r;
}

std::vector<double> TrainLog::vals() const {
  std::vector<double> r;
  for (const TrainLogPoint& p : points)
    if (p.evaluated) r.push_back(p.val);
  return r;
}

TrainLog parse_train_log(std::string_view text) {
  TrainLog log;
  log.unigram = kNaN;
  long resume_step = 0;  // where the run being read started
  // Drops every point at or after `step`; the validation loss in effect is then the last kept one.
  auto truncate_from = [&](long step) {
    while (!log.points.empty() && log.points.back().step >= step) log.points.pop_back();
  };
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string line(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();

    long step = 0, total = 0;
    double loss = 0.0, val = 0.0;
    if (parse_step_line(line, step, total, loss, val)) {
      truncate_from(step);  // a restarted counter: the later run's lines win
      const double prev = log.points.empty() ? kNaN : log.points.back().val;
      TrainLogPoint p;
      p.step = step;
      p.loss = loss;
      p.val = val;
      p.evaluated = !std::isnan(val) && (std::isnan(prev) || val != prev);
      log.points.push_back(p);
      log.total_steps = total;
      continue;
    }
    if (starts_with(line, "loaded ")) {
      const size_t at = line.rfind(": step ");
      long n = 0, m = 0;
      if (at != std::string::npos &&
          std::sscanf(line.c_str() + at, ": step %ld / %ld", &n, &m) == 2) {
        truncate_from(n + 1);
        resume_step = n;
        log.resumed_at.push_back(n);
      }
      continue;
    }
    long steps = 0;
    int batch = 0, ctx = 0;
    if (std::sscanf(line.c_str(), "training %ld steps x %d x %d tokens", &steps, &batch, &ctx) ==
        3) {
      ++log.runs;
      if (batch <= 0 || ctx <= 0) continue;
      const long per = static_cast<long>(batch) * ctx;
      const double tokens0 = log.segments.empty() ? static_cast<double>(resume_step) * per
                                                  : log.tokens_at(static_cast<double>(resume_step));
      while (!log.segments.empty() && log.segments.back().step0 >= resume_step)
        log.segments.pop_back();
      log.segments.push_back({resume_step, tokens0, per});
      log.tokens_per_step = per;
      resume_step = 0;  // a run appended without --resume starts from step 0
      continue;
    }
    if (const size_t at = line.find("unigram baseline loss "); at != std::string::npos) {
      double u = 0.0;
      if (std::sscanf(line.c_str() + at, "unigram baseline loss %lf", &u) == 1 && std::isfinite(u))
        log.unigram = u;
    }
  }
  if (log.runs == 0 && !log.points.empty()) log.runs = 1;
  for (TrainLogPoint& p : log.points) p.tokens = log.tokens_at(static_cast<double>(p.step));
  return log;
}

}  // namespace ts
