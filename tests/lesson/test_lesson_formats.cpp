// The lesson action compare-formats and the checks that read its rows, format-bytes(TYPE) and
// format-speed(TYPE), on the shipped model: without a comparison on the page the checks fail
// with a message; with it they compare real numbers; an unknown format is named.
#include <doctest/doctest.h>

#include <string>

#include "lesson/lesson_runner.h"

using namespace ts;

TEST_CASE("lesson: compare-formats and the format checks") {
  CHECK(parse_action_syntax("compare-formats").ok());
  CHECK_FALSE(parse_action_syntax("compare-formats Q4_K").ok());
  const char* text = R"(---
title: Formats
---
## Before
```do
model default
prompt "Once upon a time"
step 2
```

```expect
format-bytes(F32) > 0
```

## Measured
```do
compare-formats
```

```expect
format-bytes(Q4_K) < format-bytes(Q8_0)
format-bytes(Q8_0) < format-bytes(F32)
format-speed(Q4_K) > 0
format-bytes(Q2_K) > 0
```
)";
  Result<Lesson> l = parse_lesson(text, "formats.md");
  REQUIRE_MESSAGE(l.ok(), l.error().message);
  Session s;
  LessonRunner run(l.value(), LessonContext{TS_SOURCE_DIR, ""});
  REQUIRE(run.goto_page(s, 0).ok());
  std::vector<CheckResult> before = run.check_page(s);
  REQUIRE(before.size() == 1);
  CHECK_FALSE(before[0].ok);
  CHECK(before[0].message.find("no format comparison") != std::string::npos);
  REQUIRE(run.next(s).ok());
  REQUIRE(run.hints().formats.has_value());
  CHECK(run.hints().formats->rows.size() == 3);
  std::vector<CheckResult> after = run.check_page(s);
  REQUIRE(after.size() == 4);
  for (int i = 0; i < 3; ++i) CHECK_MESSAGE(after[i].ok, after[i].message);
  CHECK_FALSE(after[3].ok);
  CHECK(after[3].message.find("no format 'Q2_K'") != std::string::npos);
}
