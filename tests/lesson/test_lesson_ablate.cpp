// The session's `ablate` in a lesson's do-lines: the same text form as scripts (session/command.h),
// checked when the lesson is read and applied by the runner (a branch with the intervention).
#include <doctest/doctest.h>

#include "lesson/lesson_runner.h"
#include "session/path_queries.h"
#include "session/session_access.h"

using namespace ts;

TEST_CASE("lesson: ablate in do-lines") {
  for (const char* g : {"ablate L0.H1", "ablate L1.mlp=0.5,L0.attn at", "ablate none"}) {
    CAPTURE(g);
    CHECK(parse_action_syntax(g).ok());
  }
  for (const char* b : {"ablate", "ablate L0.Q1", "ablate L0.H1 sometimes"}) {
    CAPTURE(b);
    CHECK_FALSE(parse_action_syntax(b).ok());
  }
  const char* text = R"(---
title: Switch a head off
model: models/tales-4m.gguf
sampler: greedy
---

## One
```do
prompt "Once upon a time"
run-to 3
ablate L3.mlp from
step 2
```
)";
  Result<Lesson> l = parse_lesson(text, "ablate.md");
  REQUIRE_MESSAGE(l.ok(), (l.ok() ? "" : l.error().message));
  Session s;
  LessonRunner run(l.value(), LessonContext{TS_SOURCE_DIR, ""});
  const Status st = run.goto_page(s, 0);
  REQUIRE_MESSAGE(st.ok(), (st.ok() ? "" : st.error().message));
  CHECK(s.cursor() == 5);
  for (int k = 0; k <= 5; ++k) {
    CHECK(step_at(s, 0, k)->ablation.empty() == (k < 3));
  }
}
