// trace_view.h: what a trace recorded, step by step, for reading without the model.
#include "trace/trace_view.h"

#include <algorithm>

#include "base/utf8.h"

namespace ts {

namespace {

// A piece as one display-safe label, a space shown as "␣" as on the app's token chips.
std::string safe_piece(const std::string& bytes) {
  std::string out;
  for (char c : display_label(bytes, 64))
    out += c == ' ' ? std::string("\xE2\x90\xA3") : std::string(1, c);
  return out;
}

std::vector<TraceBar> bars(const Trace& t, const std::vector<Candidate>& cs, int chosen,
                           size_t top) {
  std::vector<TraceBar> out;
  for (const Candidate& c : cs) {
    if (!c.kept) continue;
    out.push_back(TraceBar{c.id, trace_piece_label(t, c.id), c.p, c.id == chosen});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const TraceBar& a, const TraceBar& b) { return a.p > b.p; });
  if (out.size() > top) out.resize(top);
  return out;
}

// Text for the page: display-safe line by line, newlines kept.
std::string safe_text(const std::string& text) {
  std::string shown;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n') {
      shown += display_label(text.substr(start, i - start), 100000);
      if (i < text.size()) shown += '\n';
      start = i + 1;
    }
  }
  return shown;
}

}  // namespace

std::string trace_piece_label(const Trace& t, int id) {
  auto it = t.pieces.find(id);
  return it == t.pieces.end() ? "#" + std::to_string(id) : safe_piece(it->second);
}

TraceStepView trace_step_view(const Trace& t, int lane, int step, size_t top) {
  TraceStepView v;
  std::string text;
  for (const std::string& p : t.prompt_pieces) text += p;
  if (lane < 0 || lane >= static_cast<int>(t.lanes.size())) {
    v.text_before = safe_text(text);
    return v;
  }
  const std::vector<TraceStep>& steps = t.lanes[lane].steps;
  v.lane = lane;
  v.n_steps = static_cast<int>(steps.size());
  if (steps.empty()) {
    v.text_before = safe_text(text);
    return v;
  }
  step = std::clamp(step, 0, v.n_steps - 1);
  v.step = step;
  for (int k = 0; k < step; ++k) text += steps[k].piece;
  v.text_before = safe_text(text);
  const TraceStep& s = steps[step];
  v.prefill = s.forward.phase == Phase::Prefill;
  v.chosen = safe_piece(s.piece);
  v.forced = s.forced;
  v.chosen_p = s.chosen_p;
  v.chosen_rank = s.chosen_rank + 1;
  v.greedy = s.sampling.draw.greedy;
  v.u = s.sampling.draw.u;
  v.raw_entropy = s.sampling.draw.raw_entropy;
  v.entropy = s.sampling.draw.entropy;
  if (s.stop != StopReason::None) v.stop = stop_reason_name(s.stop);
  v.raw = bars(t, s.sampling.raw, s.token, top);
  v.final_dist = bars(t, s.sampling.final_dist, s.token, top);
  for (const StageRecord& st : s.sampling.stages)
    v.stages.push_back(st.name + ": " + std::to_string(st.n_kept) + " kept");
  return v;
}

}  // namespace ts
