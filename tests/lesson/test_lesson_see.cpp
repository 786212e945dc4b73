// The ```see language (what must be visible) and the ```reveal block: parsing with file:line
// errors, evaluation over a hand-made screen record (only visible items count), Markdown lists
// kept as lines in the narration, and reveal actions run when the question is revealed.
#include <doctest/doctest.h>

#include "lesson/lesson_runner.h"
#include "lesson/test_panel_names.h"
#include "lesson/lesson_syntax.h"
#include "tokenizer/tokenizer.h"

using namespace ts;

namespace {

std::string show(std::string_view s) { return visible_bytes(s); }

SeeLine see(const std::string& line) {
  Result<SeeLine> r = parse_see_syntax(line);
  REQUIRE_MESSAGE(r.ok(), line);
  return r.value();
}

bool holds(const std::string& line, const ScreenRecord& r) {
  return evaluate_see(see(line), r, "x.md", show).ok;
}

}  // namespace

TEST_CASE("see lines: syntax") {
  // The app registers its panels' names at start-up; this test stands in for it.
  test::register_lesson_panels();
  CHECK(see("bar \" Priya\"").text == " Priya");
  CHECK(see("bars 8").count == 8);
  CHECK(see("lane greedy \" the house\"").name == "greedy");
  CHECK(see("panel branches").name == "branches");
  CHECK(see("item attention_mini 16").count == 16);
  CHECK(see("item roof_decode").name == "roof_decode");
  CHECK(see("item bar \"␣Mia\" 1").text == "␣Mia");
  for (const char* bad : {"bar Priya", "bars", "bars 0", "bars x", "lane \" x\"", "panel nowhere",
                          "status", "glow \"x\"", "item", "item k \"a\" 2 3", "\"bar\""}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_see_syntax(bad).ok());
  }
}

TEST_CASE("see lines hold only over what is visible") {
  test::register_lesson_panels();
  ScreenRecord r;
  r.items = {{"bar", "␣Priya", "kept", "Next token", true},
             {"bar", "␣Nora", "kept", "Next token", false},  // scrolled away
             {"prompt_chip", "␣once", "", "Tokens", true},
             {"panel", "branches", "", "Branches", true},
             {"status", "stopped: max tokens", "", "Status", true},
             {"lane_line", "and unto the house ", "greedy", "Compare lanes", true},
             {"lane_line", "of the LORD", "greedy", "Compare lanes", true},
             {"lane_newest", "␣LORD", "greedy", "Compare lanes", true},
             {"lane_line", "a cat sat", "temp=0.8 seed=3", "Compare lanes", true},
             {"lane_newest", "␣sat", "temp=0.8 seed=3", "Compare lanes", false},
             {"attention_mini", "0 0", "", "Attention", true},
             {"attention_mini", "0 1", "", "Attention", true}};
  CHECK(holds("bar \" Priya\"", r));
  CHECK_FALSE(holds("bar \" Nora\"", r));
  CHECK_FALSE(holds("bar \" Leah\"", r));
  CHECK(holds("bars 1", r));
  CHECK_FALSE(holds("bars 2", r));
  CHECK(holds("chip \" once\"", r));
  CHECK(holds("panel branches", r));
  CHECK_FALSE(holds("panel attention", r));
  CHECK(holds("status \"max tokens\"", r));
  CHECK(holds("lane greedy \"house of the LORD\"", r));  // across a line break
  CHECK_FALSE(holds("lane greedy \"a cat\"", r));
  CHECK_FALSE(holds("lane temp=0.8 \"a cat\"", r));  // its newest token is not in view
  CHECK(holds("item attention_mini 2", r));
  CHECK_FALSE(holds("item attention_mini 3", r));
  CHECK(holds("text \"unto\"", r));
  const SeeResult miss = evaluate_see(see("bar \" Nora\""), r, "x.md", show);
  CHECK(miss.message.find("not visible") != std::string::npos);
}

TEST_CASE("lesson text keeps list items on lines of their own; see and reveal blocks parse") {
  const char* text = R"(---
title: t
---
## Page
Two ways:
- greedy
- sampling
and a tail.

```ask
Which?
```

```reveal
step 2
```

```see
bars 3
```
)";
  Result<Lesson> l = parse_lesson(text, "t.md");
  REQUIRE(l.ok());
  const LessonPage& p = l->pages[0];
  CHECK(p.text == "Two ways:\n- greedy\n- sampling and a tail.");
  REQUIRE(p.reveal_actions.size() == 1);
  CHECK(p.reveal_actions[0].verb == "step");
  REQUIRE(p.sees.size() == 1);
  CHECK(p.sees[0].line == 19);
  // A reveal block needs a question; a bad see line names its place.
  CHECK_FALSE(parse_lesson("---\ntitle: t\n---\n## P\n```reveal\nstep\n```\n", "t.md").ok());
  Result<Lesson> bad = parse_lesson("---\ntitle: t\n---\n## P\n```see\nbars many\n```\n", "t.md");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.rfind("t.md:6:", 0) == 0);
}

TEST_CASE("reveal actions run when the question is revealed, and again when a later page replays") {
  const std::string model = std::string(TS_SOURCE_DIR) + "/models/tales-4m.gguf";
  const std::string text = "---\ntitle: t\nmodel: " + model +
                           "\nsampler: greedy\n---\n## Ask\n```do\nprompt \"Once upon a time\"\nstep\n"
                           "```\n```ask\nWhat next?\n```\n```reveal\nstep 3\n```\n## After\nText.\n";
  Result<Lesson> l = parse_lesson(text, "t.md");
  REQUIRE(l.ok());
  Session s;
  LessonRunner run(l.value(), LessonContext{TS_SOURCE_DIR, ""});
  REQUIRE(run.goto_page(s, 0).ok());
  CHECK(s.cursor() == 0);
  CHECK(run.hints().hide_distribution);
  REQUIRE(run.next(s).ok());  // the reveal: its actions run, the page stays
  CHECK(run.page() == 0);
  CHECK(s.cursor() == 3);
  CHECK_FALSE(run.hints().hide_distribution);
  REQUIRE(run.next(s).ok());
  CHECK(run.page() == 1);
  REQUIRE(run.goto_page(s, 1).ok());  // replayed from the start: page 0 was revealed
  CHECK(s.cursor() == 3);
  REQUIRE(run.back(s).ok());  // back on the question: hidden again, before its reveal
  CHECK(s.cursor() == 0);
  CHECK(run.hints().hide_distribution);
}
