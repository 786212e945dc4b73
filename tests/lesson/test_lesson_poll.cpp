// A lesson's class poll lines: poll-open and poll-close take nothing; poll-wait parses (the one
// verb table) and is refused when its page runs (in a lesson the teacher turns the page); the runner gives each page's poll
// action to the app as a hint, per page (not carried over), and a reveal may close the poll.
#include <doctest/doctest.h>

#include "lesson/lesson_runner.h"
#include "test_panel_names.h"

using namespace ts;

TEST_CASE("lesson poll actions: syntax") {
  CHECK(parse_action_syntax("poll-open").ok());
  CHECK(parse_action_syntax("poll-close").ok());
  CHECK_FALSE(parse_action_syntax("poll-open now").ok());
  CHECK_FALSE(parse_action_syntax("poll-close 3").ok());
  // poll-wait is a verb of the one table: it parses, and a lesson page running it says it is
  // for scripts (the teacher turns the page once the class has answered).
  CHECK(parse_action_syntax("poll-wait 20").ok());
  CHECK_FALSE(parse_action_syntax("poll-wait 0").ok());
}

TEST_CASE("lesson poll actions: the runner's hint is per page; a reveal can close") {
  test::register_lesson_panels();
  const char* text = R"(---
title: Poll
model: models/tales-4m.gguf
---

## Guess
```do
prompt "Once upon a time"
step
poll-open
```
```ask
What comes next?
```
```reveal
poll-close
```

## After
```do
step
```
)";
  Result<Lesson> l = parse_lesson(text, "poll.md");
  REQUIRE(l.ok());
  Session s;
  LessonRunner run(l.value(), LessonContext{TS_SOURCE_DIR, ""});
  REQUIRE(run.goto_page(s, 0).ok());
  CHECK(run.hints().poll == "open");
  REQUIRE(run.next(s).ok());  // the reveal
  CHECK(run.hints().poll == "close");
  REQUIRE(run.next(s).ok());
  CHECK(run.hints().poll.empty());
  REQUIRE(run.back(s).ok());  // replayed from the first page: its question again
  CHECK(run.hints().poll == "open");
}

TEST_CASE("lesson poll actions: a page's poll-wait is refused when it runs, naming its line") {
  test::register_lesson_panels();
  const char* text = "---\ntitle: Wait\nmodel: models/tales-4m.gguf\n---\n\n## p\n```do\n"
                     "poll-wait 20\n```\n";
  Result<Lesson> l = parse_lesson(text, "wait.md");
  REQUIRE(l.ok());
  Session s;
  LessonRunner run(l.value(), LessonContext{TS_SOURCE_DIR, ""});
  Status st = run.goto_page(s, 0);
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("wait.md:8: poll-wait: 'poll-wait' is for scripts") == 0);
}
