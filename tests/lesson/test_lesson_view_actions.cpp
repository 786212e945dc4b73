// The lesson actions that set the screen rather than the session: view raw|final|STAGE,
// no-cache on|off, heads all|N, size PANEL N%, and focus (which stays until a page names
// another); their syntax errors, and the hints a runner gives the app over the shipped model.
#include <doctest/doctest.h>

#include "lesson/lesson_runner.h"
#include "lesson/test_panel_names.h"

using namespace ts;

TEST_CASE("lesson view actions: syntax") {
  test::register_lesson_panels();
  const char* good[] = {"view raw",         "view final",          "view top-k",
                        "no-cache on",      "no-cache off",        "heads all",
                        "heads 2",          "size kv-cache 60%",   "size lesson 40",
                        "focus next-token", "show next-token cost", "view map",
                        "view receipt",     "rival \" the\"",     "rival #263"};
  for (const char* g : good) {
    CAPTURE(g);
    CHECK(parse_action_syntax(g).ok());
  }
  const char* bad[] = {"view",
                       "view top k",
                       "no-cache maybe",
                       "heads",
                       "heads -1",
                       "heads some",
                       "size kv-cache",
                       "size kv-cache 5%",
                       "size kv-cache 95%",
                       "size nothing 50%",
                       "focus nothing",
                       "rival",
                       "rival \" the\" \" a\""};
  for (const char* b : bad) {
    CAPTURE(b);
    CHECK_FALSE(parse_action_syntax(b).ok());
  }
}

TEST_CASE("lesson view actions: the runner's hints, kept over pages; focus stays") {
  test::register_lesson_panels();
  const char* text = R"(---
title: Screen actions
model: models/tales-4m.gguf
sampler: temp=1.0 top-k=5 seed=1
---

## One
```do
prompt "I resonate"
step
focus kv-cache
no-cache on
heads 1
size lesson 40%
view top-k
```

## Two
```do
step
heads all
size kv-cache 60%
```

## Three
```do
focus next-token
view raw
no-cache off
```
)";
  Result<Lesson> l = parse_lesson(text, "screen.md");
  REQUIRE(l.ok());
  Session s;
  LessonRunner run(l.value(), LessonContext{TS_SOURCE_DIR, ""});
  REQUIRE(run.goto_page(s, 0).ok());
  CHECK(run.hints().focus == "kv-cache");
  CHECK(run.hints().no_cache == 1);
  CHECK(run.hints().heads == "1");
  CHECK(run.hints().view == "top-k");
  REQUIRE(run.hints().sizes.size() == 1);
  CHECK(run.hints().sizes[0] == std::make_pair(std::string("lesson"), 40));
  REQUIRE(run.next(s).ok());
  CHECK(run.hints().focus == "kv-cache");  // page two names no panel: the focus stays
  CHECK(run.hints().heads == "all");
  CHECK(run.hints().sizes.size() == 2);
  REQUIRE(run.next(s).ok());
  CHECK(run.hints().focus == "next-token");
  CHECK(run.hints().view == "raw");
  CHECK(run.hints().no_cache == 0);
  REQUIRE(run.back(s).ok());  // Back replays from the start: exactly page two's state
  CHECK(run.hints().focus == "kv-cache");
  CHECK(run.hints().view == "top-k");
  CHECK(run.hints().no_cache == 1);

  // A stage the sampler chain does not have is an error with the line.
  Result<Lesson> typo = parse_lesson(R"(---
title: Typo
model: models/tales-4m.gguf
---

## One
```do
prompt "I"
view no-such-stage
```
)",
                                     "typo.md");
  REQUIRE(typo.ok());
  LessonRunner bad(typo.value(), LessonContext{TS_SOURCE_DIR, ""});
  const Status st = bad.goto_page(s, 0);
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("typo.md:9: view") != std::string::npos);
}
