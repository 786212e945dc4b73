// Read-only queries over a Session's current paths (path_queries.h): steps at the cursor, stop
// state, the lanes' token sequences, the first divergence between lanes and the memory the
// records hold.
#include "session/path_queries.h"

#include <algorithm>
#include <set>

#include "session/session_access.h"

namespace ts {

int max_path_length(const Session& s) {
  int n = 0;
  for (const Lane& l : s.lanes()) n = std::max(n, l.timeline.path_length());
  return n;
}

const Step* step_at(const Session& s, int lane, int step_index) {
  if (lane < 0 || lane >= lane_count(s)) return nullptr;
  return timeline(s, lane).at(step_index);
}

int lane_cursor(const Session& s, int lane) {
  return std::min(s.cursor(), path_length(s, lane) - 1);
}

const Step* current_step(const Session& s, int lane) {
  if (lane < 0 || lane >= lane_count(s) || s.cursor() < 0) return nullptr;
  return timeline(s, lane).at(lane_cursor(s, lane));
}

StopReason stop_reason(const Session& s, int lane) {
  const Step* st = current_step(s, lane);
  return st ? st->stop : StopReason::None;
}

bool all_stopped(const Session& s) {
  if (s.cursor() < 0) return false;
  for (const Lane& l : s.lanes()) {
    const Timeline& t = l.timeline;
    const int n = t.path_length();
    if (n - 1 > s.cursor() || n == 0 || t.at(n - 1)->stop == StopReason::None) return false;
  }
  return true;
}

bool can_step(const Session& s) {
  return has_model(s) && !prompt_tokens(s).empty() && !all_stopped(s);
}

std::string piece_bytes(const Session& s, int id, int prev) {
  const Tokenizer& tok = s.tokenizer();
  if (id >= 0 && id < tok.vocab_size()) return tok.token_bytes(id, prev);
  return "<id " + std::to_string(id) + ">";
}

std::string piece_display(const Session& s, int id) {
  const Tokenizer& tok = s.tokenizer();
  if (id >= 0 && id < tok.vocab_size()) return tok.display_piece(id);
  return "<id " + std::to_string(id) + ">";
}

std::vector<int> history(const Session& s, int lane, int parent) {
  const Timeline& t = timeline(s, lane);
  std::vector<int> gen;
  for (int id = parent; id >= 0; id = t.node(id).parent) gen.push_back(t.node(id).token);
  std::vector<int> h = prompt_tokens(s);
  h.insert(h.end(), gen.rbegin(), gen.rend());
  return h;
}

SampleOptions sample_options(const Session& s, int lane, int parent) {
  SampleOptions so;
  if (parent >= 0) so.previous = &timeline(s, lane).node(parent).sampling;
  if (has_model(s)) {
    so.text.pieces = s.tokenizer().all_token_bytes();
    so.text.eos_id = s.tokenizer().eos_id();
  }
  so.text.start = prompt_tokens(s).size();
  return so;
}

std::vector<PathToken> path_tokens(const Session& session, int lane, bool up_to_cursor) {
  std::vector<PathToken> out;
  if (lane < 0 || lane >= lane_count(session) || !has_model(session)) return out;
  const std::vector<int>& prompt = prompt_tokens(session);
  int prev = -1;
  for (size_t i = 0; i < prompt.size(); ++i) {
    PathToken p;
    p.id = prompt[i];
    p.position = static_cast<int>(i);
    p.is_prompt = true;
    p.piece = piece_bytes(session, p.id, prev);
    p.display = piece_display(session, p.id);
    prev = p.id;
    out.push_back(std::move(p));
  }
  const Timeline& t = timeline(session, lane);
  const int end = up_to_cursor ? lane_cursor(session, lane) : t.path_length() - 1;
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

std::vector<int> sequence(const Session& s, int lane, bool up_to_cursor) {
  std::vector<int> ids;
  if (lane < 0 || lane >= lane_count(s)) return ids;
  ids = prompt_tokens(s);
  const Timeline& t = timeline(s, lane);
  const int end = up_to_cursor ? lane_cursor(s, lane) : t.path_length() - 1;
  for (int k = 0; k <= end; ++k) ids.push_back(t.at(k)->token);
  return ids;
}

std::string generated_text(const Session& s, int lane, bool up_to_cursor) {
  std::string text;
  if (lane < 0 || lane >= lane_count(s)) return text;
  const Timeline& t = timeline(s, lane);
  const int end = up_to_cursor ? lane_cursor(s, lane) : t.path_length() - 1;
  for (int k = 0; k <= end; ++k) text += t.at(k)->piece;
  return text;
}

double sum_log_prob(const Session& s, int lane, bool up_to_cursor) {
  double sum = 0;
  if (lane < 0 || lane >= lane_count(s)) return sum;
  const Timeline& t = timeline(s, lane);
  const int end = up_to_cursor ? lane_cursor(s, lane) : t.path_length() - 1;
  for (int k = 0; k <= end; ++k) sum += t.at(k)->raw_log_p;
  return sum;
}

int first_divergence(const Session& s, int a, int b) {
  if (a < 0 || b < 0 || a >= lane_count(s) || b >= lane_count(s)) return -1;
  const Timeline& ta = timeline(s, a);
  const Timeline& tb = timeline(s, b);
  const int n = std::min(ta.path_length(), tb.path_length());
  for (int k = 0; k < n; ++k) {
    if (ta.at(k)->token != tb.at(k)->token) return k;
  }
  return -1;
}

int first_divergence(const Session& s) {
  int best = -1;
  for (int b = 1; b < lane_count(s); ++b) {
    for (int a = 0; a < b; ++a) {
      const int d = first_divergence(s, a, b);
      if (d >= 0 && (best < 0 || d < best)) best = d;
    }
  }
  return best;
}

size_t record_bytes(const Session& session) {
  std::set<const void*> seen;
  size_t n = 0;
  for (const Lane& l : session.lanes()) {
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
