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
// Fields missing from the JSON keep their current values in ui / ss; wrong types are an error.
Status settings_from_json(const std::string& text, UiState& ui, SessionSettings& ss);
Status save_settings(const std::string& path, const UiState& ui, const SessionSettings& ss);
// A missing file is not an error (first run): returns ok and changes nothing.
Status load_settings(const std::string& path, UiState& ui, SessionSettings& ss);

}  // namespace ts
