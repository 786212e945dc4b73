// Command-line options of the app: --model FILE, --tokenizer FILE, --prompt TEXT, --script FILE,
// --lesson FILE, --screenshot FILE, --size WxH, --font-size N, --theme light|dark|projector,
// --fullscreen, --no-settings, --poll ADDR:PORT, --poll-code NNNN.
// Parsing only; a bad option is an error naming it (the caller prints it and exits 2).
#pragma once
#include <string>

#include "base/error.h"

namespace ts {

struct AppOptions {
  std::string model;
  std::string tokenizer;
  std::string prompt;
  bool has_prompt = false;
  std::string script;
  std::string lesson;  // --lesson FILE: open this lesson at its first page
  std::string screenshot;
  int width = 0;  // 0: fit the screen
  int height = 0;
  float font_size = 0;        // 0: from the settings (default 20)
  std::string theme;          // "" : from the settings
  bool fullscreen = false;    // --fullscreen: the whole screen, no window frame (F11 toggles)
  bool use_settings = true;   // --no-settings: neither read nor write the settings file
  std::string poll_address;   // --poll ADDR:PORT: start the class poll's server there ("" off)
  std::string poll_code;      // --poll-code NNNN: its class code ("" a random one)
  std::string settings_path;  // "" : default_settings_path()
  std::string source_dir;     // for the default model lookup (the build's source tree)
  std::string exe_path;       // argv[0]
  bool synchronous = false;   // tests: run every command to completion inside frame()
  bool help = false;
};

Result<AppOptions> parse_app_options(int argc, char** argv);
const char* app_usage();

}  // namespace ts
