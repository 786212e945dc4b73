// The command vocabulary (see command.h): names, the text form's parser, and the one visitor
// that turns a command into Session calls.
#include "session/command.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <type_traits>

#include "base/text_args.h"
#include "sampling/sampler_spec.h"
#include "session/chat_prompt.h"
#include "session/phase_walk.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"
#include "session/side_runs.h"

namespace ts {

namespace {

Result<int> int_arg(std::string_view rest, const char* what, int min) {
  int v = 0;
  const auto r = std::from_chars(rest.data(), rest.data() + rest.size(), v);
  if (rest.empty() || r.ec != std::errc() || r.ptr != rest.data() + rest.size()) {
    return make_error(std::string("needs ") + what + ", got '" + std::string(rest) + "'");
  }
  if (v < min) return make_error(std::string(what) + " must be at least " + std::to_string(min));
  return v;
}

Result<int> count_arg(std::string_view rest) {
  if (rest.empty()) return 1;
  return int_arg(rest, "a count", 1);
}

Status no_arg(std::string_view rest) {
  if (!rest.empty()) return make_error("takes no argument, got '" + std::string(rest) + "'");
  return ok_status();
}

// force PIECE|#ID [lane N]
Result<SessionCommand> parse_force(std::string_view rest) {
  if (rest.empty()) return make_error("needs a token piece, e.g. force \" dog\"");
  cmd::ForcePiece f;
  std::string_view after;
  if (rest.front() == '"') {
    Result<std::string> t = parse_quoted(rest, after);
    if (!t.ok()) return t.error();
    f.piece = t.value();
  } else {
    const size_t sp = rest.find(" lane ");
    f.piece = std::string(trim_space(rest.substr(0, sp)));
    after = sp == std::string_view::npos ? "" : trim_space(rest.substr(sp));
  }
  if (f.piece.empty()) return make_error("needs a token piece, e.g. force \" dog\"");
  if (!after.empty()) {
    if (after.substr(0, 4) != "lane" || (after.size() > 4 && after[4] != ' ')) {
      return make_error("expected 'lane N' after the piece");
    }
    Result<int> lane = int_arg(trim_space(after.substr(4)), "a lane number", 0);
    if (!lane.ok()) return lane.error();
    f.lane = lane.value();
  }
  return SessionCommand{f};
}

// ablate SET [from|at] [lane N]: the set is every word before "from", "at" or "lane" (so
// "L0.H3, L1.mlp" may have spaces after its commas).
Result<SessionCommand> parse_ablate(std::string_view rest) {
  if (rest.empty()) return make_error("needs components, e.g. ablate L0.H3,L1.mlp=0.5, or none");
  cmd::Ablate a;
  std::string set_text;
  std::string_view after = rest;
  while (!after.empty()) {
    const size_t sp = after.find_first_of(" \t");
    const std::string_view word = after.substr(0, sp);
    if (word == "from" || word == "at" || word == "lane") break;
    set_text += std::string(word);
    after = sp == std::string_view::npos ? "" : trim_space(after.substr(sp));
  }
  Result<InterventionSet> set = parse_interventions(set_text);
  if (!set.ok()) return set.error();
  if (set_text.empty()) return make_error("needs components before '" + std::string(after) + "'");
  a.ablation.set = set.value();
  const size_t sp = after.find_first_of(" \t");
  if (const std::string_view mode = after.substr(0, sp); mode == "from" || mode == "at") {
    a.ablation.from_here_on = mode == "from";
    after = sp == std::string_view::npos ? "" : trim_space(after.substr(sp));
  }
  if (!after.empty()) {
    if (after.substr(0, 5) != "lane ") return make_error("expected 'lane N' after the set");
    Result<int> lane = int_arg(trim_space(after.substr(5)), "a lane number", 0);
    if (!lane.ok()) return lane.error();
    a.lane = lane.value();
  }
  return SessionCommand{a};
}

// The options after beam's width or speculate's file: "NAME VALUE" pairs, each NAME one of
// `names`, each VALUE a number; `set` receives them in order.
template <class Set>
Status named_numbers(std::string_view rest, std::initializer_list<std::string_view> names,
                     Set set) {
  while (!(rest = trim_space(rest)).empty()) {
    const size_t sp = rest.find_first_of(" \t");
    const std::string_view name = rest.substr(0, sp);
    if (std::find(names.begin(), names.end(), name) == names.end())
      return make_error("unknown option '" + std::string(name) + "'");
    rest = sp == std::string_view::npos ? "" : trim_space(rest.substr(sp));
    const std::string_view value = rest.substr(0, rest.find_first_of(" \t"));
    // strtod, not from_chars: the web build's libc++ has no floating-point from_chars
    const std::string text(value);
    char* end = nullptr;
    const double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
      return make_error(std::string(name) + " needs a number, got '" + text + "'");
    set(name, v);
    rest = rest.substr(value.size());
  }
  return ok_status();
}

// chat [system "TEXT"] TEXT
Result<SessionCommand> parse_chat(std::string_view rest) {
  cmd::Chat c;
  if (rest.rfind("system", 0) == 0 && rest.size() > 6 && (rest[6] == ' ' || rest[6] == '\t')) {
    std::string_view after = trim_space(rest.substr(6));
    if (after.empty() || after.front() != '"') return make_error("system needs a quoted text");
    Result<std::string> sys = parse_quoted(after, rest);
    if (!sys.ok()) return sys.error();
    c.system = sys.value();
  }
  Result<std::string> user = text_argument(rest, "the user's message");
  if (!user.ok()) return user.error();
  c.user = user.value();
  return SessionCommand{c};
}

// beam W [alpha A] [tokens N]
Result<SessionCommand> parse_beam(std::string_view rest) {
  const size_t sp = rest.find_first_of(" \t");
  Result<int> w = int_arg(rest.substr(0, sp), "a beam width", 1);
  if (!w.ok()) return w.error();
  cmd::Beam b;
  b.width = w.value();
  const Status st = named_numbers(sp == std::string_view::npos ? "" : rest.substr(sp),
                                  {"alpha", "tokens"}, [&](std::string_view name, double v) {
                                    if (name == "alpha") b.length_penalty = v;
                                    else b.max_tokens = static_cast<int>(v);
                                  });
  if (!st.ok()) return st.error();
  return SessionCommand{b};
}

// speculate [FILE] [k K] [tokens N]   (FILE may be quoted; none: the draft used before)
Result<SessionCommand> parse_speculate(std::string_view rest) {
  cmd::Speculate c;
  if (!rest.empty() && rest.front() == '"') {
    std::string_view after;
    Result<std::string> t = parse_quoted(rest, after);
    if (!t.ok()) return t.error();
    c.draft = t.value();
    rest = after;
  } else if (!rest.empty() && rest.substr(0, 2) != "k " && rest.substr(0, 7) != "tokens ") {
    const size_t sp = rest.find_first_of(" \t");
    c.draft = std::string(rest.substr(0, sp));
    rest = sp == std::string_view::npos ? "" : rest.substr(sp);
  }
  const Status st = named_numbers(rest, {"k", "tokens"}, [&](std::string_view name, double v) {
    if (name == "k") c.k = static_cast<int>(v);
    else c.max_tokens = static_cast<int>(v);
  });
  if (!st.ok()) return st.error();
  return SessionCommand{c};
}

Result<SessionCommand> parse_words(std::string_view word, std::string_view rest) {
  auto wrap = [](auto r) -> Result<SessionCommand> {
    if (!r.ok()) return r.error();
    return SessionCommand{r.value()};
  };
  if (word == "step" || word == "back" || word == "into") {
    Result<int> n = count_arg(rest);
    if (!n.ok()) return n.error();
    if (word == "step") return SessionCommand{cmd::Step{n.value()}};
    if (word == "into") return SessionCommand{cmd::StepInto{n.value()}};
    return SessionCommand{cmd::Back{n.value()}};
  }
  if (word == "seek" || word == "run-to") {
    Result<int> n = int_arg(rest, "a step number", -1);
    if (!n.ok()) return n.error();
    if (word == "seek") return SessionCommand{cmd::Seek{n.value()}};
    return SessionCommand{cmd::RunTo{n.value()}};
  }
  if (word == "first" || word == "last" || word == "play" || word == "pause") {
    TS_TRY(no_arg(rest));
    if (word == "first") return SessionCommand{cmd::First{}};
    if (word == "last") return SessionCommand{cmd::Last{}};
    if (word == "play") return SessionCommand{cmd::Play{}};
    return SessionCommand{cmd::Pause{}};
  }
  if (word == "force") return parse_force(rest);
  if (word == "prompt") {
    Result<std::string> t = text_argument(rest, "the prompt text");
    if (!t.ok()) return t.error();
    return SessionCommand{cmd::SetPrompt{t.value()}};
  }
  if (word == "sampler" || word == "branch-sampler") {
    if (rest.empty()) return make_error("needs a sampler spec (greedy, temp=0.8 top-k=40 ...)");
    Result<SamplerSettings> s = parse_sampler_spec(rest);
    if (!s.ok()) return s.error();
    if (word == "sampler") return SessionCommand{cmd::SetSampler{0, s.value()}};
    return SessionCommand{cmd::BranchSampler{0, s.value()}};
  }
  if (word == "lanes") {
    if (rest.empty()) return make_error("needs sampler specs, e.g. lanes greedy; temp=1.0");
    Result<std::vector<SamplerSettings>> l = parse_lane_specs(rest);
    if (!l.ok()) return l.error();
    if (l->empty()) return make_error("needs at least one sampler spec");
    return SessionCommand{cmd::SetLanes{l.value()}};
  }
  if (word == "record") {
    if (rest == "off") return SessionCommand{cmd::SetRecordLevel{RecordLevel::Off}};
    if (rest == "summary") return SessionCommand{cmd::SetRecordLevel{RecordLevel::Summary}};
    if (rest == "full") return SessionCommand{cmd::SetRecordLevel{RecordLevel::Full}};
    return make_error("needs off, summary or full, got '" + std::string(rest) + "'");
  }
  if (word == "max-tokens") {
    Result<int> n = int_arg(rest, "a token count", 1);
    if (!n.ok()) return n.error();
    return SessionCommand{cmd::SetMaxTokens{n.value()}};
  }
  if (word == "stop") {
    if (rest == "none") return SessionCommand{cmd::SetStopStrings{}};
    if (rest.empty() || rest.front() != '"') {
      return make_error("needs a quoted piece, e.g. stop \".\", or none");
    }
    return wrap([&]() -> Result<cmd::AddStopString> {
      Result<std::string> t = text_argument(rest, "a quoted piece");
      if (!t.ok()) return t.error();
      return cmd::AddStopString{t.value()};
    }());
  }
  if (word == "ablate") return parse_ablate(rest);
  if (word == "beam") return parse_beam(rest);
  if (word == "speculate") return parse_speculate(rest);
  if (word == "chat") return parse_chat(rest);
  return make_error("unknown command '" + std::string(word) + "'");
}

constexpr std::string_view kVerbs[] = {"step",       "back",    "into",           "seek",  "first",
                                       "last",       "run-to",  "play",           "pause", "force",
                                       "prompt",     "sampler", "branch-sampler", "lanes", "record",
                                       "max-tokens", "stop",    "ablate",         "beam",  "speculate",
                                       "chat"};

}  // namespace

bool is_command_verb(std::string_view word) {
  for (std::string_view v : kVerbs) {
    if (v == word) return true;
  }
  return false;
}

std::vector<std::string_view> command_verbs() {
  return std::vector<std::string_view>(std::begin(kVerbs), std::end(kVerbs));
}

Result<SessionCommand> parse_command(std::string_view line) {
  line = trim_space(line);
  const size_t sp = line.find_first_of(" \t");
  const std::string_view word = line.substr(0, sp);
  const std::string_view rest = sp == std::string_view::npos ? "" : trim_space(line.substr(sp));
  Result<SessionCommand> c = parse_words(word, rest);
  if (!c.ok() && is_command_verb(word)) {
    return make_error(std::string(word) + ": " + c.error().message);
  }
  return c;
}

const char* command_name(const SessionCommand& c) {
  static const char* const names[] = {
      "step",       "step into",    "set phase",      "back",         "seek",
      "first",      "last",         "run to",         "play",         "pause",
      "play/pause", "speed",        "force",          "force",        "switch branch",
      "set prompt", "set sampler",  "branch sampler", "add lane",     "remove lane",
      "set lanes",  "record level", "max tokens",     "stop strings", "add stop string",
      "load model", "ablate",       "beam search",    "speculative",  "chat"};
  static_assert(sizeof names / sizeof names[0] == std::variant_size_v<SessionCommand>);
  return names[c.index()];
}

Result<int> token_for_piece(const Session& s, const std::string& piece) {
  if (!has_model(s)) return make_error("no model is loaded");
  const Tokenizer& tok = s.tokenizer();
  int id = -1;
  if (piece.size() > 1 && piece[0] == '#') {
    const std::string_view digits = std::string_view(piece).substr(1);
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size() || id < 0 ||
        id >= tok.vocab_size())
      id = -1;
  }
  if (id < 0) id = tok.find_text(piece);
  if (id < 0) return make_error("no token is exactly \"" + piece + "\"");
  return id;
}

Status apply_command(Session& s, const SessionCommand& c, float play_speed) {
  return std::visit(
      [&](const auto& x) -> Status {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, cmd::Step>) {
          for (int i = 0; i < x.n; ++i) TS_TRY(s.step());
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::StepInto>) {
          for (int i = 0; i < x.n; ++i) TS_TRY(step_into(s));
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::SetPhase>) {
          return s.set_phase(x.phase);
        } else if constexpr (std::is_same_v<T, cmd::Back>) {
          for (int i = 0; i < x.n; ++i) TS_TRY(back(s));
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::Seek>) {
          return s.seek(x.step);
        } else if constexpr (std::is_same_v<T, cmd::First>) {
          return first(s);
        } else if constexpr (std::is_same_v<T, cmd::Last>) {
          return last(s);
        } else if constexpr (std::is_same_v<T, cmd::RunTo>) {
          return s.run_to(x.step);
        } else if constexpr (std::is_same_v<T, cmd::Play> || std::is_same_v<T, cmd::TogglePlay>) {
          if (std::is_same_v<T, cmd::TogglePlay> && is_playing(s)) return pause(s);
          return s.play(play_speed);
        } else if constexpr (std::is_same_v<T, cmd::Pause>) {
          return pause(s);
        } else if constexpr (std::is_same_v<T, cmd::SetSpeed>) {
          if (is_playing(s)) return s.play(x.steps_per_second);
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::Force>) {
          return s.force(x.token_id, x.lane);
        } else if constexpr (std::is_same_v<T, cmd::ForcePiece>) {
          Result<int> id = token_for_piece(s, x.piece);
          if (!id.ok()) return id.error();
          return s.force(id.value(), x.lane);
        } else if constexpr (std::is_same_v<T, cmd::SwitchBranch>) {
          return s.switch_branch(x.node, x.lane);
        } else if constexpr (std::is_same_v<T, cmd::SetPrompt>) {
          return s.set_prompt(x.text);
        } else if constexpr (std::is_same_v<T, cmd::SetSampler>) {
          return s.set_sampler(x.lane, x.settings);
        } else if constexpr (std::is_same_v<T, cmd::BranchSampler>) {
          if (s.cursor() >= 0) return s.branch_sampler(x.lane, x.settings);
          return s.set_sampler(x.lane, x.settings);
        } else if constexpr (std::is_same_v<T, cmd::AddLane>) {
          Result<int> r = s.add_lane(x.settings);
          if (!r.ok()) return r.error();
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::RemoveLane>) {
          return s.remove_lane(x.lane);
        } else if constexpr (std::is_same_v<T, cmd::SetLanes>) {
          if (x.lanes.empty()) return make_error("lanes: needs at least one sampler");
          while (lane_count(s) > 1) TS_TRY(s.remove_lane(lane_count(s) - 1));
          TS_TRY(s.set_sampler(0, x.lanes[0]));
          for (size_t i = 1; i < x.lanes.size(); ++i) {
            Result<int> r = s.add_lane(x.lanes[i]);
            if (!r.ok()) return r.error();
          }
          return ok_status();
        } else if constexpr (std::is_same_v<T, cmd::SetRecordLevel>) {
          return set_record_level(s, x.level);
        } else if constexpr (std::is_same_v<T, cmd::SetMaxTokens>) {
          return set_max_tokens(s, x.n);
        } else if constexpr (std::is_same_v<T, cmd::SetStopStrings>) {
          return set_stop_strings(s, x.stops);
        } else if constexpr (std::is_same_v<T, cmd::AddStopString>) {
          std::vector<std::string> stops = stop_strings(s);
          stops.push_back(x.stop);
          return set_stop_strings(s, stops);
        } else if constexpr (std::is_same_v<T, cmd::LoadModel>) {
          return s.load_model(x.path, x.tokenizer_path);
        } else if constexpr (std::is_same_v<T, cmd::Ablate>) {
          return s.ablate(x.ablation, x.lane);
        } else if constexpr (std::is_same_v<T, cmd::Beam>) {
          return run_beam(s, x.width, x.length_penalty, x.max_tokens);
        } else if constexpr (std::is_same_v<T, cmd::Speculate>) {
          return run_speculative(s, x.draft, x.k, x.max_tokens);
        } else {
          static_assert(std::is_same_v<T, cmd::Chat>);
          Result<std::string> prompt = chat_prompt(s, x.user, x.system);
          if (!prompt.ok()) return prompt.error();
          return s.set_prompt(prompt.value());
        }
      },
      c);
}

}  // namespace ts
