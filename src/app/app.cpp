// App (see app.h): the frame loop's logic without the window. Sections: start-up, the frame,
// applying commands on the worker. The script runner and lessons are in app_script.cpp; the
// screenshot report, the models folder scan and settings in app_files.cpp.
#include "app/app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "app/appearance.h"
#include "app/apply_commands.h"
#include "app/layout.h"
#include "app/machine_ceilings.h"
#include "app/panels/panels.h"
#include "app/platform.h"
#include "app/switchboard.h"
#include "app/theme.h"
#include "app/view.h"
#include "imgui.h"
#include "session/default_model.h"
#include "session/session_access.h"
#include "trace/trace_json.h"

namespace ts {

namespace fs = std::filesystem;

App::App(AppOptions opt) : opt_(std::move(opt)), poll_(platform::make_poll_host()) {}

App::~App() {
  request_cancel(session_);
  worker_.wait_idle(-1);
  save_settings_now();
}

// ------------------------------------------------------------------------------------------
// Start-up: settings, options, the model and the script.

void App::start() {
  if (opt_.use_settings) load_saved_state();
  apply_view_options();
  start_poll();
  ui_.prompt.prompt_edit = opt_.has_prompt ? opt_.prompt
                           : saved_session_.has_prompt && !saved_session_.prompt.empty()
                               ? saved_session_.prompt
                               : std::string("Once upon a time");
  const auto [model, tokenizer] = startup_model();
  ui_.prompt.model_path_edit = model;
  ui_.prompt.tokenizer_path_edit = tokenizer;
  load_script_option();
  start_job(model.empty() ? "starting" : "loading the model", startup_commands(model, tokenizer),
            std::vector<int>{}, 0.0);
}

void App::load_saved_state() {
  if (opt_.settings_path.empty()) opt_.settings_path = default_settings_path();
  Status st = load_settings(opt_.settings_path, ui_, saved_session_);
  if (!st.ok()) {  // a damaged file: moved aside, what could be read kept; the user is told
    std::fprintf(stderr, "tokenscope: %s\n", st.error().message.c_str());
    ui_.status.set_message(st.error().message, true);
    startup_notice_ = st.error().message;  // shown again once the start-up job is done
  }
  // This machine's roofline ceilings, measured once and cached (the Cost panel checks that
  // they fit the CPU, the threads and the model).
  if (const std::string cache = ceilings_cache_path(); !cache.empty() && fs::exists(cache)) {
    std::ifstream in(cache);
    std::stringstream text;
    text << in.rdbuf();
    if (Result<MachineCeilings> c = ceilings_from_json(text.str()); c.ok())
      ui_.cost.ceilings = c.value();
  }
}

void App::apply_view_options() {
  if (opt_.font_size > 0) ui_.prefs.font_size = opt_.font_size;
  if (opt_.theme == "light") set_theme(ui_, ThemeKind::Light);
  if (opt_.theme == "dark") set_theme(ui_, ThemeKind::Dark);
  if (opt_.theme == "projector") {  // the same as the menu's projector preset
    const float font = ui_.prefs.font_size;
    set_theme(ui_, ThemeKind::Projector);
    if (opt_.font_size > 0) ui_.prefs.font_size = font;  // --font-size wins
  }
  ui_.status.want_font_rebuild = true;
  ui_.status.want_fullscreen = opt_.fullscreen;
}

void App::start_poll() {
  if (poll_) {  // the class poll: off unless --poll names where
    ui_.poll.addresses = poll_->lan_addresses();
    ui_.poll.code_edit = opt_.poll_code;
    if (!opt_.poll_address.empty()) {
      Status st = apply_poll_command(cmd::PollStart{opt_.poll_address, opt_.poll_code});
      if (!st.ok()) report_error("--poll " + opt_.poll_address + ": " + st.error().message, 0);
    }
  } else if (!opt_.poll_address.empty()) {
    report_error("--poll: this build cannot host the class poll", 0);
  }
}

std::pair<std::string, std::string> App::startup_model() {
  std::string model = opt_.model;
  std::string tokenizer = opt_.tokenizer;
  if (model.empty() && !saved_session_.model_path.empty() &&
      fs::exists(saved_session_.model_path)) {
    model = saved_session_.model_path;
    tokenizer = saved_session_.tokenizer_path;
  }
  if (model.empty()) {
    Result<std::string> found = find_default_model(opt_.source_dir, opt_.exe_path);
    if (found.ok()) {
      model = found.value();
    } else {
      ui_.status.no_model_hint =
          std::string("The default model models/") + kDefaultModelName +
          " was not found. Open a model with File > Open model… (a .gguf file, or a llama2.c "
          "checkpoint with its tokenizer.bin), or start tokenscope with --model FILE. (" +
          found.error().message + ")";
    }
  }
  return {model, tokenizer};
}

void App::load_script_option() {
  if (opt_.script.empty()) return;
  Result<std::vector<ScriptLine>> r = load_script(opt_.script);
  if (r.ok()) {
    script_ = std::move(r.value());
  } else {
    report_error(r.error().message, 0);
    exit_code_ = 1;  // a missing or malformed script is a failure, as a failing line is
    quit_ = true;    // a script that does not parse runs nothing
  }
}

// Load the model, then restore the prompt, record level, limits, stops and lanes the settings
// kept, then open the lesson the command line named.
std::vector<Command> App::startup_commands(const std::string& model, const std::string& tokenizer) {
  std::vector<Command> cmds;
  if (!model.empty()) cmds.push_back(cmd::LoadModel{model, tokenizer});
  cmds.push_back(cmd::SetPrompt{ui_.prompt.prompt_edit});
  cmds.push_back(cmd::SetRecordLevel{saved_session_.record_level});
  cmds.push_back(cmd::SetMaxTokens{saved_session_.max_tokens});
  if (!saved_session_.stops.empty()) cmds.push_back(cmd::SetStopStrings{saved_session_.stops});
  for (size_t i = 0; i < saved_session_.lanes.size() && i < kMaxLanes; ++i) {
    if (i == 0)
      cmds.push_back(cmd::SetSampler{0, saved_session_.lanes[0]});
    else
      cmds.push_back(cmd::AddLane{saved_session_.lanes[i]});
  }
  if (!opt_.lesson.empty()) cmds.push_back(cmd::LessonOpen{opt_.lesson});
  return cmds;
}

// ------------------------------------------------------------------------------------------
// The frame.

void App::apply_style_if_changed() {
  if (style_applied_ && applied_theme_ == ui_.prefs.theme && applied_font_ == ui_.prefs.font_size)
    return;
  apply_theme(ui_.prefs.theme, ui_.prefs.font_size);
  ui_.tokens.autoscroll_len = -1;  // chips changed size: keep the newest in view
  applied_theme_ = ui_.prefs.theme;
  applied_font_ = ui_.prefs.font_size;
  style_applied_ = true;
}

bool App::take_font_rebuild() {
  const bool r = ui_.status.want_font_rebuild;
  ui_.status.want_font_rebuild = false;
  return r;
}

void App::frame(double dt) {
  capture_now_ = false;
  if (job_pending_ && !worker_.busy()) finish_job();
  apply_style_if_changed();
  if (worker_.busy()) {
    ui_.status.busy = true;
    ui_.status.busy_label = worker_.label();
    draw_busy();
    return;
  }
  ui_.status.busy = false;
  if (ui_.prompt.want_rescan_models) rescan_models();
  refresh_poll();

  const ImGuiIO& io = ImGui::GetIO();
  const float menu_h = ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y * 2.0f;
  ui_.timeline.phases = has_model(session_) && stepping_into(session_);
  LayoutMeasure measure;
  measure.text_width = [](const char* t) { return ImGui::CalcTextSize(t).x; };
  if (lesson_)
    measure.lesson_height = [this](float w) { return lesson_panel_height(lesson_.get(), w); };
  compute_layout(ui_, io.DisplaySize.x, io.DisplaySize.y, menu_h, ImGui::GetFontSize(), measure);
  ui_.sel.prev_hover = ui_.sel.hover;
  ui_.sel.hover.clear();
  const bool capture = screenshot_ && screenshot_->frames_left == 0;
  capture_now_ = capture;
  ui_.log.record = capture || record_always_;
  ui_.log.clear();

  Commands cmds;
  draw_switchboard(session_, lesson_.get(), ui_, cmds);
  handle_shortcuts(session_, lesson_.get(), ui_, cmds);
  ui_.log.finish_frame();
  if (capture) return;  // this frame's pixels become the PNG: change nothing after drawing

  std::vector<Command> queue = std::move(cmds.queue);
  std::vector<int> lines(queue.size(), 0);
  for (Command& c : injected_) {
    queue.push_back(std::move(c));
    lines.push_back(0);
  }
  injected_.clear();
  if (screenshot_) {
    --screenshot_->frames_left;
  } else if (queue.empty() && !script_finished() && !quit_ && !poll_waiting()) {
    run_script_line(queue, lines);
  }
  if (!screenshot_ && script_finished() && !poll_wait_ && !opt_.screenshot.empty() &&
      !final_screenshot_done_ &&
      queue.empty() && !is_playing(session_)) {
    final_screenshot_done_ = true;
    quit_after_screenshot_ = true;
    screenshot_ = Screenshot{opt_.screenshot, 2, 0};
  }  // a script that does not quit (and no --screenshot) leaves the window open for the teacher
  dispatch(std::move(queue), std::move(lines), dt);

  settings_timer_ += dt;
  if (settings_timer_ > 2.0 && !worker_.busy()) {
    settings_timer_ = 0;
    save_settings_now();
  }
}

void App::draw_busy() {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 26.0f, 0), ImGuiCond_Always);
  if (ImGui::Begin("Working", nullptr,
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                       ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                       ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("%s…", ui_.status.busy_label.c_str());
    const Progress& p = session_.progress();
    const int total = p.total.load();
    const int done = p.done.load();
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.1f s", worker_.elapsed());
    if (total > 0) {
      ImGui::ProgressBar(std::clamp(static_cast<float>(done) / total, 0.0f, 1.0f), ImVec2(-1, 0),
                         overlay);
    } else {
      // No step count: a bar sweeping back and forth shows the app is alive.
      const float t = static_cast<float>(ImGui::GetTime());
      const float f = 0.5f + 0.5f * std::sin(t * 3.0f);
      ImGui::ProgressBar(f, ImVec2(-1, 0), overlay);
    }
    if (ImGui::Button("Cancel")) request_cancel(session_);
  }
  ImGui::End();
}

// ------------------------------------------------------------------------------------------
// Commands: app-level ones here, session ones on the worker.

std::string App::auto_name(const char* ext) const {
  const std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "tokenscope-%Y%m%d-%H%M%S", std::localtime(&t));
  return std::string(buf) + "-" + std::to_string(shot_counter_) + "." + ext;
}

// A trace whose model file is not here opens read-only (true: handled here); with its model it
// goes on to the session, which replays it exactly.
bool App::open_read_only(const std::string& path, int line) {
  Result<Trace> t = read_trace_json(path);
  if (!t.ok()) {
    report_error("open trace: " + t.error().message, line);
    return true;
  }
  const Trace& tr = t.value();
  const bool loaded = has_model(session_) && model_info(session_).path == tr.model_path;
  std::error_code ec;
  if (loaded || (!tr.model_path.empty() && fs::is_regular_file(tr.model_path, ec))) {
    ui_.trace_view.trace.reset();
    return false;
  }
  auto shared = std::make_shared<const Trace>(std::move(t.value()));
  ui_.trace_view.lane = 0;
  ui_.trace_view.step = 0;
  if (!shared->lanes.empty() && !shared->lanes[0].steps.empty())
    ui_.trace_view.step =
        std::clamp(shared->cursor, 0, static_cast<int>(shared->lanes[0].steps.size()) - 1);
  ui_.trace_view.trace = std::move(shared);
  ui_.trace_view.path = path;
  ui_.status.set_message(
      "opened " + fs::path(path).filename().string() +
          " read-only: its model is not here, so this shows what the trace recorded",
      false);
  return true;
}

// While a read-only trace is shown, moving through its steps is handled here; commands that
// would compute need the model (refused with a message); loading a model, a prompt, a lesson or
// another trace closes the view first. Returns true when the command was handled here.
bool App::read_only_command(const Command& c, int line) {
  const Trace& t = *ui_.trace_view.trace;
  const int lane =
      std::clamp(ui_.trace_view.lane, 0, std::max(0, static_cast<int>(t.lanes.size()) - 1));
  const int n = t.lanes.empty() ? 0 : static_cast<int>(t.lanes[lane].steps.size());
  int& k = ui_.trace_view.step;
  if (const auto* st = std::get_if<cmd::Step>(&c)) {
    k += st->n;
  } else if (const auto* b = std::get_if<cmd::Back>(&c)) {
    k -= b->n;
  } else if (const auto* sk = std::get_if<cmd::Seek>(&c)) {
    k = sk->step;
  } else if (std::holds_alternative<cmd::First>(c)) {
    k = 0;
  } else if (std::holds_alternative<cmd::Last>(c)) {
    k = n - 1;
  } else if (std::holds_alternative<cmd::LoadModel>(c) ||
             std::holds_alternative<cmd::SetPrompt>(c) || std::holds_alternative<cmd::Chat>(c) ||
             std::holds_alternative<cmd::LessonOpen>(c) ||
             std::holds_alternative<cmd::LessonNext>(c) ||
             std::holds_alternative<cmd::LessonBack>(c) ||
             std::holds_alternative<cmd::OpenTrace>(c)) {
    ui_.trace_view.trace.reset();
    return false;
  } else if (is_session_command(c)) {
    report_error(std::string(command_name(c)) +
                     ": the trace is open read-only (its model file is "
                     "not here); close it to work with the loaded model",
                 line);
    return true;
  } else {
    return false;
  }
  k = std::clamp(k, 0, std::max(0, n - 1));
  return true;
}

void App::dispatch(std::vector<Command> cmds, std::vector<int> lines, double dt) {
  std::vector<Command> session_cmds;
  std::vector<int> session_lines;
  for (size_t i = 0; i < cmds.size(); ++i) {
    Command& c = cmds[i];
    if (const auto* sp = std::get_if<cmd::ShowPanel>(&c)) {  // the panels' windows: UI only
      if (sp->panel >= 0 && sp->panel < kPanelCount) ui_.prefs.show[sp->panel] = sp->show;
      continue;
    }
    if (const auto* fp = std::get_if<cmd::FocusPanel>(&c)) {
      ui_.prefs.focus_panel = fp->panel >= 0 && fp->panel < kPanelCount ? fp->panel : -1;
      continue;
    }
    if (const auto* no = std::get_if<cmd::Notice>(&c)) {
      ui_.status.set_message(no->text, no->is_error);
      continue;
    }
    if (const auto* ot = std::get_if<cmd::OpenTrace>(&c); ot && open_read_only(ot->path, lines[i]))
      continue;
    if (is_poll_command(c)) {  // the class poll: on the UI thread, never waiting for it
      if (Status st = apply_poll_command(c); !st.ok())
        report_error(std::string(command_name(c)) + ": " + st.error().message, lines[i]);
      continue;
    }
    if (ui_.trace_view.trace && read_only_command(c, lines[i])) continue;
    if (is_session_command(c)) {
      session_cmds.push_back(std::move(c));
      session_lines.push_back(lines[i]);
    } else if (const auto* png = std::get_if<cmd::ExportPng>(&c)) {
      ++shot_counter_;
      screenshot_ = Screenshot{png->path.empty() ? auto_name("png") : png->path, 1, lines[i]};
    } else if (const auto* tr = std::get_if<cmd::ExportTrace>(&c)) {
      ++shot_counter_;
      const std::string path = tr->path.empty() ? auto_name("trace.json") : tr->path;
      Status st = write_trace_json(session_, path, -1);
      if (st.ok()) {
        ui_.status.set_message("saved the trace as " + path, false);
        if (lines[i] == 0) platform::offer_file(path);
      }
      else
        report_error("export trace: " + st.error().message, lines[i]);
    } else if (std::holds_alternative<cmd::Quit>(c)) {
      quit_ = true;
    }
  }
  const bool playing = is_playing(session_);
  if (session_cmds.empty() && !playing) return;
  const char* label = session_cmds.empty() ? "playing" : command_name(session_cmds.front());
  start_job(label, std::move(session_cmds), std::move(session_lines), playing ? dt : 0.0);
}

void App::start_job(const char* label, std::vector<Command> cmds, std::vector<int> lines,
                    double dt) {
  results_.clear();
  job_pending_ = true;
  const float speed = ui_.timeline.play_speed;
  worker_.submit(label, [this, cmds = std::move(cmds), lines = std::move(lines), dt, speed] {
    for (size_t i = 0; i < cmds.size(); ++i) {
      const Command& c = cmds[i];
      const bool lesson = std::holds_alternative<cmd::LessonOpen>(c) ||
                          std::holds_alternative<cmd::LessonNext>(c) ||
                          std::holds_alternative<cmd::LessonBack>(c);
      Status st = ok_status();
      if (const auto* mm = std::get_if<cmd::MeasureMachine>(&c)) {
        measured_ = measure_ceilings(session_.options().n_threads, mm->working_set);
        if (!measured_.valid) st = make_error("the probes gave no usable numbers");
      } else if (const auto* dm = std::get_if<cmd::ComputeDecisionMap>(&c)) {
        // (its own error, if any, is the panel's to show: the job itself succeeds)
        map_computed_.emplace(has_model(session_)
                                  ? decision_map(session_, dm->lane)
                                  : Result<DecisionMap>(make_error("no model loaded")));
      } else if (std::holds_alternative<cmd::CompareFormats>(c)) {
        Result<FormatComparison> fc =
            has_model(session_) ? compare_formats(model(session_), session_.options().n_threads)
                                : Result<FormatComparison>(make_error("no model loaded"));
        if (fc.ok()) formats_measured_ = std::move(fc).value();
        st = fc.ok() ? ok_status() : fc.error();
      } else {
        st = lesson ? apply_lesson_command(c) : apply_ui_command(session_, c, speed);
      }
      results_.push_back(PendingResult{cmds[i], st, i < lines.size() ? lines[i] : 0});
    }
    if (dt > 0 && is_playing(session_)) session_.tick(dt);
  });
  // Quick commands finish inside this frame (no flicker); long ones show the busy window.
  worker_.wait_idle(opt_.synchronous ? -1.0 : 0.04);
  if (!worker_.busy()) finish_job();
}

void App::finish_job() {
  if (!job_pending_) return;
  job_pending_ = false;
  poll_seen_ = ~uint64_t{0};  // the poll's bars name the model's tokens: read them again
  bool any_error = false;
  // An exception escaped the job (worker.h): the commands after it did not run.
  if (std::string failure = worker_.take_failure(); !failure.empty()) {
    any_error = true;
    if (!opt_.script.empty()) exit_code_ = 1;
    report_error(failure, 0);
  }
  for (PendingResult& r : results_) {
    const Command& c = r.command;
    const int sampler_lane = std::holds_alternative<cmd::SetSampler>(c)
                                 ? std::get<cmd::SetSampler>(c).lane
                             : std::holds_alternative<cmd::BranchSampler>(c)
                                 ? std::get<cmd::BranchSampler>(c).lane
                                 : -1;
    if (sampler_lane >= 0 && sampler_lane < static_cast<int>(ui_.prompt.sampler_drafts.size())) {
      SamplerDraft& d = ui_.prompt.sampler_drafts[sampler_lane];
      d.error = r.status.ok() ? "" : r.status.error().message;
      if (r.status.ok()) d.dirty = false;
    }
    if (r.status.ok()) {
      after_applied(c);
    } else {
      any_error = true;
      after_failed(r);
    }
  }
  if (!any_error && ui_.status.message_is_error && !results_.empty()) ui_.status.message.clear();
  if (!startup_notice_.empty()) {  // e.g. the damaged settings file: not hidden by "loaded ..."
    ui_.status.set_message(
        any_error ? startup_notice_ + " | " + ui_.status.message : startup_notice_, true);
    startup_notice_.clear();
  }
  results_.clear();
}

void App::after_failed(const PendingResult& r) {
  const Command& c = r.command;
  if (std::holds_alternative<cmd::LoadModel>(c) && !has_model(session_)) {
    ui_.status.no_model_hint =
        r.status.error().message +
        ". Choose a model in the list, or open a file: a .gguf, or a llama2.c "
        "checkpoint with its tokenizer.bin.";
  }
  report_error(std::string(command_name(c)) + ": " + r.status.error().message, r.script_line);
}

void App::reset_for_new_model() {
  ui_.prompt.sampler_drafts.clear();
  ui_.dist.histogram = HistogramView{};
  ui_.sel.selected_position = -1;
  ui_.sel.selected_layer =
      std::min(ui_.sel.selected_layer, std::max(0, config(session_).n_layers - 1));
  ui_.sel.selected_head =
      std::min(ui_.sel.selected_head, std::max(0, config(session_).n_heads - 1));
}

void App::after_applied(const Command& c) {
  if (const auto* lm = std::get_if<cmd::LoadModel>(&c)) {
    ui_.prefs.last_model_path = lm->path;
    ui_.cost.formats.reset();
    ui_.prefs.last_tokenizer_path = lm->tokenizer_path;
    saved_session_.model_path = lm->path;
    saved_session_.tokenizer_path = lm->tokenizer_path;
    reset_for_new_model();
    ui_.status.no_model_hint.clear();
    ui_.status.set_message("loaded " + fs::path(lm->path).filename().string(), false);
  } else if (std::holds_alternative<cmd::SetPrompt>(c) || std::holds_alternative<cmd::Chat>(c)) {
    ui_.sel.selected_position = -1;
    ui_.dist.histogram = HistogramView{};
    // A chat became its rendered prompt: the prompt box shows what the model reads.
    if (std::holds_alternative<cmd::Chat>(c)) ui_.prompt.prompt_edit = prompt_text(session_);
  } else if (const auto* ot = std::get_if<cmd::OpenTrace>(&c)) {
    reset_for_new_model();
    ui_.sel.selected_lane = 0;
    ui_.prompt.prompt_edit = prompt_text(session_);
    ui_.status.set_message("opened the trace " + fs::path(ot->path).filename().string() + ": " +
                               std::to_string(lane_count(session_)) +
                               " lane(s) replayed exactly, at step " +
                               std::to_string(session_.cursor()),
                           false);
  } else if (const auto* f = std::get_if<cmd::Force>(&c)) {
    ui_.status.set_message("forced " + session_.tokenizer().display_piece(f->token_id) +
                               " at step " + std::to_string(session_.cursor()) + ": a new branch",
                           false);
  } else if (const auto* dm = std::get_if<cmd::ComputeDecisionMap>(&c); dm && map_computed_) {
    take_decision_map(session_, dm->lane, std::move(*map_computed_), ui_.why);
    map_computed_.reset();
  } else if (std::holds_alternative<cmd::CompareFormats>(c)) {
    ui_.cost.formats = formats_measured_;
    ui_.cost.section = kCostFormats;
    ui_.status.set_message("timed the model as F32, Q8_0 and Q4_K (Cost panel)", false);
  } else if (std::holds_alternative<cmd::MeasureMachine>(c)) {
    ui_.cost.ceilings = measured_;
    const std::string cache = opt_.use_settings ? ceilings_cache_path() : "";
    if (!cache.empty()) {
      std::error_code ec;
      fs::create_directories(fs::path(cache).parent_path(), ec);
      std::ofstream out(cache);
      out << ceilings_to_json(measured_) << "\n";
    }
    ui_.status.set_message("measured this machine's ceilings" +
                               std::string(cache.empty() ? "" : " (cached in " + cache + ")"),
                           false);
  } else if (const auto* ss = std::get_if<cmd::BranchSampler>(&c); ss && session_.cursor() >= 0) {
    ui_.dist.histogram = HistogramView{};
    ui_.status.set_message("new sampler (" + describe(ss->settings) + ") from step " +
                               std::to_string(session_.cursor()) +
                               ": a new branch; the earlier one stays in Branches",
                           false);
  } else if (std::holds_alternative<cmd::LessonOpen>(c) ||
             std::holds_alternative<cmd::LessonNext>(c) ||
             std::holds_alternative<cmd::LessonBack>(c)) {
    apply_lesson_hints();
  } else if (std::holds_alternative<cmd::RemoveLane>(c)) {
    ui_.prompt.sampler_drafts.clear();
    ui_.sel.selected_lane = 0;
  } else if (std::holds_alternative<cmd::AddLane>(c)) {
    ui_.prompt.sampler_drafts.clear();
  }
}

void App::report_error(const std::string& msg, int script_line) {
  std::string text = msg;
  if (script_line > 0) {
    text = "script line " + std::to_string(script_line) + ": " + msg;
    exit_code_ = 1;
  }
  if (script_line > 0 || !opt_.script.empty() || !opt_.screenshot.empty())
    std::fprintf(stderr, "tokenscope: %s\n", text.c_str());
  errors_.push_back(text);
  ui_.status.set_message(text, true);
}

}  // namespace ts
