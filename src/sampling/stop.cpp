// Stop-string matching over the generated text and the stop decision with its precedence
// (stop.h). Pure functions: no buffering of pieces, so rewind is just a shorter text.
#include "sampling/stop.h"

#include <algorithm>

namespace ts {

const char* stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::None: return "none";
    case StopReason::Eos: return "eos";
    case StopReason::StopString: return "stop string";
    case StopReason::MaxTokens: return "max tokens";
    case StopReason::ContextFull: return "context full";
  }
  return "?";
}

StopMatch check_stop(std::string_view text, const std::vector<std::string>& stops) {
  StopMatch m;
  for (size_t i = 0; i < stops.size(); ++i) {
    const std::string& s = stops[i];
    if (s.empty()) continue;
    const size_t pos = text.find(s);
    if (pos != std::string_view::npos && (!m.matched || pos < m.match_pos)) {
      m.matched = true;
      m.stop_index = static_cast<int>(i);
      m.match_pos = pos;
    }
  }
  if (m.matched) return m;
  for (size_t i = 0; i < stops.size(); ++i) {
    const std::string_view s = stops[i];
    // Longest proper prefix of s that the text ends with.
    for (size_t len = std::min(s.size() - (s.empty() ? 0 : 1), text.size()); len > 0; --len) {
      if (text.substr(text.size() - len) == s.substr(0, len)) {
        if (static_cast<int>(len) > m.partial_bytes) {
          m.partial_index = static_cast<int>(i);
          m.partial_bytes = static_cast<int>(len);
        }
        break;
      }
    }
  }
  return m;
}

StopReason stop_reason(const StopInputs& in) {
  if (in.eos_id >= 0 && in.chosen_id == in.eos_id) return StopReason::Eos;
  if (in.stop_string) return StopReason::StopString;
  if (in.max_tokens > 0 && in.n_generated >= in.max_tokens) return StopReason::MaxTokens;
  if (in.n_ctx > 0 && in.position >= in.n_ctx - 1) return StopReason::ContextFull;
  return StopReason::None;
}

}  // namespace ts
