// Settings remembered between runs: the persisted part of UiState (font size, theme, panels,
// selections, distribution options) and the last session's model, prompt, sampler lanes,
// limits and record level, as one small JSON file in $XDG_CONFIG_HOME/tokenscope (or
// ~/.config/tokenscope). Reading a damaged file is an error the app shows, never a crash.
#pragma once
#include <string>
#include <vector>

#include "app/ui_state.h"
#include "base/error.h"
#include "engine/record.h"
#include "sampling/sampler.h"

namespace ts {

class Session;

struct SessionSettings {
  std::string model_path;
  std::string tokenizer_path;
  std::string prompt;
  bool has_prompt = false;
  RecordLevel record_level = RecordLevel::Full;
  int max_tokens = 64;
  std::vector<std::string> stops;
  std::vector<SamplerSettings> lanes;  // empty: the session's default single lane
};

// The settings file path ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string default_settings_path();
// What the session holds now (model path, prompt, lanes, ...). Requires an idle session.
SessionSettings capture_session_settings(const Session& s);

std::string settings_to_json(const UiState& ui, const SessionSettings& ss);
// Fields missing from the JSON keep their current values in ui / ss; a field of the wrong type is
// skipped (the others are still read) and the result is an error naming it.
Status settings_from_json(const std::string& text, UiState& ui, SessionSettings& ss);
Status save_settings(const std::string& path, const UiState& ui, const SessionSettings& ss);
// Writes atomically, only over a regular file (through a symlink: its target) or a new one.
// A missing file is not an error (first run): returns ok and changes nothing. A damaged file
// (unparseable, a field of the wrong type, too large) fills what it can (the prompt is searched
// for even when the JSON does not parse), is renamed to "<path>.bad-YYYYMMDD-HHMMSS" so the next
// save cannot destroy it, and gives an error saying so (shown on screen and on stderr). A path
// that is not a regular file (a device, a directory) is an error and is never read or written.
Status load_settings(const std::string& path, UiState& ui, SessionSettings& ss);

}  // namespace ts
