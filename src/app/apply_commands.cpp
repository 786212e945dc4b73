// Command -> Session call (see apply_commands.h). One visitor, one line per command; the session
// validates everything and returns a Status whose message the app shows.
#include "app/apply_commands.h"

#include <type_traits>

#include "session/session.h"
#include "session/trace_replay.h"

namespace ts {

bool is_session_command(const Command& c) {
  return !std::holds_alternative<cmd::ExportPng>(c) &&
         !std::holds_alternative<cmd::ExportTrace>(c) && !std::holds_alternative<cmd::Quit>(c);
}

Status apply_command(Session& s, const Command& c, float play_speed) {
  return std::visit(
      [&](const auto& x) -> Status {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, cmd::Step>) {
          for (int i = 0; i < x.n; ++i) TS_TRY(s.step());
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::StepInto>) {
          return s.step_into();
        } else if constexpr (std::is_same_v<T, cmd::SetPhase>) {
          return s.set_phase(x.phase);
        } else if constexpr (std::is_same_v<T, cmd::Back>) {
          for (int i = 0; i < x.n; ++i) TS_TRY(s.back());
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::Seek>) {
          return s.seek(x.step);
        } else if constexpr (std::is_same_v<T, cmd::First>) {
          return s.first();
        } else if constexpr (std::is_same_v<T, cmd::Last>) {
          return s.last();
        } else if constexpr (std::is_same_v<T, cmd::Play>) {
          s.play(play_speed);
          if (!s.is_playing() && !s.last_error().empty()) return make_error(s.last_error());
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::Pause>) {
          s.pause();
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::TogglePlay>) {
          if (s.is_playing()) {
            s.pause();
            return ok_status();
          }
          s.play(play_speed);
          if (!s.is_playing() && !s.last_error().empty()) return make_error(s.last_error());
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::SetSpeed>) {
          if (s.is_playing()) s.play(x.steps_per_second);
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::Force>) {
          return s.force(x.token_id, x.lane);
        } else if constexpr (std::is_same_v<T, cmd::SwitchBranch>) {
          return s.switch_branch(x.node, x.lane);
        } else if constexpr (std::is_same_v<T, cmd::SetPrompt>) {
          return s.set_prompt(x.text);
        } else if constexpr (std::is_same_v<T, cmd::SetSampler>) {
          // Mid-run: the new sampler chooses again at the cursor, as a new branch; the steps
          // already shown keep what the old sampler did (nothing is silently regenerated).
          if (s.cursor() >= 0) return s.branch_sampler(x.lane, x.settings);
          return s.set_sampler(x.lane, x.settings);
        } else if constexpr (std::is_same_v<T, cmd::AddLane>) {
          Result<int> r = s.add_lane(x.settings);
          if (!r.ok()) return r.error();
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::RemoveLane>) {
          return s.remove_lane(x.lane);
        } else if constexpr (std::is_same_v<T, cmd::SetRecordLevel>) {
          return s.set_record_level(x.level);
        } else if constexpr (std::is_same_v<T, cmd::SetMaxTokens>) {
          return s.set_max_tokens(x.n);
        } else if constexpr (std::is_same_v<T, cmd::SetStopStrings>) {
          return s.set_stop_strings(x.stops);
        } else if constexpr (std::is_same_v<T, cmd::LoadModel>) {
          return s.load_model(x.path, x.tokenizer_path);
        } else if constexpr (std::is_same_v<T, cmd::OpenTrace>) {
          Result<Trace> t = read_trace_json(x.path);
          if (!t.ok()) return t.error();
          return replay_trace(s, t.value());
        } else {
          return make_error(std::string("not a session command: ") + command_name(c));
        }
      },
      c);
}

}  // namespace ts
