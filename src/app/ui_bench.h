// `tokenscope bench --ui`: how long the app takes to build one frame (layout, every panel, the
// commands) with every panel open and the model's whole context filled, measured headless (an
// ImGui context without a window: the CPU side of a frame, which is what the app controls; the
// GPU draws the resulting vertex lists). Printed as median / p90 / max against the 8 ms budget.
#pragma once
#include <ostream>
#include <string>

namespace ts {

struct UiBenchOptions {
  std::string model;      // a GGUF, or a llama2.c checkpoint with `tokenizer`
  std::string tokenizer;
  int width = 1600;       // the virtual window
  int height = 900;
  int frames = 300;       // measured frames (after 20 warm-up frames)
  float font_size = 20.0f;
  bool json = false;
};

// Returns a process exit code: 0 measured (whatever the result), 1 on an error (printed to err).
int run_ui_bench(const UiBenchOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace ts
