// App, part 2: the script runner (one line per frame, only when idle) and lessons (the runner
// drives the session on the worker; its page hints set panels, focus and selections on the main
// thread). Parsing scripts is script.cpp; the lesson format is lesson/.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/appearance.h"
#include "app/machine_ceilings.h"
#include "app/view.h"
#include "sampling/sampler_spec.h"
#include "session/command.h"
#include "session/default_model.h"
#include "session/histogram.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {
namespace {

// The next-token panel's view: "raw", "final" or a stage of lane 0's sampler chain, or a
// section of the Cost or the Why this token panel. Returns an
// error message ("" when done).
std::string set_distribution_view(const Session& s, UiState& ui, const std::string& view) {
  if (view == "receipt" || view == "intervention" || view == "map") {  // Why this token's
    ui.why.section = view == "map"            ? kWhyMap
                     : view == "intervention" ? kWhyIntervention
                                              : kWhyReceipt;
  } else if (view == "per-step" || view == "roofline" || view == "formats") {  // Cost's sections
    ui.cost.section = view == "roofline" ? kCostRoofline : view == "formats" ? kCostFormats : kCostPerStep;
  } else if (view == "flops" || view == "bytes" || view == "time") {  // its bars, per step
    ui.cost.section = kCostPerStep;
    ui.cost.metric = view == "bytes" ? 1 : view == "time" ? 2 : 0;
  } else if (view == "raw") {
    ui.dist.stage = DistStage::Raw;
  } else if (view == "final") {
    ui.dist.stage = DistStage::Final;
  } else {
    const std::vector<Stage>& order =
        lane_count(s) > 0 ? settings(s, 0).chain : std::vector<Stage>{};
    auto it = std::find_if(order.begin(), order.end(),
                           [&](const Stage& k) { return view == stage_name(kind_of(k)); });
    if (it == order.end()) return "no stage '" + view + "' in the sampler chain";
    ui.dist.stage = DistStage::Stage;
    ui.dist.stage_index = static_cast<int>(it - order.begin());
  }
  return "";
}

// The weights one pass reads: the roofline's working set (0 without a computed step).
double weights_read(const Session& s) {
  double ws = 0;
  for (int k = 0; has_model(s) && k < path_length(s, 0); ++k)
    if (const Step* st = step_at(s, 0, k); st && st->forward)
      ws = std::max(ws, st->forward->cost.weight_bytes);
  return ws;
}

ThemeKind theme_from_name(const std::string& name) {
  return name == "dark" ? ThemeKind::Dark : name == "projector" ? ThemeKind::Projector
                                                               : ThemeKind::Light;
}

}  // namespace

// The Next token panel's histogram: the shown step drawn n times with its lane's sampler.
void App::draw_histogram(int n, const std::string& who, int line) {
  const int lane = shown_lane(session_, ui_.sel);
  Result<Histogram> h = histogram(session_, n, lane);
  if (!h.ok()) {
    report_error(who + "sample: " + h.error().message, line);
    return;
  }
  ui_.dist.histogram_samples = n;
  ui_.dist.histogram =
      HistogramView{lane, shown_node(session_, ui_.sel), h->n_samples, h->ids, h->counts, h->p};
}

// ------------------------------------------------------------------------------------------
// Lessons: the runner drives the session (on the worker); its hints set panels and selections.

Status App::apply_lesson_command(const Command& c) {
  if (const auto* open = std::get_if<cmd::LessonOpen>(&c)) {
    Result<Lesson> l = load_lesson(open->path);
    if (!l.ok()) return l.error();
    auto runner = std::make_unique<LessonRunner>(std::move(l.value()),
                                                 LessonContext{opt_.source_dir, opt_.exe_path});
    TS_TRY(runner->goto_page(session_, 0));
    lesson_ = std::move(runner);
    return ok_status();
  }
  if (!lesson_) return make_error("no lesson is open");
  if (std::holds_alternative<cmd::LessonNext>(c)) return lesson_->next(session_);
  return lesson_->back(session_);
}

void App::apply_lesson_hints() {
  if (!lesson_) return;
  const UiHints& h = lesson_->hints();
  for (const auto* names : {&h.show, &h.hide})
    for (const std::string& n : *names)
      if (panel_from_lesson_name(n) < 0) report_error("lesson: unknown panel '" + n + "'", 0);
  const bool overview = h.focus == "none";
  if (!h.focus.empty() && !overview && panel_from_lesson_name(h.focus) < 0)
    report_error("lesson: unknown panel '" + h.focus + "'", 0);
  for (const std::string& n : h.show)
    if (int i = panel_from_lesson_name(n); i >= 0) ui_.prefs.show[i] = true;
  for (const std::string& n : h.hide)
    if (int i = panel_from_lesson_name(n); i >= 0) ui_.prefs.show[i] = false;
  ui_.prefs.show[static_cast<int>(PanelId::Lesson)] = true;
  // A lesson presents: a page without a focus so far looks at the tokens.
  ui_.prefs.focus_panel = overview        ? -1
                           : h.focus.empty() ? static_cast<int>(PanelId::Tokens)
                                             : panel_from_lesson_name(h.focus);
  if (ui_.prefs.focus_panel >= 0) ui_.prefs.show[ui_.prefs.focus_panel] = true;
  ui_.frame.size_override.fill(0.0f);
  for (const auto& [name, pct] : h.sizes)
    if (int i = panel_from_lesson_name(name); i >= 0)
      ui_.frame.size_override[i] = static_cast<float>(pct) / 100.0f;
  if (h.formats && !ui_.cost.formats) ui_.cost.section = kCostFormats;  // just measured: show them
  if (h.formats) ui_.cost.formats = h.formats;
  if (h.rival >= 0) ui_.sel.rival_token = h.rival;
  for (const std::string& view : {h.view, h.cost_view, h.why_view}) {
    if (view.empty()) continue;
    const std::string err = set_distribution_view(session_, ui_, view);
    if (!err.empty()) report_error("lesson: view: " + err, 0);
  }
  if (h.no_cache >= 0) ui_.kv.no_cache = h.no_cache == 1;
  if (h.measure) {  // the roofline's ceilings, unless the ones the app has fit this model here
    const double ws = weights_read(session_);
    if (ws > 0 && !ceilings_fit(ui_.cost.ceilings, cpu_model_name(), session_.options().n_threads, ws))
      injected_.push_back(cmd::MeasureMachine{ws});
  }
  ui_.sel.selected_position = h.select_position;  // -1 is the last position
  if (h.select_layer >= 0) ui_.sel.selected_layer = h.select_layer;
  if (h.select_head >= 0) ui_.sel.selected_head = h.select_head;
  if (h.heads == "all") {  // after `select head`: a page's `heads N` names the head it shows
    ui_.attention.all_heads = true;
  } else if (!h.heads.empty()) {
    ui_.attention.all_heads = false;
    const int heads = has_model(session_) ? config(session_).n_heads : 1;
    ui_.sel.selected_head = std::clamp(std::atoi(h.heads.c_str()), 0, std::max(0, heads - 1));
  }
  if (h.sample > 0 && has_model(session_)) draw_histogram(h.sample, "lesson: ", 0);
  if (h.font > 0 && h.font != static_cast<int>(ui_.prefs.font_size)) {
    ui_.prefs.font_size = static_cast<float>(h.font);
    ui_.status.want_font_rebuild = true;
  }
  if (!h.theme.empty()) set_theme(ui_, theme_from_name(h.theme));
  ui_.dist.ask_text = h.ask;
  // A page's question turns predict-then-reveal on until it is revealed; afterwards the
  // teacher's own setting comes back.
  if (h.hide_distribution) {
    if (!lesson_hides_) teacher_predict_ = ui_.sel.predict_then_reveal;
    lesson_hides_ = true;
    ui_.sel.predict_then_reveal = true;
    ui_.sel.revealed_node = -1;
  } else if (lesson_hides_) {
    lesson_hides_ = false;
    ui_.sel.predict_then_reveal = teacher_predict_;
    ui_.sel.revealed_node = shown_node(session_, ui_.sel);
  }
  // The lesson panel shows the page; the status bar keeps its room for the session.
  if (!ui_.status.message_is_error) ui_.status.set_message("", false);
  apply_lesson_poll(h.poll);  // last: without a server it says so in the status bar
}

// ------------------------------------------------------------------------------------------
// The script runner: one line per frame, only when idle.

// One overload per verb (lesson/verb_table.h): a verb without one does not compile.
struct App::RunVerb {
  App& app;
  const ScriptLine& l;
  std::vector<Command>& cmds;
  std::vector<int>& lines;

  void add(Command c) const {
    cmds.push_back(std::move(c));
    lines.push_back(l.line);
  }
  void error(const std::string& msg) const { app.report_error(msg, l.line); }
  UiState& ui() const { return app.ui_; }
  // A panel's index, or -1 after reporting the unknown name.
  int panel(const std::string& name) const {
    const int i = panel_from_lesson_name(name);
    if (i < 0) error("no panel '" + name + "'");
    return i;
  }

  void operator()(const verb::SessionWords& v) const {
    if (const auto* p = std::get_if<cmd::SetPrompt>(&v.command)) ui().prompt.prompt_edit = p->text;
    add(to_command(v.command));
  }
  void operator()(const verb::Model& v) const {
    if (v.path != "default") return add(cmd::LoadModel{v.path, ""});
    Result<std::string> found = find_default_model(app.opt_.source_dir, app.opt_.exe_path);
    if (!found.ok()) return error("model: " + found.error().message);
    add(cmd::LoadModel{found.value(), ""});
  }
  void operator()(const verb::Tokenizer&) const {
    error("tokenizer: a script loads one with its model (tokenscope --tokenizer)");
  }
  void operator()(const verb::Select& v) const {
    Selection& sel = ui().sel;
    if (v.what == "position") sel.selected_position = std::max(-1, v.n);
    if (v.what == "layer") sel.selected_layer = std::max(0, v.n);
    if (v.what == "head") sel.selected_head = std::max(0, v.n);
  }
  void operator()(const verb::Show& v) const {
    for (const std::string& n : v.panels)
      if (const int i = panel(n); i >= 0) ui().prefs.show[i] = true;
  }
  void operator()(const verb::Hide& v) const {
    for (const std::string& n : v.panels)
      if (const int i = panel(n); i >= 0) ui().prefs.show[i] = false;
  }
  void operator()(const verb::Focus& v) const {
    (*this)(verb::Show{v.panels});
    ui().prefs.focus_panel = v.panels.empty() ? -1 : panel_from_lesson_name(v.panels.back());
  }
  void operator()(const verb::Size& v) const {
    if (const int i = panel(v.panel); i >= 0)
      ui().frame.size_override[i] = static_cast<float>(v.percent) / 100.0f;
  }
  void operator()(const verb::View& v) const {
    const std::string err = set_distribution_view(app.session_, ui(), v.name);
    if (!err.empty()) error("view: " + err);
  }
  void operator()(const verb::NoCache& v) const { ui().kv.no_cache = v.on; }
  void operator()(const verb::Heads& v) const {
    ui().attention.all_heads = v.which == "all";
    if (v.which != "all") ui().sel.selected_head = std::atoi(v.which.c_str());
  }
  void operator()(const verb::Reveal&) const {  // a lesson's question, else the shown step
    if (app.lesson_ && app.lesson_->hints().hide_distribution) return add(cmd::LessonNext{});
    ui().sel.revealed_node = shown_node(app.session_, ui().sel);
  }
  void operator()(const verb::CompareFormats&) const { add(cmd::CompareFormats{}); }
  void operator()(const verb::Measure&) const {
    add(cmd::MeasureMachine{weights_read(app.session_)});
  }
  void operator()(const verb::Sample& v) const { app.draw_histogram(v.n, "", l.line); }
  void operator()(const verb::Rival& v) const {
    Result<int> id = token_for_piece(app.session_, v.piece);
    if (!id.ok()) return error("rival: " + id.error().message);
    ui().sel.rival_token = id.value();
  }
  void operator()(const verb::PollOpen&) const { add(cmd::PollOpen{}); }
  void operator()(const verb::PollClose&) const { add(cmd::PollClose{}); }
  void operator()(const verb::PollWait& v) const {
    if (!app.poll_ || !app.poll_->running())
      return error("poll-wait: no class poll is running (start tokenscope with --poll)");
    app.poll_wait_ = PollWait{v.answers, std::chrono::steady_clock::now() +
                                             std::chrono::milliseconds(
                                                 static_cast<int64_t>(v.seconds * 1000))};
  }
  void operator()(const verb::Font& v) const { set_font_size(ui(), static_cast<float>(v.size)); }
  void operator()(const verb::Theme& v) const { set_theme(ui(), theme_from_name(v.name)); }
  void operator()(const verb::OpenLesson& v) const { add(cmd::LessonOpen{v.path}); }
  void operator()(const verb::NextPage&) const { add(cmd::LessonNext{}); }
  void operator()(const verb::BackPage&) const { add(cmd::LessonBack{}); }
  void operator()(const verb::Screenshot& v) const {
    app.screenshot_ = Screenshot{v.path, 2, l.line};
  }
  void operator()(const verb::OpenTrace& v) const { add(cmd::OpenTrace{v.path}); }
  void operator()(const verb::Quit&) const { app.quit_ = true; }
};

void App::run_script_line(std::vector<Command>& cmds, std::vector<int>& lines) {
  const ScriptLine& l = script_[script_pos_++];
  std::visit(RunVerb{*this, l, cmds, lines}, l.verb);
}

}  // namespace ts
