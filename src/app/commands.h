// Commands: what panels ask for. Panels only read the Session; to change anything they push a
// Command here, and after every panel has drawn, the switchboard (app/apply_commands.cpp) applies
// the queue to the session in order. Pure UI choices (selection, hover, theme) are not commands:
// panels write them straight into UiState.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/record.h"
#include "sampling/sampler.h"

namespace ts {

namespace cmd {
struct Step {
  int n = 1;
};                   // n whole iterations forward (regenerates if needed)
struct StepInto {};  // one phase forward inside the current iteration
struct SetPhase {
  int phase = 0;
};  // show phase `phase` of the iteration at the cursor
struct Back {
  int n = 1;
};  // n iterations back (rewind; nothing is lost)
struct Seek {
  int step = 0;
};                // go to iteration `step` (-1 = before the prefill,
                  // 0 = the prefill, k = the k-th decode)
struct First {};  // before the prefill
struct Last {};   // the newest recorded iteration of this branch
struct Play {};
struct Pause {};
struct TogglePlay {};
struct SetSpeed {
  float steps_per_second = 2.0f;
};
struct Force {
  int token_id = -1;
  int lane = 0;
};  // choose this token at the current step:
    // forks a branch from here
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
};  // validated when applied
struct AddLane {
  SamplerSettings settings;
};
struct RemoveLane {
  int lane = 0;
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
struct LoadModel {
  std::string path;
  std::string tokenizer_path;
};  // on a worker thread
// Lessons (lesson/lesson_runner.h): open a lesson file at its first page, move between pages.
struct LessonOpen {
  std::string path;
};
struct LessonNext {};
struct LessonBack {};
struct ExportPng {
  std::string path;
};
struct ExportTrace {
  std::string path;
};
struct Quit {};
struct OpenTrace {  // replay a trace JSON exported by tokenscope (trace_replay.h)
  std::string path;
};
struct MeasureMachine {  // run bench's probes for the Cost panel's roofs (on the worker)
  double working_set = 0;  // the model's weight bytes
};
struct CompareFormats {};  // the model as F32, Q8_0 and Q4_K, timed (format_compare.h; worker)
}  // namespace cmd

using Command =
    std::variant<cmd::Step, cmd::StepInto, cmd::SetPhase, cmd::Back, cmd::Seek, cmd::First,
                 cmd::Last, cmd::Play, cmd::Pause, cmd::TogglePlay, cmd::SetSpeed, cmd::Force,
                 cmd::SwitchBranch, cmd::SetPrompt, cmd::SetSampler, cmd::AddLane, cmd::RemoveLane,
                 cmd::SetRecordLevel, cmd::SetMaxTokens, cmd::SetStopStrings, cmd::LoadModel,
                 cmd::LessonOpen, cmd::LessonNext, cmd::LessonBack, cmd::ExportPng,
                 cmd::ExportTrace, cmd::Quit, cmd::MeasureMachine, cmd::OpenTrace,
                 cmd::CompareFormats>;

// The queue one frame's panels fill. Plain vector: order matters (applied first to last).
struct Commands {
  std::vector<Command> queue;
  template <class C>
  void push(C c) {
    queue.emplace_back(std::move(c));
  }
  bool empty() const { return queue.empty(); }
  size_t size() const { return queue.size(); }
  void clear() { queue.clear(); }
  // The first queued command of type C, or nullptr (tests: "the click produced a Force").
  template <class C>
  const C* find() const {
    for (const Command& c : queue)
      if (const C* p = std::get_if<C>(&c)) return p;
    return nullptr;
  }
};

const char* command_name(const Command& c);  // "step", "force", ... (logs, script errors)

}  // namespace ts
