// Short names of commands, for the script runner's messages and for logs.
// Applying commands to the session is app/apply_commands.cpp.
#include "app/commands.h"

#include <type_traits>

namespace ts {

const char* command_name(const Command& c) {
  return std::visit(
      [](const auto& x) -> const char* {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, cmd::Step>)
          return "step";
        else if constexpr (std::is_same_v<T, cmd::StepInto>)
          return "step into";
        else if constexpr (std::is_same_v<T, cmd::SetPhase>)
          return "set phase";
        else if constexpr (std::is_same_v<T, cmd::Back>)
          return "back";
        else if constexpr (std::is_same_v<T, cmd::Seek>)
          return "seek";
        else if constexpr (std::is_same_v<T, cmd::First>)
          return "first";
        else if constexpr (std::is_same_v<T, cmd::Last>)
          return "last";
        else if constexpr (std::is_same_v<T, cmd::Play>)
          return "play";
        else if constexpr (std::is_same_v<T, cmd::Pause>)
          return "pause";
        else if constexpr (std::is_same_v<T, cmd::TogglePlay>)
          return "play/pause";
        else if constexpr (std::is_same_v<T, cmd::SetSpeed>)
          return "set speed";
        else if constexpr (std::is_same_v<T, cmd::Force>)
          return "force";
        else if constexpr (std::is_same_v<T, cmd::SwitchBranch>)
          return "switch branch";
        else if constexpr (std::is_same_v<T, cmd::SetPrompt>)
          return "set prompt";
        else if constexpr (std::is_same_v<T, cmd::SetSampler>)
          return "set sampler";
        else if constexpr (std::is_same_v<T, cmd::AddLane>)
          return "add lane";
        else if constexpr (std::is_same_v<T, cmd::RemoveLane>)
          return "remove lane";
        else if constexpr (std::is_same_v<T, cmd::SetRecordLevel>)
          return "set record level";
        else if constexpr (std::is_same_v<T, cmd::SetMaxTokens>)
          return "set max tokens";
        else if constexpr (std::is_same_v<T, cmd::SetStopStrings>)
          return "set stop strings";
        else if constexpr (std::is_same_v<T, cmd::LoadModel>)
          return "load model";
        else if constexpr (std::is_same_v<T, cmd::LessonOpen>)
          return "open lesson";
        else if constexpr (std::is_same_v<T, cmd::LessonNext>)
          return "next page";
        else if constexpr (std::is_same_v<T, cmd::LessonBack>)
          return "previous page";
        else if constexpr (std::is_same_v<T, cmd::ExportPng>)
          return "export png";
        else if constexpr (std::is_same_v<T, cmd::ExportTrace>)
          return "export trace";
        else if constexpr (std::is_same_v<T, cmd::MeasureMachine>)
          return "measure this machine";
        else if constexpr (std::is_same_v<T, cmd::OpenTrace>)
          return "open trace";
        else if constexpr (std::is_same_v<T, cmd::CompareFormats>)
          return "compare F32, Q8_0 and Q4_K";
        else
          return "quit";
      },
      c);
}

}  // namespace ts
