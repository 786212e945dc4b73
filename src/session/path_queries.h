// Read-only queries over a Session's current paths: the step at an index or at the cursor, stop
// state, the lanes' token sequences and text, where lanes first differ, and the bytes the
// records hold.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "session/session.h"

namespace ts {

// One token of a lane's sequence, for the tokens panel and the CLI.
struct PathToken {
  int id = -1;
  int position = 0;
  int step = -1;  // the step that chose it; -1 for a prompt token
  bool is_prompt = false;
  bool forced = false;
  std::string piece;    // raw bytes (may be partial UTF-8)
  std::string display;  // sanitised label (valid UTF-8)
  float p = 0.0f;       // probability when chosen (generated tokens only)
  int rank = -1;        // rank when chosen (0 = most probable; -1 unknown / prompt)
};

int max_path_length(const Session& s);  // the longest lane's current path
// The lane's step at step_index on its current path (nullptr outside it). Step pointers and
// references stay valid until the next command that computes a step (nodes may move then).
const Step* step_at(const Session& s, int lane, int step_index);
// min(cursor, the lane's last step): a lane that stopped earlier stays at its last step.
int lane_cursor(const Session& s, int lane);
// The lane's step at the cursor; a lane that stopped earlier shows its last step.
const Step* current_step(const Session& s, int lane = 0);
StopReason stop_reason(const Session& s, int lane);  // of current_step; None before the prefill
bool all_stopped(const Session& s);                  // every lane's current step has a stop reason
bool can_step(const Session& s);  // a model, a prompt, and step() would do something

// The lane's sequence: prompt tokens, then the chosen tokens of steps 0..cursor (or of the
// whole current path when up_to_cursor is false).
std::vector<PathToken> path_tokens(const Session& s, int lane = 0, bool up_to_cursor = true);
std::vector<int> sequence(const Session& s, int lane = 0, bool up_to_cursor = true);   // ids
std::string generated_text(const Session& s, int lane = 0, bool up_to_cursor = true);  // bytes
// Σ raw_log_p over the lane's steps 0..cursor (or its whole current path): the chosen tokens'
// total log-probability under the raw model (natural log); 0 before the prefill.
double sum_log_prob(const Session& s, int lane = 0, bool up_to_cursor = true);
// The prompt tokens then the chosen tokens of root..parent in the lane's tree (the history a
// step at parent's child saw, for the penalties).
std::vector<int> history(const Session& s, int lane, int parent);
// What the sampler reads besides the logits for a step at parent's child: the parent's record
// (mirostat's mu), the vocabulary's bytes, the end-of-text id and where the generated text
// begins (the constraint stages). record_top is left at its default.
SampleOptions sample_options(const Session& s, int lane, int parent);

// A token's raw bytes after `prev` (-1: none) and its sanitised label; "<id N>" for an id the
// tokenizer does not have.
std::string piece_bytes(const Session& s, int id, int prev);
std::string piece_display(const Session& s, int id);

// First step index where the chosen tokens of the lanes' current paths differ (-1: none).
int first_divergence(const Session& s);
int first_divergence(const Session& s, int lane_a, int lane_b);

// Bytes held by records: ForwardRecord::memory_bytes of every distinct record plus the stored
// K/V rows, over every lane's tree (shared records counted once).
size_t record_bytes(const Session& s);

}  // namespace ts
