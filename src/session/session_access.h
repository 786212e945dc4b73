// One-line reads over a Session: the model, the prompt, the generation settings and a lane's
// parts, spelled as free functions so the class itself keeps only commands and core queries.
#pragma once
#include <string>
#include <vector>

#include "session/session.h"

namespace ts {

inline bool has_model(const Session& s) { return s.loaded() != nullptr; }
// The three below require has_model(s).
inline const Model& model(const Session& s) { return s.loaded()->model; }
inline const ModelConfig& config(const Session& s) { return s.loaded()->model.config; }
inline const ModelFileInfo& model_info(const Session& s) { return s.loaded()->info; }

inline const std::string& prompt_text(const Session& s) { return s.prompt().text; }
inline const std::vector<int>& prompt_tokens(const Session& s) { return s.prompt().tokens; }
inline int prompt_cut(const Session& s) { return s.prompt().cut; }

inline RecordLevel record_level(const Session& s) { return s.generation().record_level; }
inline int max_tokens(const Session& s) { return s.generation().max_tokens; }
inline const std::vector<std::string>& stop_strings(const Session& s) {
  return s.generation().stops;
}

inline bool is_playing(const Session& s) { return s.playback().playing; }
// Asks the command running now (on another thread) to stop; see Session::progress().
inline void request_cancel(const Session& s) { s.progress().cancel.store(true); }

// Lanes: 0 <= lane < lane_count(s) for the accessors that take one.
inline int lane_count(const Session& s) { return static_cast<int>(s.lanes().size()); }
inline const SamplerSettings& settings(const Session& s, int lane) {
  return s.lanes()[lane].settings;
}
inline const Timeline& timeline(const Session& s, int lane) { return s.lanes()[lane].timeline; }
inline std::vector<BranchInfo> branches(const Session& s, int lane) {
  return s.lanes()[lane].timeline.branches();
}
inline int path_length(const Session& s, int lane) {
  return s.lanes()[lane].timeline.path_length();
}
inline int kv_length(const Session& s, int lane) { return s.lanes()[lane].kv.length(); }

}  // namespace ts
