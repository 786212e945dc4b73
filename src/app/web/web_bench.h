// The in-page speed check of the web build: how many steps per second the page takes on the
// default model, measured inside the page the way a student clicks Step (Session::step at the
// app's default record level and sampler; also at record summary), next to the bare forward
// (record off, argmax).
#pragma once
#include <string>

namespace ts {

struct WebBench {
  std::string model;
  std::string error;         // "" when measured
  int steps = 0;             // session steps timed in the best round
  double seconds = 0;        // of that round
  double steps_per_s = 0;    // best of five rounds, the app's default record (full)
  double summary_steps_per_s = 0;  // the same at record summary (no attention, no logit lens)
  double forward_per_s = 0;  // bare decode passes per second, best of five rounds
};

WebBench run_web_bench(const std::string& model_path);

}  // namespace ts
