// Shared pieces of the CLI commands: the common options (spelled the same in every command),
// argument parsing with CLI11 (help to `out`, a one-line reason to `err`), and setting up a
// Session from the options. Each command lives in its own cmd_*.cpp file.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "engine/record.h"
#include "sampling/sampler.h"
#include "session/session.h"

namespace ts::cli {

struct ModelOptions {
  std::string model;      // GGUF, or a llama2.c checkpoint (then tokenizer is needed)
  std::string tokenizer;  // llama2.c tokenizer.bin (or a GGUF to take the vocabulary from)
};

struct GenOptions {
  std::string prompt = "Once upon a time";
  // A user message (and an optional system message) rendered through the model's chat template
  // as the prompt, instead of --prompt (session/chat_prompt.h).
  std::string chat, system;
  float temperature = 1.0f;
  int top_k = 0;
  float top_p = 1.0f;
  float min_p = 0.0f;
  uint64_t seed = 42;
  int max_tokens = 64;
  std::vector<std::string> stops;
  std::string record = "summary";
  std::string lanes;  // "greedy; temp=0.8" (empty: one lane from the sampler options)
  // Any stage by its spec keys ("typical-p=0.9 xtc-p=0.5"), over the flags above; every lane's
  // defaults.
  std::string sampler;
  std::string ablate;   // "L0.H3,L1.mlp=0.5" (engine/intervention.h); empty: none
  int ablate_step = 0;  // the step from which every lane runs with it
};

void add_model_options(CLI::App& app, ModelOptions& m);
void add_generation_options(CLI::App& app, GenOptions& g, bool with_lanes);

// Parses args (args[0] = the command's name). Returns -1 to go on, otherwise the exit code to
// return: 0 after printing help, 2 after a parse error (one line on err).
int parse_args(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err);
// "tokenscope <cmd>: <message>" on one line, returns 1.
int fail(std::ostream& err, const std::string& cmd, const std::string& message);

// The source tree (TS_SOURCE_DIR when the build defines it for ts_cli, else ""): one of the
// places the default model and the lessons are looked for.
const char* source_dir();

// --model, or the default model (an error says where it was searched).
Result<std::string> resolve_model_path(const ModelOptions& m);
Result<RecordLevel> parse_record_level(const std::string& s);
// The lanes: --lanes SPEC, or one lane from --temperature/--top-k/--top-p/--min-p/--seed and
// --sampler SPEC.
Result<std::vector<SamplerSettings>> lane_settings(const GenOptions& g);
// Loads the model and applies prompt, record level, limits, stop strings and lanes; checks
// --ablate against the model.
Status setup_session(Session& s, const ModelOptions& m, const GenOptions& g);
// --ablate as an intervention from --ablate-step on (empty when not given).
Result<Ablation> ablation_option(const GenOptions& g);
// One step of every lane; the step at --ablate-step is then run again with --ablate (a branch
// of each lane's tree, as the session command `ablate` makes).
Status step_with_ablation(Session& s, const GenOptions& g);

// Text from a file (token pieces, generated text, names) as it may reach a terminal: control
// characters other than newline and tab (ESC above all) and C1 controls shown as \xNN / \uNNNN.
std::string terminal_safe(std::string_view text);
// Quote a display piece for terminal output: 'text'.
std::string quoted(const std::string& display);

}  // namespace ts::cli
