// A lesson: a plain-text walk-through a teacher can read and edit. Markdown with a front matter
// block (title, model, ...), pages that each start with a "## " heading, narration paragraphs,
// and fenced blocks: ```do (actions on the session), ```expect (checks), ```ask (a question
// that hides the answer until it is revealed), ```reveal (actions run when the teacher reveals
// it) and ```see (what must be visible on screen: lesson_see.h). This file holds the parsed form and the
// parser; lesson_runner.h drives a Session with it. Format reference: lessons/README.md.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "lesson/lesson_see.h"
#include "lesson/verb_table.h"

namespace ts {

// One line of a ```do or ```expect block: the verb and the rest of the line, with its place.
struct LessonLine {
  std::string verb;  // "prompt", "step", "expect" lines keep the whole text in `args`
  std::string args;  // the rest of the line, trimmed
  int line = 0;      // 1-based line in the file
  Verb action;       // a ```do / ```reveal line's parsed verb (lesson/verb_table.h)
};

struct LessonPage {
  std::string title;
  // Narration: paragraphs separated by blank lines, list items ("- ", "1. ") on lines of their
  // own, other line breaks joined into the paragraph (Markdown kept as text).
  std::string text;
  std::vector<LessonLine> actions;
  std::vector<LessonLine> reveal_actions;  // run when the question is revealed (```reveal)
  std::vector<LessonLine> checks;
  std::vector<SeeLine> sees;  // what must be visible (```see), checked by lesson check --render
  std::string ask;   // question shown before the distribution is revealed ("" = none)
  int line = 0;      // line of the page's heading
};

struct Lesson {
  std::string path;
  std::string title;
  std::map<std::string, std::string> meta;  // front matter: title, model, tokenizer, summary...
  std::vector<LessonPage> pages;
};

// Parses lesson text; `path` is used in error messages ("lessons/01.md:14: unknown action
// 'stepp'"). Every action and check is syntax-checked here, so a typo is found without a model.
Result<Lesson> parse_lesson(std::string_view text, const std::string& path);
Result<Lesson> load_lesson(const std::string& path);


}  // namespace ts
