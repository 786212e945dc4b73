// Read-only Session queries: steps at the cursor, stop state, the lanes' token sequences, the
// first divergence between lanes and the memory the records hold.
#include <algorithm>
#include <set>

#include "session/session.h"

namespace ts {

int Session::max_path_length() const {
  int n = 0;
  for (const Lane& l : lanes_) n = std::max(n, l.timeline.path_length());
  return n;
}

const Step* Session::step_at(int lane, int step_index) const {
  if (lane < 0 || lane >= lane_count()) return nullptr;
  return lanes_[lane].timeline.at(step_index);
}

const Step* Session::current_step(int lane) const {
  if (lane < 0 || lane >= lane_count() || cursor_ < 0) return nullptr;
  return lanes_[lane].timeline.at(lane_cursor(lane));
}

StopReason Session::stop_reason(int lane) const {
  const Step* s = current_step(lane);
  return s ? s->stop : StopReason::None;
}

bool Session::all_stopped() const {
  if (cursor_ < 0) return false;
  for (int i = 0; i < lane_count(); ++i) {
    if (lanes_[i].timeline.path_length() - 1 > cursor_ || !lane_done(i)) return false;
  }
  return true;
}

bool Session::can_step() const { return require_ready().ok() && !all_stopped(); }

std::vector<PathToken> Session::path_tokens(int lane, bool up_to_cursor) const {
  std::vector<PathToken> out;
  if (lane < 0 || lane >= lane_count() || !loaded_) return out;
  int prev = -1;
  for (size_t i = 0; i < prompt_tokens_.size(); ++i) {
    PathToken p;
    p.id = prompt_tokens_[i];
    p.position = static_cast<int>(i);
    p.is_prompt = true;
    p.piece = piece_bytes(p.id, prev);
    p.display = piece_display(p.id);
    prev = p.id;
    out.push_back(std::move(p));
  }
  const Timeline& t = lanes_[lane].timeline;
  const int end = up_to_cursor ? lane_cursor(lane) : t.path_length() - 1;
  for (int k = 0; k <= end; ++k) {
    const Step& s = *t.at(k);
    PathToken p;
    p.id = s.token;
    p.position = s.position;
    p.step = s.index;
    p.forced = s.forced;
    p.piece = s.piece;
    p.display = s.display;
    p.p = s.chosen_p;
    p.rank = s.chosen_rank;
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<int> Session::sequence(int lane, bool up_to_cursor) const {
  std::vector<int> ids;
  if (lane < 0 || lane >= lane_count()) return ids;
  ids = prompt_tokens_;
  const Timeline& t = lanes_[lane].timeline;
  const int end = up_to_cursor ? lane_cursor(lane) : t.path_length() - 1;
  for (int k = 0; k <= end; ++k) ids.push_back(t.at(k)->token);
  return ids;
}

std::string Session::generated_text(int lane, bool up_to_cursor) const {
  std::string text;
  if (lane < 0 || lane >= lane_count()) return text;
  const Timeline& t = lanes_[lane].timeline;
  const int end = up_to_cursor ? lane_cursor(lane) : t.path_length() - 1;
  for (int k = 0; k <= end; ++k) text += t.at(k)->piece;
  return text;
}

int Session::first_divergence(int a, int b) const {
  if (a < 0 || b < 0 || a >= lane_count() || b >= lane_count()) return -1;
  const Timeline& ta = lanes_[a].timeline;
  const Timeline& tb = lanes_[b].timeline;
  const int n = std::min(ta.path_length(), tb.path_length());
  for (int k = 0; k < n; ++k) {
    if (ta.at(k)->token != tb.at(k)->token) return k;
  }
  return -1;
}

int Session::first_divergence() const {
  int best = -1;
  for (int b = 1; b < lane_count(); ++b) {
    for (int a = 0; a < b; ++a) {
      const int d = first_divergence(a, b);
      if (d >= 0 && (best < 0 || d < best)) best = d;
    }
  }
  return best;
}

size_t Session::record_bytes() const {
  std::set<const void*> seen;
  size_t n = 0;
  for (const Lane& l : lanes_) {
    for (const Step& s : l.timeline.nodes()) {
      n += sizeof(Step) + s.piece.capacity() + s.display.capacity() +
           s.children.capacity() * sizeof(int);
      n += (s.sampling.raw.capacity() + s.sampling.final_dist.capacity()) * sizeof(Candidate);
      for (const StageRecord& r : s.sampling.stages) {
        n += sizeof(r) + r.name.capacity() + r.top.capacity() * sizeof(Candidate);
      }
      if (s.forward && seen.insert(s.forward.get()).second) n += s.forward->memory_bytes();
      if (s.kv_rows && seen.insert(s.kv_rows.get()).second) n += s.kv_rows->memory_bytes();
    }
  }
  return n;
}

}  // namespace ts
