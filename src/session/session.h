// Session: the one API the app, the CLI, the lessons and the tests drive. It owns the loaded
// model and tokenizer, the prompt, the record level, the generation limits and 1-4 lanes (a
// sampler + its timeline tree + its working KV cache), and runs the generation loop as commands:
// step / seek / run_to / force / ablate / switch_branch / play+tick / set_phase. The class keeps the
// commands and the core queries; the other reads and commands are free functions over it, in
// their own headers (session_access.h, path_queries.h, histogram.h, phase_walk.h,
// session_ops.h). Reads are const; commands return a Status and never print or exit. No UI code.
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

// The settings every lane shares: how much each step records, how long a generation may run
// and the strings that stop it. set_generation validates and recomputes up to the cursor.
struct GenerationSettings {
  RecordLevel record_level = RecordLevel::Full;  // the app shows everything by default
  int max_tokens = 256;                          // new tokens per lane, >= 1
  std::vector<std::string> stops;                // non-empty strings
};

// The prompt as typed and as fed: tokens (BOS first when the tokenizer asks for it) and the
// number of tokens dropped from the front when it did not fit the context (0: none).
struct PromptInput {
  std::string text;
  std::vector<int> tokens;
  int cut = 0;
};

// Playing: steps paced by tick() at `rate` steps per second.
struct Playback {
  bool playing = false;
  double rate = 2.0;
};

// The Session class holds the commands and the few core queries; every other query is a free
// function over `const Session&` (session_access.h, path_queries.h, histogram.h, phase_walk.h)
// and the commands composed of these ones are free too (session_ops.h).
class Session {
 public:
  explicit Session(SessionOptions opt = {});  // movable, not copyable (implicit members)

  // ---- model, prompt and settings (each resets or recomputes the timeline; see below) ------
  // Loads a GGUF (or a llama2.c checkpoint + tokenizer.bin). On failure the previous model,
  // prompt, settings and timeline are kept. On success the timeline is reset (cursor -1).
  Status load_model(const std::string& path, const std::string& tokenizer_path = "");
  // Same, for a model already in memory (tests, the trainer, random bench models).
  Status set_model(LoadedModel model);
  // Stores the text and tokenizes it (BOS when the tokenizer asks for it). Empty text without a
  // BOS is an error (the session's prompt, tokens and timeline unchanged). Without a model the
  // text is stored and tokenized when a model arrives. A prompt longer than n_ctx - 1 tokens keeps
  // its last ones (and the BOS) and reports the cut in prompt().cut. Resets the timeline.
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
  // Record level, max new tokens (>= 1), stop strings (non-empty): validated, then every lane
  // is recomputed up to the cursor. Invalid settings: error, session unchanged.
  Status set_generation(const GenerationSettings& g);
  Result<int> add_lane(const SamplerSettings& s);  // computed up to the cursor; returns index
  Status remove_lane(int lane);                    // the last remaining lane cannot go

  // ---- the loop ----------------------------------------------------------------------------
  // Next step for every lane in lock-step. Where the lane's current path already has it, the
  // recorded step is reused (identical); otherwise it is computed (prefill at step 0, a decode
  // after). Stopped lanes stay. Error when there is no model/prompt or every lane has stopped.
  Status step();
  Status seek(int step_index);  // -1 .. max_path_length()-1, along the current paths
  // Go forward (computing as needed) until the cursor is at step_index or every lane stopped.
  Status run_to(int step_index);
  // Replaces the choice of `lane`'s step at the cursor by `token_id`: a sibling node (or an
  // existing sibling with that token) becomes the path, the KV is cut to the fork point and
  // later steps continue from the forced token.
  Status force(int token_id, int lane = 0);
  // Runs `lane`'s step at the cursor again with an intervention (heads, attention blocks or MLPs
  // switched off or scaled: engine/intervention.h) as a sibling node, a branch marked with it;
  // later steps continue from it and, when a.from_here_on, run with it too. An empty set runs
  // the step without any (ending an inherited one). An existing sibling with the same
  // intervention, chosen by the sampler, becomes the path instead. The set must suit the model.
  Status ablate(const Ablation& a, int lane = 0);
  // Makes root..node (and its newest descendants) `lane`'s path; the cursor moves to the node's
  // step; the KV rows of that branch are restored; other lanes are computed up to it if short.
  Status switch_branch(int node_id, int lane = 0);
  // Step into: which phase of the iteration at the cursor is revealed (phases() in
  // phase_walk.h lists them: embed, layers, ..., append). After step/seek the whole step is
  // revealed (phase_cursor() == the last phase); step_into() in phase_walk.h walks it.
  Status set_phase(int phase_index);

  // Play at `tokens_per_second` while tick() is fed wall time; 0 pauses. Pauses by itself when
  // every lane has stopped or a step fails. tick returns the number of steps taken.
  Status play(double tokens_per_second);
  int tick(double dt_seconds);

  // ---- core queries ------------------------------------------------------------------------
  const LoadedModel* loaded() const { return loaded_.get(); }  // nullptr: no model
  const Tokenizer& tokenizer() const { return tokenizer_; }
  const PromptInput& prompt() const { return prompt_; }
  const GenerationSettings& generation() const { return gen_; }
  const SessionOptions& options() const { return opt_; }
  std::span<const Lane> lanes() const { return lanes_; }  // 1..kMaxLanes
  int cursor() const { return cursor_; }  // step index; -1 before the prefill
  int phase_cursor() const;               // index into phases(): the phase revealed
  const Playback& playback() const { return play_; }
  const std::string& last_error() const { return last_error_; }  // "" after a command succeeded
  // Progress of the command running now (for a worker thread's progress bar), and its `cancel`
  // flag, settable from another thread: a long command (run_to, the recomputation after a
  // settings change) then returns an error "cancelled" and leaves a consistent, shorter timeline.
  Progress& progress() const { return *progress_; }
  // The logit lens of a record of this session's steps (Full level): computed from its kept
  // residual rows on first read, on the pass's threads, and cached in the record
  // (engine/logit_lens.h). Call between commands, not while one runs. Empty for a record
  // without it (Off, Summary) or without a model.
  const std::vector<std::vector<TokenScore>>& logit_lens(const ForwardRecord& r) const;

 private:
  // Per lane, per step index: the token forced there (or -1) and the intervention its pass ran
  // with, kept across a recomputation.
  struct PlannedStep {
    int forced = -1;
    Ablation ablation;
  };
  using StepPlan = std::vector<std::vector<PlannedStep>>;

  Status finish(Status s);  // records last_error_ ("" on success) and returns s
  Status require_ready() const;
  Status tokenize_prompt(const std::string& text, std::vector<int>& tokens, int& cut) const;
  void reset_timeline();
  StepPlan step_plan() const;
  static const PlannedStep* planned_at(const StepPlan* plan, int lane, int k);  // null beyond it
  // Clears the given lanes' trees (all lanes when lane < 0) and recomputes them up to `target`.
  Status rebuild(int lane, int target);
  Status advance(const StepPlan* plan);   // one lock-step step (reuse or compute)
  Status catch_up(const StepPlan* plan);  // computes lanes whose path is short of the cursor
  // The step itself (session_step.cpp): input -> forward -> logits -> choose -> append. Without
  // a planned step: no forced token, the parent's inherited intervention.
  Status compute_step(int lane, int step_index, const PlannedStep* planned);
  // Another lane's step 0 whose pass ran with the same intervention, or null.
  const Step* shared_prefill(int lane, int step_index, const Ablation& a) const;
  std::span<const float> reuse_pass(int lane, const Step& shared, Step& s);
  std::vector<int> step_input(int step_index, int parent, const Timeline& t) const;
  Status run_forward(int lane, int step_index, const std::vector<int>& input, Step& s);
  std::span<const float> last_logits(const Step& s) const;
  void choose(int lane, Step& s, int parent, std::span<const float> logits, int forced) const;
  StopReason stop_after(int lane, int parent, const Step& s) const;
  int kv_pos(int step_index) const;  // KV length with the cursor at step_index
  bool lane_done(int lane) const;    // the lane's path ends in a stop
  void sync_kv(int lane, int length);
  void sync_all_kv();

  SessionOptions opt_;
  std::unique_ptr<LoadedModel> loaded_;
  Tokenizer tokenizer_;
  std::unique_ptr<Forward> forward_;
  PromptInput prompt_;
  GenerationSettings gen_;
  std::vector<Lane> lanes_;
  int cursor_ = -1;
  int phase_cursor_ = -1;  // -1: the whole step is revealed
  Playback play_;
  double play_accum_ = 0.0;
  std::string last_error_;
  std::unique_ptr<Progress> progress_;
};

}  // namespace ts
