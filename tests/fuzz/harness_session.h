// What the app does with a model a hostile file produced: load it into a Session, set a few odd
// prompts, step, rewind and force, and check what a class would see: the KV length equals the
// position after every command, errors are one clean line, and every shown label is valid UTF-8.
// Used by the model-file fuzz harnesses once a file has passed the loaders.
#pragma once
#include <string>
#include <utility>

#include "fuzz/harness_common.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts::fuzz {

inline std::string check_session_view(const Session& s) {
  for (int lane = 0; lane < lane_count(s); ++lane) {
    const Step* cur = current_step(s, lane);
    const int want = cur ? static_cast<int>(prompt_tokens(s).size()) + cur->index : 0;
    if (kv_length(s, lane) != want) {
      return "KV length " + std::to_string(kv_length(s, lane)) + " != position " +
             std::to_string(want);
    }
    for (const PathToken& t : path_tokens(s, lane, false)) {
      if (std::string bad = check_shown(t.display, "token label"); !bad.empty()) return bad;
    }
    // Generated text may hold newlines and partial UTF-8; what the app shows is its sanitised form.
    if (!utf8_valid(utf8_sanitize(generated_text(s, lane)))) return "sanitised text is not UTF-8";
  }
  return "";
}

// Runs `lm` through a session. Errors from commands are allowed (a model may be unusable), but
// they must be clean, and the session must stay consistent after them.
inline std::string exercise_session(LoadedModel lm) {
  Session s;
  Status st = s.set_model(std::move(lm));
  if (!st.ok()) return check_error(st.error(), "");
  const char* prompts[] = {"Once", "", "\xF0\x9F\x98\x80 e\xCC\x81\xFF\x00x"};
  for (const char* p : prompts) {
    const std::string text = p == prompts[2] ? std::string(p, 12) : std::string(p);
    st = s.set_prompt(text);
    if (!st.ok()) {
      if (std::string bad = check_error(st.error(), ""); !bad.empty()) return bad;
      continue;
    }
    for (int k = 0; k < 3; ++k) {
      st = s.step();
      if (!st.ok()) {
        if (std::string bad = check_error(st.error(), ""); !bad.empty()) return bad;
        break;
      }
      if (std::string bad = check_session_view(s); !bad.empty()) return bad;
    }
    if (s.cursor() >= 0) {
      if (back(s).ok()) {
        st = s.force(config(s).vocab_size - 1);
        if (!st.ok()) {
          if (std::string bad = check_error(st.error(), ""); !bad.empty()) return bad;
        }
      }
      if (std::string bad = check_session_view(s); !bad.empty()) return bad;
    }
  }
  return "";
}

}  // namespace ts::fuzz
