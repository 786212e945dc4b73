// Side runs: decoding strategies that do not fit a lane's one-token-per-step timeline, run
// beside it on the session's model and prompt: beam search (decode/beam_search.h) and
// speculative decoding with a smaller draft model (decode/speculative.h). Their results are
// kept in the session (Session::side_runs) for the Decoding panel to draw and lessons to check;
// a new model clears them, a new prompt leaves them marked as made for another prompt
// (side_run_current). The commands are the session's own (command.h: `beam`, `speculate`).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "decode/beam_search.h"
#include "decode/speculative.h"
#include "formats/model_file.h"

namespace ts {

class Session;

// Beam search from the prompt, next to greedy decoding (beam width 1) of the same length, so
// "the beam's text is more probable than greedy's, as a whole" can be read off their sums.
struct BeamRun {
  std::vector<int> prompt;  // the prompt tokens it ran from
  BeamSettings settings;    // (its text cleared after the run: it points into the tokenizer)
  std::string constraint;   // lane 0's constraint stages it kept to ("one-of yes|no"), or
  BeamResult result;
  BeamResult greedy;  // width 1, same limits
};

// Speculative decoding with the lane-0 sampler, timed against plain decoding of the target
// (interleaved, the faster of two runs each, as `generate --speculative` does).
struct SpecRun {
  std::vector<int> prompt;
  std::string draft_path;
  std::string draft_name;  // the draft's file name, for display
  SpecSettings settings;
  SpecResult result;
  std::vector<int> plain_tokens;  // the target's own decoding with the same sampler
  double plain_seconds = 0;       // best of two
  double spec_seconds = 0;        // best of two
  bool greedy = false;            // temperature 0: the texts must be equal
};

struct SideRuns {
  std::optional<BeamRun> beam;
  std::optional<SpecRun> spec;
  // The draft model, kept loaded between runs (the path it came from).
  std::string draft_path;
  std::shared_ptr<const LoadedModel> draft;
  // Which run is the newest (0 beam, 1 speculative, -1 none) and a count of runs, so a view can
  // turn to a run it has not shown yet.
  int newest = -1;
  unsigned serial = 0;
  void clear() { *this = SideRuns{}; }
};

// Beam search with `width` (1..8), length penalty `alpha` (0..4) and up to `max_tokens` new
// tokens (1..256; the session's max tokens when 0), its texts kept to the constraint stages of
// lane 0's sampler (one-of, regex), as that lane's own steps are. Errors: no model or prompt,
// bad settings.
Status run_beam(Session& s, int width, double alpha, int max_tokens);
// Speculative decoding with the draft model at `draft_path` ("" : the one loaded before, or
// models/<model>-draft.gguf beside the model), `k` drafts per round (1..kMaxSpeculative), up to
// `max_tokens` new tokens (0: the session's). Errors: no model, a draft that does not load or
// whose tokenizer differs from the target's.
Status run_speculative(Session& s, const std::string& draft_path, int k, int max_tokens);

// The draft must read and write the same ids as the target: the same tokens, merges and kind.
// `path` names the draft in the message.
Status check_same_tokenizer(const TokenizerData& target, const TokenizerData& draft,
                            const std::string& path);

// True when the run was made from the session's current prompt.
bool side_run_current(const Session& s, const std::vector<int>& run_prompt);

}  // namespace ts
