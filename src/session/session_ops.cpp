// Commands composed of Session's own (session_ops.h).
#include "session/session_ops.h"

#include <utility>

#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {

Status first(Session& s) { return s.seek(-1); }

Status last(Session& s) { return s.seek(max_path_length(s) - 1); }

Status back(Session& s) {
  if (!has_model(s)) return make_error("no model loaded");
  if (s.cursor() < 0) return make_error("already at the start: nothing computed yet");
  return s.seek(s.cursor() - 1);
}

Status pause(Session& s) { return s.play(0.0); }

Status set_record_level(Session& s, RecordLevel level) {
  GenerationSettings g = s.generation();
  g.record_level = level;
  return s.set_generation(g);
}

Status set_max_tokens(Session& s, int max_new_tokens) {
  GenerationSettings g = s.generation();
  g.max_tokens = max_new_tokens;
  return s.set_generation(g);
}

Status set_stop_strings(Session& s, std::vector<std::string> stops) {
  GenerationSettings g = s.generation();
  g.stops = std::move(stops);
  return s.set_generation(g);
}

}  // namespace ts
