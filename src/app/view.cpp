// Implementation of the shared "what is on screen" helpers (see view.h).
// Reads the session only; never changes it.
#include "app/view.h"

#include <algorithm>

#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

int shown_lane(const Session& s, const Selection& sel) {
  if (!has_model(s) || lane_count(s) == 0) return 0;
  return std::clamp(sel.selected_lane, 0, lane_count(s) - 1);
}

const Step* shown_step(const Session& s, const Selection& sel) {
  if (!has_model(s) || lane_count(s) == 0 || s.cursor() < 0) return nullptr;
  return current_step(s, shown_lane(s, sel));
}

int shown_node(const Session& s, const Selection& sel) {
  if (!shown_step(s, sel)) return -1;
  const int lane = shown_lane(s, sel);
  const std::vector<int>& path = timeline(s, lane).path();
  if (path.empty()) return -1;
  // A lane that stopped early shows its last step (Session::current_step).
  const int i = std::min(s.cursor(), static_cast<int>(path.size()) - 1);
  return path[i];
}

bool outcome_hidden(const Session& s, const Selection& sel) {
  if (!sel.predict_then_reveal) return false;
  const int node = shown_node(s, sel);
  return node >= 0 && node != sel.revealed_node;
}

int shown_sequence_length(const Session& s, const Selection& sel) {
  if (!has_model(s) || lane_count(s) == 0) return 0;
  const int lane = shown_lane(s, sel);
  int n = static_cast<int>(prompt_tokens(s).size());
  if (const Step* st = current_step(s, lane)) n = st->position + 1;
  return n;
}

int shown_position(const Session& s, const Selection& sel) {
  const Step* st = shown_step(s, sel);
  if (!st || !st->forward) return -1;
  const int last_input = st->forward->first_pos + st->forward->n_positions - 1;
  if (sel.selected_position >= 0 && sel.selected_position <= last_input)
    return sel.selected_position;
  return last_input;
}

namespace {

// Index of the first phase matching the predicate, or -1.
template <class Pred>
int first_phase(const std::vector<PhaseItem>& phases, Pred pred) {
  for (size_t i = 0; i < phases.size(); ++i)
    if (pred(phases[i])) return static_cast<int>(i);
  return -1;
}

}  // namespace

bool phase_revealed(const Session& s, PhaseKind kind, int layer) {
  if (!has_model(s) || s.cursor() < 0) return false;
  const std::vector<PhaseItem> phases = ts::phases(s, 0);
  const int i = first_phase(phases, [&](const PhaseItem& p) {
    return p.kind == kind && (layer < 0 || p.layer < 0 || p.layer == layer);
  });
  return i < 0 || s.phase_cursor() >= i;
}

bool stage_revealed(const Session& s, int stage_index) {
  if (!has_model(s) || s.cursor() < 0) return false;
  const std::vector<PhaseItem> phases = ts::phases(s, 0);
  const int i = first_phase(phases, [&](const PhaseItem& p) {
    return p.kind == PhaseKind::SamplerStage && p.stage == stage_index;
  });
  return i < 0 || s.phase_cursor() >= i;
}

bool stepping_into(const Session& s) {
  if (!has_model(s) || s.cursor() < 0) return false;
  return s.phase_cursor() < static_cast<int>(phases(s, 0).size()) - 1;
}

}  // namespace ts
