// Trace: the full record of a run (model, prompt, settings, and every step of each lane's
// current path with its forward record and sampling record) as plain data, written to and read
// from JSON (schema: docs/trace-schema.md). Reading never trusts the file: malformed input gives
// an error naming the line (syntax) or the field path (schema). Nothing here runs a model.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "engine/config.h"
#include "engine/record.h"
#include "sampling/sampler.h"
#include "sampling/stop.h"
#include "session/receipt.h"
#include "session/step.h"

namespace ts {

class Session;

inline constexpr int kTraceVersion = 1;

// One step of a lane's path: what it chose (the Step's own StepChoice, copied whole) and its
// records.
struct TraceStep : StepChoice {
  // The settings that chose this step, when they differ from the lane's (a sampler changed
  // mid-run); written as the optional field "sampler".
  bool has_sampler = false;
  SamplerSettings sampler;
  // The step's intervention (StepChoice::ablation), written as the optional field
  // "intervention" when it is not empty.
  bool has_intervention = false;
  ForwardRecord forward;
  SamplingRecord sampling;
  // Why the step chose its token and not a rival (session/receipt.h): the optional field
  // "receipt", present when the trace was asked for receipts (add_receipts).
  bool has_receipt = false;
  TokenReceipt receipt;
};

struct TraceLane {
  SamplerSettings settings;
  std::vector<TraceStep> steps;  // the lane's whole current path
};

struct Trace {
  int version = kTraceVersion;
  std::string model_path;
  std::string model_format;  // "gguf", "llama2c", "memory"
  ModelConfig config;
  size_t n_params = 0;
  std::string tokenizer_kind;  // "bpe" or "spm"
  int bos_id = -1, eos_id = -1;
  std::string prompt;              // raw bytes as typed
  std::vector<int> prompt_tokens;  // as fed
  std::vector<std::string> prompt_pieces;  // raw bytes of each prompt token
  int prompt_cut = 0;
  RecordLevel record_level = RecordLevel::Full;
  int max_tokens = 0;
  std::vector<std::string> stop_strings;
  int cursor = -1;
  int first_divergence = -1;
  std::vector<TraceLane> lanes;
  // The raw bytes of every token id the steps' candidates mention (written as the optional
  // top-level field "pieces"), so a trace can be read without its model: the read-only view
  // labels bars with them. Absent in older traces (then ids are shown as "#id").
  std::map<int, std::string> pieces;
};

// The session's run: every lane (lane < 0) or one lane, each lane's whole current path.
Trace make_trace(const Session& s, int lane = -1);
// A receipt for every step of the trace's lanes, against `rival` (a token id), or, with
// rival < 0, against each step's runner-up (the most probable other token of its logits). `t`
// is make_trace(s, lane) of the same session. Errors: the first receipt that fails.
Status add_receipts(Trace& t, const Session& s, int lane = -1, int rival = -1);
// One receipt as the JSON object the trace's "receipt" fields hold (tokenscope explain --json).
std::string receipt_to_json(const TokenReceipt& r, int indent = 2);
// indent < 0: one line; otherwise pretty-printed with that many spaces.
std::string trace_to_json(const Trace& t, int indent = 1);
Status write_trace_json(const Trace& t, const std::string& path, int indent = 1);
Status write_trace_json(const Session& s, const std::string& path, int lane = -1);

Result<Trace> parse_trace_json(std::string_view text);
// A regular file of at most kMaxTraceFileBytes (a device or a bigger file is refused).
constexpr uint64_t kMaxTraceFileBytes = uint64_t{256} << 20;
Result<Trace> read_trace_json(const std::string& path);

}  // namespace ts
