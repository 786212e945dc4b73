// The command vocabulary (session/command.h): every word of the text form parses to its value,
// bad lines give one-line errors naming the word, and applying commands to a Session on the
// shipped model does what the Session's own calls do (force by piece or by #id, lanes, stop).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "session/command.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

using namespace ts;

TEST_CASE("command: the text form parses to values") {
  auto parse = [](const char* line) {
    Result<SessionCommand> c = parse_command(line);
    REQUIRE_MESSAGE(c.ok(), line << ": " << c.error().message);
    return c.value();
  };
  CHECK(std::get<cmd::Step>(parse("step")).n == 1);
  CHECK(std::get<cmd::Step>(parse("step 5")).n == 5);
  CHECK(std::get<cmd::Back>(parse("back 2")).n == 2);
  CHECK(std::get<cmd::StepInto>(parse("into 3")).n == 3);
  CHECK(std::get<cmd::Seek>(parse("seek -1")).step == -1);
  CHECK(std::get<cmd::RunTo>(parse("run-to 40")).step == 40);
  CHECK(std::holds_alternative<cmd::First>(parse("first")));
  CHECK(std::holds_alternative<cmd::Last>(parse(" last ")));
  const auto f = std::get<cmd::ForcePiece>(parse("force \" the\" lane 1"));
  CHECK(f.piece == " the");
  CHECK(f.lane == 1);
  CHECK(std::get<cmd::ForcePiece>(parse("force dog")).piece == "dog");
  CHECK(std::get<cmd::ForcePiece>(parse("force #42")).piece == "#42");
  CHECK(std::get<cmd::SetPrompt>(parse("prompt \"Once\\nupon\"")).text == "Once\nupon");
  CHECK(std::get<cmd::SetPrompt>(parse("prompt Once upon a time")).text == "Once upon a time");
  CHECK(stage_or_off<Temperature>(
            std::get<cmd::SetSampler>(parse("sampler temp=0.5 seed=3")).settings)
            .t == doctest::Approx(0.5));
  CHECK(stage_or_off<Temperature>(
            std::get<cmd::BranchSampler>(parse("branch-sampler greedy")).settings)
            .t == 0);
  CHECK(std::get<cmd::SetLanes>(parse("lanes greedy; temp=1.0 seed=7")).lanes.size() == 2);
  CHECK(std::get<cmd::SetRecordLevel>(parse("record summary")).level == RecordLevel::Summary);
  CHECK(std::get<cmd::SetMaxTokens>(parse("max-tokens 12")).n == 12);
  CHECK(std::get<cmd::AddStopString>(parse("stop \".\"")).stop == ".");
  CHECK(std::get<cmd::SetStopStrings>(parse("stop none")).stops.empty());
  CHECK(is_command_verb("run-to"));
  CHECK_FALSE(is_command_verb("screenshot"));

  const std::pair<const char*, const char*> bad[] = {
      {"step 0", "step: a count must be at least 1"},
      {"step two", "step: needs a count, got 'two'"},
      {"seek", "seek: needs a step number"},
      {"first now", "first: takes no argument"},
      {"force", "force: needs a token piece"},
      {"force \"x\" lane", "force: needs a lane number"},
      {"force \"x", "force: missing closing quote"},
      {"record loud", "record: needs off, summary or full"},
      {"stop x", "stop: needs a quoted piece"},
      {"sampler", "sampler: needs a sampler spec"},
      {"dance", "unknown command 'dance'"},
  };
  for (const auto& b : bad) {  // (clang 14 cannot capture a structured binding in a check)
    const char* line = b.first;
    const char* want = b.second;
    CAPTURE(line);
    Result<SessionCommand> c = parse_command(line);
    REQUIRE_FALSE(c.ok());
    CHECK_MESSAGE(c.error().message.rfind(want, 0) == 0, c.error().message);
    CHECK(c.error().message.find('\n') == std::string::npos);
  }
}

TEST_CASE("command: applied to a session on the shipped model") {
  Session s;
  auto apply = [&](const char* line) {
    Result<SessionCommand> c = parse_command(line);
    REQUIRE(c.ok());
    return apply_command(s, c.value());
  };
  REQUIRE(apply_command(s, cmd::LoadModel{std::string(TS_SOURCE_DIR) + "/models/tales-4m.gguf", ""})
              .ok());
  REQUIRE(apply("prompt \"Once upon a time, there was a little girl named\"").ok());
  REQUIRE(apply("lanes greedy; temp=1.0 seed=7").ok());
  CHECK(lane_count(s) == 2);
  REQUIRE(apply("step 3").ok());
  CHECK(s.cursor() == 2);
  const int id = s.tokenizer().find_text(" the");
  REQUIRE(id >= 0);
  REQUIRE(apply("force \" the\" lane 1").ok());
  CHECK(current_step(s, 1)->token == id);
  REQUIRE(apply(("force #" + std::to_string(id)).c_str()).ok());
  CHECK(current_step(s, 0)->token == id);
  const Status missing = apply("force \"no such piece xyz\"");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == "no token is exactly \"no such piece xyz\"");
  REQUIRE(apply("stop \".\"").ok());
  REQUIRE(apply("stop \"!\"").ok());
  CHECK(stop_strings(s).size() == 2);
  REQUIRE(apply("run-to 10").ok());
  REQUIRE(apply("seek 1").ok());
  CHECK(s.cursor() == 1);
  REQUIRE(apply("first").ok());
  CHECK(s.cursor() == -1);
  CHECK(command_name(SessionCommand{cmd::RunTo{3}}) == std::string("run to"));
}

TEST_CASE("command: chat renders the model's template into the prompt, special tokens and all") {
  Result<SessionCommand> c = parse_command("chat system \"Be brief.\" Tell me a tale about a fox.");
  REQUIRE_MESSAGE(c.ok(), c.error().message);
  CHECK(std::get<cmd::Chat>(c.value()).system == "Be brief.");
  CHECK(std::get<cmd::Chat>(c.value()).user == "Tell me a tale about a fox.");
  CHECK(std::get<cmd::Chat>(parse_command("chat \"Hi\"").value()).user == "Hi");
  CHECK(std::get<cmd::Chat>(parse_command("chat \"Hi\"").value()).system.empty());
  CHECK(command_name(c.value()) == std::string("chat"));
  REQUIRE_FALSE(parse_command("chat").ok());
  REQUIRE_FALSE(parse_command("chat system Be brief").ok());

  Session s;
  REQUIRE(apply_command(s, cmd::LoadModel{std::string(TS_SOURCE_DIR) + "/models/tales-4m.gguf", ""})
              .ok());
  const Status refused = apply_command(s, cmd::Chat{"Tell me a tale.", ""});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.rfind("this model has no chat template", 0) == 0);
  CHECK(refused.error().message.find('\n') == std::string::npos);

  REQUIRE(apply_command(
              s, cmd::LoadModel{std::string(TS_SOURCE_DIR) + "/models/tales-chat-4m.gguf", ""})
              .ok());
  REQUIRE(apply_command(s, c.value()).ok());
  const int start = s.tokenizer().find_text("<|im_start|>");
  const int end = s.tokenizer().find_text("<|im_end|>");
  REQUIRE(start >= 0);
  REQUIRE(end >= 0);
  const std::vector<int>& ids = prompt_tokens(s);
  // system turn, user turn, and the assistant's opening: three starts, two ends, each one token
  CHECK(std::count(ids.begin(), ids.end(), start) == 3);
  CHECK(std::count(ids.begin(), ids.end(), end) == 2);
  CHECK(ids.back() != end);
  CHECK(prompt_text(s).find("<|im_start|>user\nTell me a tale about a fox.<|im_end|>\n") !=
        std::string::npos);
  const std::string opening = "<|im_start|>assistant\n";
  REQUIRE(prompt_text(s).size() > opening.size());
  CHECK(prompt_text(s).substr(prompt_text(s).size() - opening.size()) == opening);

  // Lesson 16's claims: greedy copies the requested name, and layer 2's heads 0, 2 and 3 put
  // nearly all their weight on it when they do.
  REQUIRE(apply_command(s, cmd::Chat{"Tell me a story about a fox named Lily who gets lost.", ""})
              .ok());
  SamplerSettings greedy;
  stage<Temperature>(greedy).t = 0.0f;
  REQUIRE(s.set_sampler(0, greedy).ok());
  REQUIRE(set_record_level(s, RecordLevel::Full).ok());
  REQUIRE(s.run_to(19).ok());
  const Step* named = current_step(s, 0);
  REQUIRE(named != nullptr);
  CHECK(s.tokenizer().display_piece(named->token) ==
        s.tokenizer().display_piece(s.tokenizer().find_text(" Lily")));
  const std::vector<int>& ask = prompt_tokens(s);
  const auto lily = std::find(ask.begin(), ask.end(), s.tokenizer().find_text(" Lily"));
  REQUIRE(lily != ask.end());
  REQUIRE(named->forward != nullptr);
  REQUIRE(named->forward->attention.size() == 4);
  for (int head : {0, 2, 3}) {
    CAPTURE(head);
    CHECK(named->forward->attention[2].at(head, 0, static_cast<int>(lily - ask.begin())) > 0.9f);
  }
}
