// The one vocabulary of changes to a Session. Every front end speaks it: the app's buttons push
// these values, and the text form below is what lesson `do` lines and `--script` lines say, so a
// lesson, a script and a click cannot disagree about what "sampler temp=0.5" or "force \" dog\""
// does. parse_command reads one line of the text form (no session needed: a forced piece is
// looked up when applied); apply_command is the single place a command becomes Session calls.
//
// Text form (one command per line; TEXT and PIECE may be quoted, with \" \\ \n \t escapes):
//   step [N]  back [N]  into [N]  seek N  first  last  run-to N  play  pause
//   force PIECE|#ID [lane N]   prompt TEXT   sampler SPEC   branch-sampler SPEC
//   lanes SPEC; SPEC ...   record off|summary|full   max-tokens N   stop PIECE|none
//   ablate SET [from|at] [lane N]   (SET: L0.H3,L1.attn,L1.mlp=0.5 or none; default from)
//   beam W [alpha A] [tokens N]   speculate [FILE] [k K] [tokens N]
//   chat [system "TEXT"] TEXT   (the prompt: the user's message in the model's chat template)
// (SPEC: sampling/sampler_spec.h, a whole sampler from the defaults.)
#pragma once
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/error.h"
#include "engine/record.h"
#include "sampling/sampler.h"
#include "session/step.h"

namespace ts {

class Session;

namespace cmd {
struct Step {
  int n = 1;
};  // n whole iterations forward (regenerates if needed)
struct StepInto {
  int n = 1;
};  // n phases forward inside the current iteration
struct SetPhase {
  int phase = 0;
};  // show phase `phase` of the iteration at the cursor
struct Back {
  int n = 1;
};  // n iterations back (rewind; nothing is lost)
struct Seek {
  int step = 0;
};                // go to iteration `step` (-1 = before the prefill, 0 = the prefill, k = decode k)
struct First {};  // before the prefill
struct Last {};   // the newest recorded iteration of this branch
struct RunTo {
  int step = 0;
};  // forward (computing as needed) until the cursor is at `step` or every lane stopped
struct Play {};
struct Pause {};
struct TogglePlay {};
struct SetSpeed {
  float steps_per_second = 2.0f;
};
struct Force {
  int token_id = -1;
  int lane = 0;
};  // choose this token at the current step: forks a branch from here
struct ForcePiece {
  std::string piece;  // the token's exact text (Tokenizer::find_text), or "#ID"
  int lane = 0;
};  // Force, by text
// Make the path root..node of a lane's timeline tree current (a node id from Timeline/BranchInfo).
struct SwitchBranch {
  int node = -1;
  int lane = 0;
};
struct SetPrompt {
  std::string text;
};
struct SetSampler {
  int lane = 0;
  SamplerSettings settings;
};  // the lane's whole path is chosen again with these settings (validated when applied)
struct BranchSampler {
  int lane = 0;
  SamplerSettings settings;
};  // mid-run: the steps so far stay; the step at the cursor is chosen again, as a new branch
struct AddLane {
  SamplerSettings settings;
};
struct RemoveLane {
  int lane = 0;
};
struct SetLanes {
  std::vector<SamplerSettings> lanes;  // lane 0's settings, then one new lane per entry
};
struct SetRecordLevel {
  RecordLevel level = RecordLevel::Full;
};
struct SetMaxTokens {
  int n = 64;
};
struct SetStopStrings {
  std::vector<std::string> stops;
};
struct AddStopString {
  std::string stop;
};
struct LoadModel {
  std::string path;
  std::string tokenizer_path;
};
// Run the step at the cursor again with heads, attention blocks or MLPs switched off or scaled
// (engine/intervention.h), as a new branch; from_here_on: the later steps too.
struct Ablate {
  Ablation ablation;
  int lane = 0;
};
// Beside the lanes (side_runs.h): beam search from the prompt; speculative decoding with a
// draft model and lane 0's sampler. max_tokens 0: the session's max tokens.
struct Beam {
  int width = 4;
  double length_penalty = 1.0;
  int max_tokens = 0;
};
struct Speculate {
  std::string draft;  // "": the draft used before
  int k = 4;
  int max_tokens = 0;
};
// The prompt becomes this conversation rendered by the model's chat template (chat_prompt.h).
struct Chat {
  std::string user;
  std::string system;  // "": none
};
}  // namespace cmd

using SessionCommand =
    std::variant<cmd::Step, cmd::StepInto, cmd::SetPhase, cmd::Back, cmd::Seek, cmd::First,
                 cmd::Last, cmd::RunTo, cmd::Play, cmd::Pause, cmd::TogglePlay, cmd::SetSpeed,
                 cmd::Force, cmd::ForcePiece, cmd::SwitchBranch, cmd::SetPrompt, cmd::SetSampler,
                 cmd::BranchSampler, cmd::AddLane, cmd::RemoveLane, cmd::SetLanes,
                 cmd::SetRecordLevel, cmd::SetMaxTokens, cmd::SetStopStrings, cmd::AddStopString,
                 cmd::LoadModel, cmd::Ablate, cmd::Beam, cmd::Speculate, cmd::Chat>;

// "step", "force", ... (logs and error messages).
const char* command_name(const SessionCommand& c);
// One line of the text form; errors are one line ("seek: needs a step number").
Result<SessionCommand> parse_command(std::string_view line);
// True when `word` starts a line of the text form.
bool is_command_verb(std::string_view word);
// The words of the text form, in the order above (lesson/verb_table.h lists them with its own).
std::vector<std::string_view> command_verbs();
// The token a PIECE argument names, as `force` reads it: "#ID" (an id inside the vocabulary),
// else the token whose text is exactly the piece (Tokenizer::find_text). Error: no model, or
// no such token ("no token is exactly \" dgo\"").
Result<int> token_for_piece(const Session& s, const std::string& piece);
// The Session calls of one command. `play_speed`: steps per second for Play / TogglePlay.
// Step{n} stops at the first failing step.
Status apply_command(Session& s, const SessionCommand& c, float play_speed = 2.0f);

}  // namespace ts
