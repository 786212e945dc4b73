// Soak: thousands of random but seeded commands on one Session (step / rewind / force / switch
// lane / switch branch, plus lane and sampler changes at their limits), checking after every
// command that each lane's KV cache equals its path, and every so often that a fresh session
// replaying each lane's path (same forced tokens) reproduces it bit for bit. Memory stays bounded:
// when the records pass a budget the prompt is set again (a reset); RSS is sampled and reported.
// The engine of `tokenscope bench --soak N`; prints nothing (progress goes to a callback).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/error.h"
#include "session/session.h"

namespace ts {

enum class SoakOp { Step, Rewind, Force, Lane, Branch, Reset };
inline constexpr int kSoakOpCount = 6;
const char* soak_op_name(SoakOp op);  // "step", "rewind", "force", "lane", "branch", "reset"

struct SoakReport {
  int iterations = 0;                    // commands run
  std::array<int, kSoakOpCount> ops{};   // commands per SoakOp
  int refused = 0;                       // commands that returned an error (allowed, checked)
  int replays = 0;                       // lane paths replayed in a fresh session and compared
  int replayed_steps = 0;
  int max_nodes = 0;                     // largest timeline tree (nodes, all lanes)
  size_t record_bytes_peak = 0;
  size_t rss_start = 0, rss_peak = 0, rss_end = 0;  // resident set size, bytes (0: unknown)
  std::vector<size_t> rss_after_reset;   // RSS right after each reset (a creeping one leaks)
  double seconds = 0;
  std::string model;                     // the model file soaked ("" for a model in memory)
  std::vector<std::string> failures;     // invariant violations (empty: the soak passed)
  bool ok() const { return failures.empty(); }
};

struct SoakOptions {
  int iterations = 10000;
  uint64_t seed = 1;
  int replay_every = 250;           // replay check every N commands and at the end (0: end only)
  size_t record_budget = 16u << 20;  // records beyond this: reset (set the prompt again)
  int max_tokens = 40;
  // Fail when RSS after a reset exceeds RSS after the first reset by more than this (0: no
  // check; sanitizer builds keep freed memory in quarantine, so tests leave it off).
  size_t max_rss_growth = 0;
  int progress_every = 1000;        // commands between progress callbacks
  std::function<void(const SoakReport&)> progress;
};

// Runs the soak on a session that has a model (its prompt, lanes and settings are replaced).
// An error only when the session cannot be set up; invariant violations go to report.failures.
Result<SoakReport> run_soak(Session& s, const SoakOptions& opt);

// The model for `bench --soak`: `model_path` if given (with `tokenizer_path`), else the default
// model (find_default_model), else the llama2.c fallback aidreams260K.bin + tok512.bin from
// shared/golden beside the checkout, with a note saying so. Error when none exists.
struct SoakModel {
  std::string model, tokenizer;
  std::string note;  // "" or why the fallback is used
};
Result<SoakModel> find_soak_model(const std::string& model_path = "",
                                  const std::string& tokenizer_path = "",
                                  const std::string& source_dir = "");

// `tokenscope bench --soak N` in one call: finds and loads the model, runs N commands with
// max_rss_growth 64 MiB, and sends progress lines (the model choice, every 1000 commands) to
// `log`. Returns the report; the caller prints soak_summary() and fails when !report.ok().
// `source_dir` is searched for the default model as find_soak_model does.
Result<SoakReport> run_soak_bench(int iterations, const std::string& model_path,
                                  const std::string& tokenizer_path,
                                  const std::function<void(const std::string&)>& log,
                                  const std::string& source_dir = "");

// Multi-line summary: commands per kind, refusals, replays, nodes, memory, time, verdict.
std::string soak_summary(const SoakReport& r);

}  // namespace ts
