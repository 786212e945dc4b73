// Session: the one API the app, the CLI, the lessons and the tests drive. It owns the loaded
// model and tokenizer, the prompt, the record level, the generation limits and 1-4 lanes (a
// sampler + its timeline tree + its working KV cache), and runs the generation loop as commands:
// step / back / seek / force / switch_branch / play+tick / step_into. Reads are const; commands
// return a Status and never print or exit. No UI code here.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/error.h"
#include "engine/forward.h"
#include "engine/kv_cache.h"
#include "engine/record.h"
#include "formats/model_file.h"
#include "sampling/sampler.h"
#include "session/phases.h"
#include "session/step.h"
#include "session/timeline.h"
#include "tokenizer/tokenizer.h"

namespace ts {

constexpr int kMaxLanes = 4;

// The checks a model passes before a session takes it, shared with `tokenscope info` so both
// reach the same verdict: a tokenizer is present, creates, and fits the vocabulary, and one
// lane's KV cache for the whole context stays within the per-lane limit and the memory budget.
// `path` names the model in the messages.
Result<Tokenizer> check_model_runnable(const ModelConfig& c, const TokenizerData& tok,
                                       const std::string& path);

struct SessionOptions {
  int n_threads = 1;
  int position_top_k = 10;  // ForwardOptions::position_top_k
  int lens_top_k = 5;       // ForwardOptions::lens_top_k
};

// Progress of the running command (load_model, step, run_to, the recomputation after a settings
// change), readable from another thread while the command runs: done / total in steps (or 0/1
// around a single pass). Reset at the start of each command.
struct Progress {
  std::atomic<int> done{0};
  std::atomic<int> total{0};
  std::atomic<bool> running{false};
  std::atomic<bool> cancel{false};
};

// One lane: a sampler, its own tree of steps and its own working KV cache. kv holds the rows of
// the current path up to the cursor: kv.length() == the position of the cursor's next token.
struct Lane {
  SamplerSettings settings;
  Timeline timeline;
  KvCache kv;
  int kv_valid = 0;  // leading rows of kv's storage known to equal the current path's rows
};

// One token of a lane's sequence, for the tokens panel and the CLI.
struct PathToken {
  int id = -1;
  int position = 0;
  int step = -1;          // the step that chose it; -1 for a prompt token
  bool is_prompt = false;
  bool forced = false;
  std::string piece;      // raw bytes (may be partial UTF-8)
  std::string display;    // sanitised label (valid UTF-8)
  float p = 0.0f;         // probability when chosen (generated tokens only)
  int rank = -1;          // rank when chosen (0 = most probable; -1 unknown / prompt)
};

// "Sample this step n times": how often each id was drawn from the step's final distribution
// (RNG stream 1, so the generation draws are never disturbed). Sorted by count, then id.
struct Histogram {
  int n_samples = 0;
  int step = -1;
  std::vector<int> ids;
  std::vector<int> counts;
  std::vector<float> p;  // the final distribution's probability of each id
};

class Session {
 public:
  explicit Session(SessionOptions opt = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;

  // ---- model and settings (each resets or recomputes the timeline; see below) -------------
  // Loads a GGUF (or a llama2.c checkpoint + tokenizer.bin). On failure the previous model,
  // prompt, settings and timeline are kept. On success the timeline is reset (cursor -1).
  Status load_model(const std::string& path, const std::string& tokenizer_path = "");
  // Same, for a model already in memory (tests, the trainer, random bench models).
  Status set_model(LoadedModel model);
  // Stores the text and tokenizes it (BOS when the tokenizer asks for it). Empty text without a
  // BOS is an error (the session's prompt, tokens and timeline unchanged). Without a model the
  // text is stored and tokenized when a model arrives. A prompt longer than n_ctx - 1 tokens keeps
  // its last ones (and the BOS) and reports the cut in prompt_cut(). Resets the timeline.
  Status set_prompt(const std::string& text);
  // Validates, then recomputes every lane's current path up to the cursor (forced tokens are
  // forced again). Invalid settings: error, session unchanged.
  Status set_sampler(int lane, const SamplerSettings& s);
  // Changes the sampler mid-run without rewriting history: the steps before the cursor stay as
  // the old sampler made them, and the step at the cursor is chosen again by the new sampler from
  // the same pass, as a new sibling node (a branch; a forced token stays forced); later steps
  // continue from it. The old continuation stays in the tree. Without recorded logits (record
  // level off) the branch starts at the next step instead. Before the prefill: set_sampler.
  Status branch_sampler(int lane, const SamplerSettings& s);
  Status set_record_level(RecordLevel level);        // recomputes up to the cursor
  Status set_max_tokens(int max_new_tokens);         // >= 1; recomputes up to the cursor
  Status set_stop_strings(std::vector<std::string> stops);  // non-empty strings; recomputes
  Result<int> add_lane(const SamplerSettings& s);    // computed up to the cursor; returns index
  Status remove_lane(int lane);                      // the last remaining lane cannot go

  // ---- the loop ----------------------------------------------------------------------------
  // Next step for every lane in lock-step. Where the lane's current path already has it, the
  // recorded step is reused (identical); otherwise it is computed (prefill at step 0, a decode
  // after). Stopped lanes stay. Error when there is no model/prompt or every lane has stopped.
  Status step();
  Status back();                 // cursor - 1 (down to -1: before the prefill)
  Status seek(int step_index);   // -1 .. max_path_length()-1, along the current paths
  Status first();                // seek(-1): nothing computed, every KV cache empty
  Status last();                 // seek(max_path_length() - 1)
  // Go forward (computing as needed) until the cursor is at step_index or every lane stopped.
  Status run_to(int step_index);
  // Replaces the choice of `lane`'s step at the cursor by `token_id`: a sibling node (or an
  // existing sibling with that token) becomes the path, the KV is cut to the fork point and
  // later steps continue from the forced token.
  Status force(int token_id, int lane = 0);
  // Makes root..node (and its newest descendants) `lane`'s path; the cursor moves to the node's
  // step; the KV rows of that branch are restored; other lanes are computed up to it if short.
  Status switch_branch(int node_id, int lane = 0);

  // Play: step at tokens_per_second while tick() is fed wall time; pauses by itself when every
  // lane has stopped or a step fails. tick returns the number of steps taken.
  void play(double tokens_per_second);
  void pause();
  int tick(double dt_seconds);
  bool is_playing() const { return playing_; }
  double play_rate() const { return play_rate_; }

  // Step into: the phases of the iteration at the cursor (embed, layers, ..., append).
  // After step/back/seek the whole step is revealed (phase_cursor == phase_count - 1).
  // step_into() reveals the next phase; at the last phase it computes the next step and shows
  // its first phase. phase_reset() goes back to the embed phase of the current step.
  std::vector<PhaseItem> phases(int lane = 0) const;
  int phase_cursor() const;  // index into phases()
  Status step_into();
  void phase_reset() { phase_cursor_ = 0; }
  Status set_phase(int phase_index);

  // "Sample this step n times" for the step at the cursor (needs record level summary/full:
  // the logits are read from the step's record), with the sampler settings that chose it.
  Result<Histogram> histogram(int n, int lane = 0) const;

  // ---- queries -----------------------------------------------------------------------------
  bool has_model() const { return loaded_ != nullptr; }
  const LoadedModel& loaded() const { return *loaded_; }  // requires has_model()
  const Model& model() const { return loaded_->model; }
  const ModelConfig& config() const { return loaded_->model.config; }
  const ModelFileInfo& model_info() const { return loaded_->info; }
  const Tokenizer& tokenizer() const { return tokenizer_; }

  const std::string& prompt() const { return prompt_; }
  const std::vector<int>& prompt_tokens() const { return prompt_tokens_; }  // as fed
  int prompt_cut() const { return prompt_cut_; }  // tokens dropped from the front (0: none)
  RecordLevel record_level() const { return level_; }
  int max_tokens() const { return max_tokens_; }
  const std::vector<std::string>& stop_strings() const { return stops_; }
  const SessionOptions& options() const { return opt_; }

  int lane_count() const { return static_cast<int>(lanes_.size()); }
  const Lane& lane(int i) const { return lanes_[i]; }
  const SamplerSettings& settings(int lane) const { return lanes_[lane].settings; }
  const Timeline& timeline(int lane) const { return lanes_[lane].timeline; }
  std::vector<BranchInfo> branches(int lane) const { return lanes_[lane].timeline.branches(); }

  int cursor() const { return cursor_; }  // step index; -1 before the prefill
  int path_length(int lane) const { return lanes_[lane].timeline.path_length(); }
  int max_path_length() const;
  // The lane's step at step_index on its current path (nullptr outside it). Step pointers and
  // references stay valid until the next command that computes a step (nodes may move then).
  const Step* step_at(int lane, int step_index) const;
  // The lane's step at the cursor; a lane that stopped earlier shows its last step.
  const Step* current_step(int lane = 0) const;
  StopReason stop_reason(int lane) const;  // of current_step(lane); None before the prefill
  bool all_stopped() const;                // every lane's current step has a stop reason
  bool can_step() const;                   // a model, a prompt, and step() would do something
  int kv_length(int lane) const { return lanes_[lane].kv.length(); }

  // The lane's sequence: prompt tokens, then the chosen tokens of steps 0..cursor (or of the
  // whole current path when up_to_cursor is false).
  std::vector<PathToken> path_tokens(int lane = 0, bool up_to_cursor = true) const;
  std::vector<int> sequence(int lane = 0, bool up_to_cursor = true) const;  // ids only
  std::string generated_text(int lane = 0, bool up_to_cursor = true) const;  // raw bytes

  // First step index where the chosen tokens of the lanes' current paths differ (-1: none).
  int first_divergence() const;
  int first_divergence(int lane_a, int lane_b) const;

  // Bytes held by records: ForwardRecord::memory_bytes of every distinct record plus the stored
  // K/V rows, over every lane's tree (shared records counted once).
  size_t record_bytes() const;
  const std::string& last_error() const { return last_error_; }  // "" after a command succeeded

  // Progress of the command running now (for a worker thread's progress bar) and a way to stop
  // a long one (run_to, the recomputation after a settings change): it then returns an error
  // "cancelled" and leaves a consistent, shorter timeline.
  const Progress& progress() const { return *progress_; }
  void request_cancel() { progress_->cancel.store(true); }

 private:
  // Per lane, per step index: the token forced there, or -1 (kept across a recomputation).
  using ForcedPlan = std::vector<std::vector<int>>;

  Status finish(Status s);  // records last_error_ ("" on success) and returns s
  Status require_ready() const;
  Status tokenize_prompt(const std::string& text, std::vector<int>& tokens, int& cut) const;
  void reset_timeline();
  ForcedPlan forced_plan() const;
  // Clears the given lanes' trees (all lanes when lane < 0) and recomputes them up to `target`.
  Status rebuild(int lane, int target);
  Status advance(const ForcedPlan* plan);  // one lock-step step (reuse or compute)
  Status catch_up(const ForcedPlan* plan);  // computes lanes whose path is short of the cursor
  Status compute_step(int lane, int step_index, int forced_token);
  void choose(int lane, Step& s, int parent, std::span<const float> logits, int forced) const;
  StopReason stop_after(int lane, int parent, const Step& s) const;
  std::vector<int> history(int lane, int parent) const;  // prompt + tokens root..parent
  int kv_pos(int step_index) const;  // KV length with the cursor at step_index
  int lane_cursor(int lane) const;   // min(cursor, the lane's last step)
  bool lane_done(int lane) const;    // the lane's path ends in a stop
  void sync_kv(int lane, int length);
  void sync_all_kv();
  std::string piece_bytes(int id, int prev) const;
  std::string piece_display(int id) const;

  SessionOptions opt_;
  std::unique_ptr<LoadedModel> loaded_;
  Tokenizer tokenizer_;
  std::unique_ptr<Forward> forward_;
  std::string prompt_;
  std::vector<int> prompt_tokens_;
  int prompt_cut_ = 0;
  RecordLevel level_ = RecordLevel::Full;  // the app shows everything by default
  int max_tokens_ = 256;
  std::vector<std::string> stops_;
  std::vector<Lane> lanes_;
  int cursor_ = -1;
  int phase_cursor_ = -1;  // -1: the whole step is revealed
  bool playing_ = false;
  double play_rate_ = 2.0;
  double play_accum_ = 0.0;
  std::string last_error_;
  std::unique_ptr<Progress> progress_;
};

}  // namespace ts
