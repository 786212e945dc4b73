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

namespace {

// Adds panel names to one list of hints, taking them out of the other.
void move_panels(const std::vector<std::string>& names, std::vector<std::string>& add,
                 std::vector<std::string>& del) {
  for (const std::string& p : names) {
    del.erase(std::remove(del.begin(), del.end(), p), del.end());
    if (std::find(add.begin(), add.end(), p) == add.end()) add.push_back(p);
  }
}

bool is_cost_view(const std::string& v) {
  return v == "per-step" || v == "roofline" || v == "formats" || v == "flops" || v == "bytes" ||
         v == "time";
}

// A script's verb in a lesson: refused when its page runs, in the table's name.
Status for_scripts(const Verb& v) {
  return make_error("'" + verb_name(v) + "' is for scripts: a lesson's pages are turned by the "
                    "teacher");
}

}  // namespace

// One overload per verb (lesson/verb_table.h): a verb without one does not compile.
struct LessonRunner::ApplyVerb {
  LessonRunner& r;
  Session& s;
  UiHints& h;

  Status operator()(const verb::SessionWords& v) const {
    TS_TRY(apply_command(s, v.command));
    // A new chain (a `sampler` line) without the stage an earlier page viewed: that view ends
    // here (a `view` on this page names one of the new chain's stages).
    if (h.view != "raw" && h.view != "final" && !h.view.empty() && lane_count(s) > 0) {
      const std::vector<Stage>& order = settings(s, 0).chain;
      if (std::none_of(order.begin(), order.end(),
                       [&](const Stage& k) { return h.view == stage_name(kind_of(k)); }))
        h.view = "final";
    }
    return ok_status();
  }
  Status operator()(const verb::Model& v) const {
    if (v.path != "default") return s.load_model(r.resolve_path(v.path));
    Result<std::string> found = find_default_model(r.ctx_.source_dir, r.ctx_.exe_path);
    if (!found.ok()) return found.error();
    return s.load_model(found.value());
  }
  Status operator()(const verb::Tokenizer&) const {
    return make_error("'tokenizer' belongs in the front matter, next to 'model'");
  }
  Status operator()(const verb::Select& v) const {
    (v.what == "position" ? h.select_position
     : v.what == "layer"  ? h.select_layer
                          : h.select_head) = v.n;
    return ok_status();
  }
  Status operator()(const verb::Show& v) const {
    move_panels(v.panels, h.show, h.hide);
    return ok_status();
  }
  Status operator()(const verb::Hide& v) const {
    move_panels(v.panels, h.hide, h.show);
    return ok_status();
  }
  Status operator()(const verb::Focus& v) const {
    move_panels(v.panels, h.show, h.hide);
    h.focus = v.panels.empty() ? "none" : v.panels.back();
    return ok_status();
  }
  Status operator()(const verb::Size& v) const {
    auto it = std::find_if(h.sizes.begin(), h.sizes.end(),
                           [&](const auto& p) { return p.first == v.panel; });
    if (it != h.sizes.end())
      it->second = v.percent;
    else
      h.sizes.emplace_back(v.panel, v.percent);
    return ok_status();
  }
  Status operator()(const verb::View& v) const {
    const std::string& n = v.name;
    if (n == "receipt" || n == "intervention" || n == "map") {  // the Why this token panel's
      h.why_view = n;
      return ok_status();
    }
    if (n != "raw" && n != "final" && !is_cost_view(n) && lane_count(s) > 0) {
      const std::vector<Stage>& order = settings(s, 0).chain;
      if (std::none_of(order.begin(), order.end(),
                       [&](const Stage& k) { return n == stage_name(kind_of(k)); }))
        return make_error("no stage '" + n + "' in lane 0's sampler chain");
    }
    (is_cost_view(n) ? h.cost_view : h.view) = n;
    return ok_status();
  }
  Status operator()(const verb::NoCache& v) const {
    h.no_cache = v.on ? 1 : 0;
    return ok_status();
  }
  Status operator()(const verb::Heads& v) const {
    h.heads = v.which;
    return ok_status();
  }
  Status operator()(const verb::Reveal&) const { return r.reveal(s); }
  Status operator()(const verb::CompareFormats&) const {
    if (!has_model(s)) return make_error("no model loaded");
    Result<FormatComparison> fc = compare_formats(model(s), s.options().n_threads);
    if (!fc.ok()) return fc.error();
    h.formats = std::move(fc).value();
    return ok_status();
  }
  Status operator()(const verb::Measure&) const {  // the app runs the probes unless it has them
    h.measure = true;
    return ok_status();
  }
  Status operator()(const verb::Sample& v) const {  // the app draws the step's histogram
    h.sample = v.n;
    return ok_status();
  }
  Status operator()(const verb::Rival& v) const {  // the piece as `force` reads it
    Result<int> id = token_for_piece(s, v.piece);
    if (!id.ok()) return id.error();
    h.rival = id.value();
    return ok_status();
  }
  Status operator()(const verb::PollOpen&) const {  // the app's class poll, when one runs
    h.poll = "open";
    return ok_status();
  }
  Status operator()(const verb::PollClose&) const {
    h.poll = "close";
    return ok_status();
  }
  Status operator()(const verb::Font& v) const {
    h.font = v.size;
    return ok_status();
  }
  Status operator()(const verb::Theme& v) const {
    h.theme = v.name;
    return ok_status();
  }
  Status operator()(const verb::PollWait& v) const { return for_scripts(v); }
  Status operator()(const verb::OpenLesson& v) const { return for_scripts(v); }
  Status operator()(const verb::NextPage& v) const { return for_scripts(v); }
  Status operator()(const verb::BackPage& v) const { return for_scripts(v); }
  Status operator()(const verb::Screenshot& v) const { return for_scripts(v); }
  Status operator()(const verb::OpenTrace& v) const { return for_scripts(v); }
  Status operator()(const verb::Quit& v) const { return for_scripts(v); }
};

Status LessonRunner::apply(Session& s, const LessonLine& a) {
  return std::visit(ApplyVerb{*this, s, hints_}, a.action);
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
