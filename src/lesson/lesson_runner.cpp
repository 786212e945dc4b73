// LessonRunner: page navigation and the actions (model, prompt, lanes, step, force, select...).
#include "lesson/lesson_runner.h"

#include <algorithm>
#include <filesystem>

#include "lesson/lesson_syntax.h"
#include "sampling/sampler_spec.h"
#include "session/command.h"
#include "session/default_model.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts {

namespace fs = std::filesystem;

LessonRunner::LessonRunner(Lesson lesson, LessonContext ctx)
    : lesson_(std::move(lesson)), ctx_(std::move(ctx)) {}

std::string LessonRunner::resolve_path(const std::string& p) const {
  if (fs::path(p).is_absolute()) return p;
  const fs::path lesson_dir = fs::path(lesson_.path).parent_path();
  for (const fs::path& base : {lesson_dir, fs::path(ctx_.source_dir), fs::current_path()}) {
    if (base.empty()) continue;
    std::error_code ec;
    if (fs::exists(base / p, ec)) return (base / p).string();
  }
  return p;
}

Status LessonRunner::reset(Session& s) {
  hints_ = UiHints{};
  const auto it = lesson_.meta.find("model");
  const std::string model = it == lesson_.meta.end() ? "default" : it->second;
  std::string path;
  if (model == "default") {
    auto found = find_default_model(ctx_.source_dir, ctx_.exe_path);
    if (!found.ok()) return found.error();
    path = found.value();
  } else {
    path = resolve_path(model);
  }
  const auto tk = lesson_.meta.find("tokenizer");
  const std::string tok = tk == lesson_.meta.end() ? "" : resolve_path(tk->second);
  const bool same =
      has_model(s) && fs::weakly_canonical(model_info(s).path) == fs::weakly_canonical(path);
  if (!same) TS_TRY(s.load_model(path, tok));
  while (lane_count(s) > 1) TS_TRY(s.remove_lane(lane_count(s) - 1));
  SamplerSettings base;
  const auto sp = lesson_.meta.find("sampler");
  if (sp != lesson_.meta.end()) {
    auto parsed = parse_sampler_spec(sp->second);
    if (!parsed.ok()) return make_error(lesson_.path + ": front matter sampler: " + parsed.error().message);
    base = parsed.value();
  }
  TS_TRY(first(s));
  TS_TRY(s.set_sampler(0, base));
  TS_TRY(set_record_level(s, RecordLevel::Full));
  TS_TRY(set_max_tokens(s, 256));
  TS_TRY(set_stop_strings(s, {}));
  return ok_status();
}

Status LessonRunner::apply(Session& s, const LessonLine& a) {
  const std::string& v = a.verb;
  if (v == "model") {
    if (a.args != "default") return s.load_model(resolve_path(a.args));
    Result<std::string> found = find_default_model(ctx_.source_dir, ctx_.exe_path);
    if (!found.ok()) return found.error();
    return s.load_model(found.value());
  }
  if (v == "tokenizer") return make_error("'tokenizer' belongs in the front matter, next to 'model'");
  if (is_command_verb(v)) {  // the session's own words, as scripts and the app say them
    Result<SessionCommand> c = parse_command(v + " " + a.args);
    if (!c.ok()) return c.error();
    return apply_command(s, c.value());
  }
  if (v == "select") {
    const size_t sp = a.args.find(' ');
    const std::string what = a.args.substr(0, sp);
    const int value = std::atoi(a.args.substr(sp + 1).c_str());
    (what == "position" ? hints_.select_position
     : what == "layer"  ? hints_.select_layer
                        : hints_.select_head) = value;
    return ok_status();
  }
  if (v == "show" || v == "hide" || v == "focus") {
    std::string rest = a.args;
    while (!rest.empty()) {
      const size_t sp = rest.find(' ');
      const std::string p = rest.substr(0, sp);
      rest = sp == std::string::npos ? "" : rest.substr(sp + 1);
      if (p.empty()) continue;
      auto& add = v == "hide" ? hints_.hide : hints_.show;
      auto& del = v == "hide" ? hints_.show : hints_.hide;
      del.erase(std::remove(del.begin(), del.end(), p), del.end());
      if (std::find(add.begin(), add.end(), p) == add.end()) add.push_back(p);
      if (v == "focus") hints_.focus = p;
    }
    return ok_status();
  }
  if (v == "view" && (a.args == "receipt" || a.args == "intervention" || a.args == "map")) {
    hints_.why_view = a.args;  // the Why this token panel's sections
    return ok_status();
  }
  if (v == "rival") {  // the piece as `force` reads it
    auto toks = lex_lesson_line(a.args);
    if (!toks.ok()) return toks.error();
    if (toks.value().size() != 1) return make_error("needs one token: a piece or #ID");
    Result<int> id = token_for_piece(s, toks.value()[0].text);
    if (!id.ok()) return id.error();
    hints_.rival = id.value();
    return ok_status();
  }
  if (v == "view") {
    const bool cost_section = a.args == "per-step" || a.args == "roofline" || a.args == "formats" ||
                              a.args == "flops" || a.args == "bytes" || a.args == "time";
    if (a.args != "raw" && a.args != "final" && !cost_section && lane_count(s) > 0) {
      const std::vector<Stage>& order = settings(s, 0).chain;
      if (std::none_of(order.begin(), order.end(),
                       [&](const Stage& k) { return a.args == stage_name(kind_of(k)); }))
        return make_error("no stage '" + a.args + "' in lane 0's sampler chain");
    }
    (cost_section ? hints_.cost_view : hints_.view) = a.args;
    return ok_status();
  }
  if (v == "no-cache") {
    hints_.no_cache = a.args == "on" ? 1 : 0;
    return ok_status();
  }
  if (v == "heads") {
    hints_.heads = a.args;
    return ok_status();
  }
  if (v == "size") {
    const size_t sp = a.args.find(' ');
    const std::string panel = a.args.substr(0, sp);
    const int pct = std::atoi(a.args.substr(sp + 1).c_str());
    auto it = std::find_if(hints_.sizes.begin(), hints_.sizes.end(),
                           [&](const auto& p) { return p.first == panel; });
    if (it != hints_.sizes.end())
      it->second = pct;
    else
      hints_.sizes.emplace_back(panel, pct);
    return ok_status();
  }
  if (v == "sample") {  // the app draws the step's histogram (the script verb's words)
    hints_.sample = a.args.empty() ? 1000 : std::atoi(a.args.c_str());
    return ok_status();
  }
  if (v == "poll-open" || v == "poll-close") {  // the app's class poll, when one runs
    hints_.poll = v == "poll-open" ? "open" : "close";
    return ok_status();
  }
  if (v == "measure") {  // the app runs the probes (about a second) unless it has them
    hints_.measure = true;
    return ok_status();
  }
  if (v == "compare-formats") {
    if (!has_model(s)) return make_error("no model loaded");
    Result<FormatComparison> fc = compare_formats(model(s), s.options().n_threads);
    if (!fc.ok()) return fc.error();
    hints_.formats = std::move(fc).value();
    return ok_status();
  }
  if (v == "reveal") return reveal(s);
  return make_error("unknown action '" + v + "'");
}

namespace {

// Runs `lines` in order; the first failure names its place in the lesson file.
template <typename Apply>
Status apply_lines(const std::string& path, const std::vector<LessonLine>& lines, Apply&& apply) {
  for (const LessonLine& a : lines) {
    Status st = apply(a);
    if (!st.ok())
      return make_error(path + ":" + std::to_string(a.line) + ": " + a.verb + ": " +
                        st.error().message);
  }
  return ok_status();
}

}  // namespace

Status LessonRunner::apply_page(Session& s, int index) {
  const LessonPage& p = lesson_.pages[index];
  hints_.ask = p.ask;
  hints_.hide_distribution = !p.ask.empty();
  hints_.sample = 0;
  hints_.poll.clear();
  return apply_lines(lesson_.path, p.actions, [&](const LessonLine& a) { return apply(s, a); });
}

Status LessonRunner::reveal(Session& s) {
  if (!hints_.hide_distribution) return ok_status();
  hints_.hide_distribution = false;
  return apply_lines(lesson_.path, current().reveal_actions,
                     [&](const LessonLine& a) { return apply(s, a); });
}

Status LessonRunner::goto_page(Session& s, int index) {
  if (index < 0 || index >= page_count()) {
    return make_error(lesson_.path + ": no page " + std::to_string(index + 1));
  }
  Status r = reset(s);
  if (!r.ok()) return make_error(lesson_.path + ": " + r.error().message);
  for (int i = 0; i <= index; ++i) {
    page_ = i;
    TS_TRY(apply_page(s, i));
    if (i < index) TS_TRY(reveal(s));  // the class went past it: its question was revealed
  }
  return ok_status();
}

Status LessonRunner::next(Session& s) {
  if (page_ < 0) return goto_page(s, 0);
  if (hints_.hide_distribution) return reveal(s);
  if (page_ + 1 >= page_count()) return make_error("this is the last page");
  ++page_;
  return apply_page(s, page_);
}

Status LessonRunner::back(Session& s) {
  if (page_ <= 0) return make_error("this is the first page");
  return goto_page(s, page_ - 1);
}

std::vector<CheckResult> LessonRunner::check_page(const Session& s) const {
  std::vector<CheckResult> out;
  if (page_ < 0) return out;
  for (const LessonLine& l : current().checks) {
    auto c = parse_check_syntax(l.args);
    CheckResult r;
    if (!c.ok()) {
      r.message = c.error().message;
    } else {
      r = evaluate_check(s, c.value(), hints_.formats ? &*hints_.formats : nullptr);
    }
    r.line = l.line;
    r.message = lesson_.path + ":" + std::to_string(l.line) + ": expect " + l.args +
                (r.ok ? "" : ": " + r.message);
    out.push_back(r);
  }
  return out;
}

LessonReport check_lesson(Session& s, const Lesson& lesson, const LessonContext& ctx) {
  LessonReport rep;
  LessonRunner run(lesson, ctx);
  for (int i = 0; i < run.page_count(); ++i) {
    Status st = i == 0 ? run.goto_page(s, 0) : run.next(s);
    if (st.ok() && run.hints().hide_distribution) st = run.next(s);  // checks hold once revealed
    if (!st.ok()) {
      rep.failures.push_back(CheckResult{false, lesson.pages[i].line, st.error().message});
      return rep;
    }
    ++rep.pages;
    for (const CheckResult& r : run.check_page(s)) {
      ++rep.checks;
      if (!r.ok) rep.failures.push_back(r);
    }
  }
  return rep;
}

}  // namespace ts
