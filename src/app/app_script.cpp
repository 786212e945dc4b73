// App, part 2: the script runner (one line per frame, only when idle) and lessons (the runner
// drives the session on the worker; its page hints set panels, focus and selections on the main
// thread). Parsing scripts is script.cpp; the lesson format is lesson/.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/machine_ceilings.h"
#include "app/view.h"
#include "sampling/sampler_spec.h"
#include "session/command.h"
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

}  // namespace

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
  if (!h.focus.empty() && panel_from_lesson_name(h.focus) < 0)
    report_error("lesson: unknown panel '" + h.focus + "'", 0);
  for (const std::string& n : h.show)
    if (int i = panel_from_lesson_name(n); i >= 0) ui_.prefs.show[i] = true;
  for (const std::string& n : h.hide)
    if (int i = panel_from_lesson_name(n); i >= 0) ui_.prefs.show[i] = false;
  ui_.prefs.show[static_cast<int>(PanelId::Lesson)] = true;
  // A lesson presents: a page without a focus so far looks at the tokens.
  ui_.prefs.focus_panel =
      h.focus.empty() ? static_cast<int>(PanelId::Tokens) : panel_from_lesson_name(h.focus);
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
    double ws = 0;
    for (int k = 0; has_model(session_) && k < path_length(session_, 0); ++k)
      if (const Step* st = step_at(session_, 0, k); st && st->forward)
        ws = std::max(ws, st->forward->cost.weight_bytes);
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
  if (h.sample > 0 && has_model(session_)) {  // the page's step drawn N times
    const int lane = shown_lane(session_, ui_.sel);
    Result<Histogram> hist = histogram(session_, h.sample, lane);
    if (hist.ok()) {
      ui_.dist.histogram_samples = h.sample;
      ui_.dist.histogram = HistogramView{lane, shown_node(session_, ui_.sel), hist->n_samples,
                                         hist->ids, hist->counts, hist->p};
    } else {
      report_error("lesson: sample: " + hist.error().message, 0);
    }
  }
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

void App::run_script_line(std::vector<Command>& cmds, std::vector<int>& lines) {
  const ScriptLine& l = script_[script_pos_++];
  auto add = [&](Command c) {
    cmds.push_back(std::move(c));
    lines.push_back(l.line);
  };
  switch (l.verb) {
    case ScriptVerb::Session:
      if (const auto* p = std::get_if<cmd::SetPrompt>(&l.command)) ui_.prompt.prompt_edit = p->text;
      add(to_command(l.command));
      break;
    case ScriptVerb::Lesson:
      add(cmd::LessonOpen{l.text});
      break;
    case ScriptVerb::Next:
      add(cmd::LessonNext{});
      break;
    case ScriptVerb::BackPage:
      add(cmd::LessonBack{});
      break;
    case ScriptVerb::View: {
      const std::string err = set_distribution_view(session_, ui_, l.text);
      if (!err.empty()) report_error("view: " + err, l.line);
      break;
    }
    case ScriptVerb::Sample: {
      const int lane = shown_lane(session_, ui_.sel);
      Result<Histogram> h = histogram(session_, l.n, lane);
      if (!h.ok()) {
        report_error("sample: " + h.error().message, l.line);
        break;
      }
      ui_.dist.histogram_samples = l.n;
      ui_.dist.histogram =
          HistogramView{lane, shown_node(session_, ui_.sel), h->n_samples, h->ids, h->counts, h->p};
      break;
    }
    case ScriptVerb::Rival: {
      Result<int> id = token_for_piece(session_, l.text);
      if (id.ok())
        ui_.sel.rival_token = id.value();
      else
        report_error("rival: " + id.error().message, l.line);
      break;
    }
    case ScriptVerb::Select:
      ui_.sel.selected_position = std::max(-1, l.n);
      break;
    case ScriptVerb::Font:
      ui_.prefs.font_size = static_cast<float>(l.n);
      ui_.status.want_font_rebuild = true;
      break;
    case ScriptVerb::Theme:
      ui_.prefs.theme = l.text == "dark"        ? ThemeKind::Dark
                        : l.text == "projector" ? ThemeKind::Projector
                                                : ThemeKind::Light;
      if (ui_.prefs.theme == ThemeKind::Projector &&
          ui_.prefs.font_size < 28.0f) {  // the menu's preset
        ui_.prefs.font_size = 28.0f;
        ui_.status.want_font_rebuild = true;
      }
      break;
    case ScriptVerb::Focus:
      ui_.prefs.focus_panel = l.text == "none" ? -1 : panel_from_lesson_name(l.text);
      if (ui_.prefs.focus_panel >= 0) ui_.prefs.show[ui_.prefs.focus_panel] = true;
      break;
    case ScriptVerb::Screenshot:
      screenshot_ = Screenshot{l.text, 2, l.line};
      break;
    case ScriptVerb::Measure: {  // the weights one pass reads: the roofline's working set
      double ws = 0;
      for (int k = 0; has_model(session_) && k < path_length(session_, 0); ++k)
        if (const Step* st = step_at(session_, 0, k); st && st->forward)
          ws = std::max(ws, st->forward->cost.weight_bytes);
      add(cmd::MeasureMachine{ws});
      break;
    }
    case ScriptVerb::OpenTrace:
      add(cmd::OpenTrace{l.text});
      break;
    case ScriptVerb::PollOpen:
      add(cmd::PollOpen{});
      break;
    case ScriptVerb::PollClose:
      add(cmd::PollClose{});
      break;
    case ScriptVerb::PollWait:
      if (!poll_ || !poll_->running()) {
        report_error("poll-wait: no class poll is running (start tokenscope with --poll)", l.line);
        break;
      }
      poll_wait_ = PollWait{l.n, std::chrono::steady_clock::now() +
                                     std::chrono::milliseconds(static_cast<int64_t>(l.seconds * 1000))};
      break;
    case ScriptVerb::Quit:
      quit_ = true;
      break;
  }
}

}  // namespace ts
