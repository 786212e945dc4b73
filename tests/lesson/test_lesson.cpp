// Tests of the lesson format (parser errors carry file:line), the check language, a lesson run
// against the golden llama2.c model (aidreams260K), whose greedy text is known, and a failing
// action that must come back as an error line.
#include <doctest/doctest.h>

#include "lesson/test_panel_names.h"

#include <cstdlib>
#include <filesystem>

#include "golden.h"
#include "lesson/lesson_runner.h"
#include "lesson/lesson_syntax.h"
#include "session/path_queries.h"
#include "session/session_access.h"

using namespace ts;

namespace {

const char* kGood = R"(---
title: A tiny lesson
model: llama2c/aidreams260K.bin
tokenizer: llama2c/tok512.bin
sampler: greedy
---

## The prompt
Text becomes tokens.

A second paragraph.

```do
prompt "I resonate"
show tokens
select position 2
```

```expect
prompt-tokens is 5
token 1 is " I"
```

## One step
```ask
What comes next?
```

```do
step
focus distribution
```

```expect
step is prefill
kv length is 5
chosen is ","
top-1 is ","
p(top-1) > 0.3
p(",") > 0.3
rank(chosen) is 1
```

## Two lanes
```do
lanes greedy; temp=1.5 seed=3
step 20
```

```expect
lanes diverge by step 20
lane 0: text contains " a tapestry of"
intensity(step 0) > intensity(step 3)
flops-no-cache(step 5) > flops(step 5)
step is decode
kv length is prompt-tokens + 20
cursor is 20
```
)";

}  // namespace

TEST_CASE("a lesson parses into pages, narration, actions, checks and a question") {
  auto l = parse_lesson(kGood, "good.md");
  REQUIRE_MESSAGE(l.ok(), (l.ok() ? "" : l.error().message));
  CHECK(l->title == "A tiny lesson");
  REQUIRE(l->pages.size() == 3);
  CHECK(l->pages[0].title == "The prompt");
  CHECK(l->pages[0].text == "Text becomes tokens.\n\nA second paragraph.");
  CHECK(l->pages[0].actions.size() == 3);
  CHECK(l->pages[0].checks.size() == 2);
  CHECK(l->pages[1].ask == "What comes next?");
  CHECK(l->pages[1].actions[0].verb == "step");
  CHECK(l->pages[1].actions[0].line == 30);
}

TEST_CASE("malformed lessons give an error with file and line") {
  // The app registers its panels' names at start-up; this test stands in for it.
  test::register_lesson_panels();
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"---\ntitle: x\n---\n## p\n```do\nstepp 2\n```\n", "bad.md:6: unknown action 'stepp'"},
      {"---\ntitle: x\n---\n## p\n```do\nstep two\n```\n", "bad.md:6: step: needs a count"},
      {"---\ntitle: x\n---\n## p\n```do\nstep 2\n", "bad.md:5: ```do block is never closed"},
      {"---\ntitle: x\n---\n## p\n```expect\ntop-1 \" a\"\n```\n", "bad.md:6: a check needs a comparison"},
      {"---\ntitle: x\n---\n## p\n```expect\nwobble is 3\n```\n", "bad.md:6: unknown quantity 'wobble'"},
      {"---\ntitle: x\n---\n## p\n```expect\nkv length is \"x\"\n```\n", "bad.md:6: 'kv-length' is a number"},
      {"---\ntitle: x\n---\n## p\n```dance\n```\n", "bad.md:5: unknown block"},
      {"---\ntitle: x\n---\nstray text\n## p\n", "bad.md:4: text before the first"},
      {"---\ntitle: x\n", "bad.md:1: front matter opened"},
      {"---\ntitle: x\n---\n", "bad.md:1: a lesson needs at least one"},
      {"## p\n", "bad.md:1: a lesson needs a title"},
      {"---\ntitle: x\n---\n## p\n```do\nshow wall\n```\n", "bad.md:6: show: unknown panel 'wall'"},
      {"---\ntitle: x\n---\n## p\n```do\nforce\n```\n", "bad.md:6: force: needs a token piece"},
      {"---\ntitle: x\n---\n## p\n```do\nlanes temp=hot\n```\n", "bad.md:6: lanes: sampler spec"},
      {"---\ntitle: \xFF\n---\n## p\n", "bad.md:1: the file is not valid UTF-8"},
  };
  for (const Case& c : cases) {
    auto l = parse_lesson(c.text, "bad.md");
    REQUIRE_MESSAGE(!l.ok(), c.text);
    CHECK_MESSAGE(l.error().message.rfind(c.expect, 0) == 0,
                  "got: " << l.error().message << "\nwanted: " << c.expect);
  }
}

TEST_CASE("check syntax: operands, lanes prefix and specials") {
  auto c = parse_check_syntax("lane 1: p(\" dog\") >= 0.25");
  REQUIRE(c.ok());
  CHECK(c->lane == 1);
  CHECK(c->lhs.text == "p");
  CHECK(c->lhs.arg == " dog");
  CHECK(c->lhs.arg_quoted);
  CHECK(c->op == ">=");
  CHECK(c->rhs.number == 0.25);
  auto d = parse_check_syntax("lanes diverge by step 5");
  REQUIRE(d.ok());
  CHECK(d->special == "diverge-by");
  CHECK(d->step == 5);
  auto e = parse_check_syntax("stop reason is max tokens");
  REQUIRE(e.ok());
  CHECK(e->lhs.text == "stop-reason");
  CHECK(e->rhs.text == "max tokens");
  auto f = parse_check_syntax("intensity(step 0) > intensity(step 3)");
  REQUIRE(f.ok());
  CHECK(f->lhs.arg == "0");
  CHECK(f->rhs.arg == "3");
  auto g = parse_check_syntax("kv length is prompt-tokens + 1");
  REQUIRE(g.ok());
  CHECK(g->rhs.text == "prompt-tokens");
  CHECK(g->rhs.offset == 1);
  CHECK_FALSE(parse_check_syntax("chosen is top-1 + 1").ok());
}

TEST_CASE("a lesson runs on the golden model: pages, checks, back and the question" *
          doctest::test_suite("golden")) {
  if (!ts::test::have_golden("llama2c/aidreams260K.bin")) return;
  auto l = parse_lesson(kGood, (ts::test::golden_dir() / "lesson.md").string());
  REQUIRE(l.ok());
  Session s;
  const LessonContext ctx{ts::test::golden_dir().string(), ""};
  const LessonReport rep = check_lesson(s, l.value(), ctx);
  for (const CheckResult& r : rep.failures) MESSAGE(r.message);
  CHECK(rep.failures.empty());
  CHECK(rep.pages == 3);
  CHECK(rep.checks == 16);

  // Navigation: the question hides the distribution until Next reveals it; Back is exact.
  LessonRunner run(l.value(), ctx);
  REQUIRE(run.goto_page(s, 0).ok());
  CHECK(run.hints().select_position == 2);
  REQUIRE(run.next(s).ok());
  CHECK(run.page() == 1);
  CHECK(run.hints().hide_distribution);
  CHECK(run.hints().focus == "distribution");
  REQUIRE(run.next(s).ok());  // reveals, stays
  CHECK(run.page() == 1);
  CHECK_FALSE(run.hints().hide_distribution);
  REQUIRE(run.next(s).ok());
  CHECK(run.page() == 2);
  const std::string text = generated_text(s, 0);
  REQUIRE(run.back(s).ok());
  CHECK(run.page() == 1);
  CHECK(s.cursor() == 0);
  CHECK(lane_count(s) == 1);
  REQUIRE(run.next(s).ok());
  REQUIRE(run.next(s).ok());
  CHECK(generated_text(s, 0) == text);

  // A false claim fails with what was found.
  auto bad = parse_check_syntax("chosen is \" zebra\"");
  REQUIRE(bad.ok());
  const CheckResult r = evaluate_check(s, bad.value());
  CHECK_FALSE(r.ok);
  CHECK(r.message.find("got") != std::string::npos);
}

TEST_CASE("'model default' with no default model anywhere is an error line, not an exception") {
  // Nothing to find: no TOKENSCOPE_MODELS, an empty working directory, a source folder and an
  // executable path without models/.
  namespace fs = std::filesystem;
  const fs::path empty = fs::temp_directory_path() / "ts_lesson_no_default_model";
  fs::remove_all(empty);
  fs::create_directories(empty);
  const fs::path cwd = fs::current_path();
  const char* env = std::getenv("TOKENSCOPE_MODELS");
  const std::string saved_env = env ? env : "";
  unsetenv("TOKENSCOPE_MODELS");
  fs::current_path(empty);

  const std::string text =
      "---\ntitle: No default\nmodel: " + (test::source_dir() / "models/tales-4m.gguf").string() +
      "\n---\n\n## One\n```do\nmodel default\n```\n";
  Result<Lesson> l = parse_lesson(text, "nodefault.md");
  Status st = make_error("not run");
  if (l.ok()) {
    Session s;
    LessonRunner run(l.value(), LessonContext{empty.string(), (empty / "bin/tokenscope").string()});
    st = run.goto_page(s, 0);  // threw std::bad_variant_access before
  }
  fs::current_path(cwd);
  if (env) setenv("TOKENSCOPE_MODELS", saved_env.c_str(), 1);
  fs::remove_all(empty);
  REQUIRE(l.ok());
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("nodefault.md:8: model: default model tales-4m.gguf not found") !=
        std::string::npos);
}
