// LessonRunner: drives a Session through a lesson's pages. Entering page i means: from a clean
// state, apply the actions of pages 0..i in order (so Back is exact); Next applies only the new
// page's actions. What a page asks of the screen (panels to show, a position to select, a
// question that hides the distribution) is returned as UiHints for the app; nothing here draws.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "bench/format_compare.h"
#include "lesson/lesson.h"
#include "lesson/lesson_syntax.h"
#include "session/session.h"

namespace ts {

struct LessonContext {
  std::string source_dir;  // where models/ and lessons/ live (for "model default" and paths)
  std::string exe_path;    // argv[0], for the default-model search
};

struct UiHints {
  std::vector<std::string> show, hide;  // panel names, accumulated over the pages so far
  std::string focus;  // the panel to look at ("" = none, "none": the overview); stays until a page names another
  // `size PANEL N%`: the panel's share of its column (for `lesson`: of the window's width), in
  // percent, accumulated over the pages so far (last one wins per panel).
  std::vector<std::pair<std::string, int>> sizes;
  std::string view;     // `view raw|final|STAGE`: the next-token view ("" = unchanged)
  std::string cost_view;  // `view per-step|roofline|formats`: the Cost panel's section
  std::string why_view;   // `view receipt|intervention|map`: the Why this token panel's section
  int rival = -1;         // `rival PIECE|#ID`: the receipt's rival token (-1 = unchanged)
  int no_cache = -1;    // `no-cache on|off`: 1 / 0 (-1 = unchanged)
  std::string heads;    // `heads all|N`: "all" or a head number ("" = unchanged)
  int select_position = -1, select_layer = -1, select_head = -1;
  std::string ask;                // this page's question ("" = none)
  bool hide_distribution = false; // true while the question waits to be revealed
  // `sample N`: this page draws its step N times with the lane's sampler (the Next token panel's
  // counts); 0 = none. Per page, not carried to the next.
  int sample = 0;
  // `measure`: this machine's roofline ceilings are wanted (the Cost panel's roofline).
  bool measure = false;
  // `poll-open` / `poll-close`: this page opens or closes the class poll's question ("open",
  // "close"; "" none). Per page. The app applies it only when the teacher started a poll
  // (--poll or the Poll menu): a lesson never starts a server.
  std::string poll;
  int font = 0;        // `font N`: the font size (0 = unchanged)
  std::string theme;   // `theme light|dark|projector` ("" = unchanged)
  // `compare-formats`: the model as F32, Q8_0 and Q4_K side by side (the Cost panel shows it).
  std::optional<FormatComparison> formats;
};

struct CheckResult {
  bool ok = false;
  int line = 0;
  std::string message;  // "lessons/02.md:31: expect top-1 is \" there\": got \" the\""
};

class LessonRunner {
 public:
  LessonRunner(Lesson lesson, LessonContext ctx);

  const Lesson& lesson() const { return lesson_; }
  int page() const { return page_; }  // -1 before the first goto_page
  int page_count() const { return static_cast<int>(lesson_.pages.size()); }
  const LessonPage& current() const { return lesson_.pages[page_]; }
  const UiHints& hints() const { return hints_; }

  Status goto_page(Session& s, int index);  // replays pages 0..index from a clean state
  // Reveals a pending question first (running the page's ```reveal actions), then advances.
  Status next(Session& s);
  Status back(Session& s);

  // The current page's checks against the session as it is now.
  std::vector<CheckResult> check_page(const Session& s) const;

 private:
  Status reset(Session& s);
  Status apply_page(Session& s, int index);
  Status reveal(Session& s);  // the current page's question: shown, its reveal actions run
  Status apply(Session& s, const LessonLine& a);
  struct ApplyVerb;  // one overload per verb (lesson_runner.cpp)
  std::string resolve_path(const std::string& p) const;

  Lesson lesson_;
  LessonContext ctx_;
  int page_ = -1;
  UiHints hints_;
};

// Evaluates one check against the session (lesson_checks.cpp).
// `formats`: the page's F32 / Q8_0 / Q4_K comparison, for format-bytes(TYPE), format-speed(TYPE).
CheckResult evaluate_check(const Session& s, const Check& c,
                           const FormatComparison* formats = nullptr);

struct LessonReport {
  int pages = 0;
  int checks = 0;
  std::vector<CheckResult> failures;  // failed checks and page errors
};
// Runs every page of the lesson headless and evaluates every check (on a page with a question,
// after it was revealed).
LessonReport check_lesson(Session& s, const Lesson& lesson, const LessonContext& ctx);

}  // namespace ts
