// App (see app.h): the frame loop's logic without the window. Sections: start-up, the frame,
// applying commands on the worker, the script runner, screenshots and their JSON report.
#include "app/app.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "app/apply_commands.h"
#include "app/layout.h"
#include "app/switchboard.h"
#include "app/theme.h"
#include "app/view.h"
#include "imgui.h"
#include "sampling/sampler_spec.h"
#include "session/default_model.h"
#include "session/trace_json.h"

namespace ts {

namespace fs = std::filesystem;

App::App(AppOptions opt) : opt_(std::move(opt)) {}

App::~App() {
  session_.request_cancel();
  worker_.wait_idle(-1);
  save_settings_now();
}

// ------------------------------------------------------------------------------------------
// Start-up: settings, options, the model and the script.

void App::start() {
  if (opt_.use_settings) {
    if (opt_.settings_path.empty()) opt_.settings_path = default_settings_path();
    Status st = load_settings(opt_.settings_path, ui_, saved_session_);
    if (!st.ok()) ui_.set_message(st.error().message, true);
  }
  if (opt_.font_size > 0) ui_.font_size = opt_.font_size;
  if (opt_.theme == "light") ui_.theme = ThemeKind::Light;
  if (opt_.theme == "dark") ui_.theme = ThemeKind::Dark;
  if (opt_.theme == "projector") ui_.theme = ThemeKind::Projector;
  ui_.want_font_rebuild = true;

  ui_.prompt_edit = opt_.has_prompt ? opt_.prompt
                    : saved_session_.has_prompt && !saved_session_.prompt.empty()
                        ? saved_session_.prompt
                        : std::string("Once upon a time");
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
      ui_.no_model_hint =
          std::string("The default model models/") + kDefaultModelName +
          " was not found. Open a model with File > Open model… (a .gguf file, or a llama2.c "
          "checkpoint with its tokenizer.bin), or start tokenscope with --model FILE. (" +
          found.error().message + ")";
    }
  }
  ui_.model_path_edit = model;
  ui_.tokenizer_path_edit = tokenizer;

  if (!opt_.script.empty()) {
    Result<std::vector<ScriptLine>> r = load_script(opt_.script);
    if (r.ok()) {
      script_ = std::move(r.value());
    } else {
      report_error(r.error().message, 0);
      quit_ = true;  // a script that does not parse runs nothing
    }
  }

  std::vector<Command> cmds;
  if (!model.empty()) cmds.push_back(cmd::LoadModel{model, tokenizer});
  cmds.push_back(cmd::SetPrompt{ui_.prompt_edit});
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
  start_job(model.empty() ? "starting" : "loading the model", std::move(cmds), std::vector<int>{},
            0.0);
}

// ------------------------------------------------------------------------------------------
// The frame.

void App::apply_style_if_changed() {
  if (style_applied_ && applied_theme_ == ui_.theme && applied_font_ == ui_.font_size) return;
  apply_theme(ui_.theme, ui_.font_size);
  ui_.tokens_autoscroll_len = -1;  // chips changed size: keep the newest in view
  applied_theme_ = ui_.theme;
  applied_font_ = ui_.font_size;
  style_applied_ = true;
}

bool App::take_font_rebuild() {
  const bool r = ui_.want_font_rebuild;
  ui_.want_font_rebuild = false;
  return r;
}

void App::frame(double dt) {
  capture_now_ = false;
  if (job_pending_ && !worker_.busy()) finish_job();
  apply_style_if_changed();
  if (worker_.busy()) {
    ui_.busy = true;
    ui_.busy_label = worker_.label();
    draw_busy();
    return;
  }
  ui_.busy = false;
  if (ui_.want_rescan_models) rescan_models();

  const ImGuiIO& io = ImGui::GetIO();
  const float menu_h = ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y * 2.0f;
  compute_layout(ui_, io.DisplaySize.x, io.DisplaySize.y, menu_h, ImGui::GetFontSize());
  ui_.prev_hover = ui_.hover;
  ui_.hover.clear();
  const bool capture = screenshot_ && screenshot_->frames_left == 0;
  capture_now_ = capture;
  ui_.record_drawn = capture || record_always_;
  ui_.drawn.clear();

  Commands cmds;
  draw_switchboard(session_, lesson_.get(), ui_, cmds);
  handle_shortcuts(session_, lesson_.get(), ui_, cmds);
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
  } else if (queue.empty() && !script_finished() && !quit_) {
    run_script_line(queue, lines);
  }
  if (!screenshot_ && script_finished() && !opt_.screenshot.empty() && !final_screenshot_done_ &&
      queue.empty() && !session_.is_playing()) {
    final_screenshot_done_ = true;
    quit_after_screenshot_ = true;
    screenshot_ = Screenshot{opt_.screenshot, 2, 0};
  }  // a script without "quit" (and no --screenshot) leaves the window open for the teacher
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
    ImGui::Text("%s…", ui_.busy_label.c_str());
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
    if (ImGui::Button("Cancel")) session_.request_cancel();
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

void App::dispatch(std::vector<Command> cmds, std::vector<int> lines, double dt) {
  std::vector<Command> session_cmds;
  std::vector<int> session_lines;
  for (size_t i = 0; i < cmds.size(); ++i) {
    Command& c = cmds[i];
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
      if (st.ok())
        ui_.set_message("saved the trace as " + path, false);
      else
        report_error("export trace: " + st.error().message, lines[i]);
    } else if (std::holds_alternative<cmd::Quit>(c)) {
      quit_ = true;
    }
  }
  const bool playing = session_.is_playing();
  if (session_cmds.empty() && !playing) return;
  const char* label = session_cmds.empty() ? "playing" : command_name(session_cmds.front());
  start_job(label, std::move(session_cmds), std::move(session_lines), playing ? dt : 0.0);
}

void App::start_job(const char* label, std::vector<Command> cmds, std::vector<int> lines,
                    double dt) {
  results_.clear();
  job_pending_ = true;
  const float speed = ui_.play_speed;
  worker_.submit(label, [this, cmds = std::move(cmds), lines = std::move(lines), dt, speed] {
    for (size_t i = 0; i < cmds.size(); ++i) {
      const Command& c = cmds[i];
      const bool lesson = std::holds_alternative<cmd::LessonOpen>(c) ||
                          std::holds_alternative<cmd::LessonNext>(c) ||
                          std::holds_alternative<cmd::LessonBack>(c);
      Status st = lesson ? apply_lesson_command(c) : apply_command(session_, c, speed);
      results_.push_back(PendingResult{cmds[i], st, i < lines.size() ? lines[i] : 0});
    }
    if (dt > 0 && session_.is_playing()) session_.tick(dt);
  });
  // Quick commands finish inside this frame (no flicker); long ones show the busy window.
  worker_.wait_idle(opt_.synchronous ? -1.0 : 0.04);
  if (!worker_.busy()) finish_job();
}

void App::finish_job() {
  if (!job_pending_) return;
  job_pending_ = false;
  bool any_error = false;
  for (PendingResult& r : results_) {
    const Command& c = r.command;
    if (const auto* ss = std::get_if<cmd::SetSampler>(&c)) {
      if (ss->lane >= 0 && ss->lane < static_cast<int>(ui_.sampler_drafts.size())) {
        SamplerDraft& d = ui_.sampler_drafts[ss->lane];
        d.error = r.status.ok() ? "" : r.status.error().message;
        if (r.status.ok()) d.dirty = false;
      }
    }
    if (!r.status.ok() && std::holds_alternative<cmd::LoadModel>(c) && !session_.has_model()) {
      ui_.no_model_hint = r.status.error().message +
                          ". Choose a model in the list, or open a file: a .gguf, or a llama2.c "
                          "checkpoint with its tokenizer.bin.";
    }
    if (!r.status.ok()) {
      any_error = true;
      report_error(std::string(command_name(c)) + ": " + r.status.error().message, r.script_line);
      continue;
    }
    if (const auto* lm = std::get_if<cmd::LoadModel>(&c)) {
      ui_.last_model_path = lm->path;
      ui_.last_tokenizer_path = lm->tokenizer_path;
      saved_session_.model_path = lm->path;
      saved_session_.tokenizer_path = lm->tokenizer_path;
      ui_.sampler_drafts.clear();
      ui_.histogram = HistogramView{};
      ui_.selected_position = -1;
      ui_.selected_layer =
          std::min(ui_.selected_layer, std::max(0, session_.config().n_layers - 1));
      ui_.selected_head = std::min(ui_.selected_head, std::max(0, session_.config().n_heads - 1));
      ui_.no_model_hint.clear();
      ui_.set_message("loaded " + fs::path(lm->path).filename().string(), false);
    } else if (std::holds_alternative<cmd::SetPrompt>(c)) {
      ui_.selected_position = -1;
      ui_.histogram = HistogramView{};
    } else if (const auto* f = std::get_if<cmd::Force>(&c)) {
      ui_.set_message("forced " + session_.tokenizer().display_piece(f->token_id) + " at step " +
                          std::to_string(session_.cursor()) + ": a new branch",
                      false);
    } else if (std::holds_alternative<cmd::LessonOpen>(c) ||
               std::holds_alternative<cmd::LessonNext>(c) ||
               std::holds_alternative<cmd::LessonBack>(c)) {
      apply_lesson_hints();
    } else if (std::holds_alternative<cmd::RemoveLane>(c)) {
      ui_.sampler_drafts.clear();
      ui_.selected_lane = 0;
    } else if (std::holds_alternative<cmd::AddLane>(c)) {
      ui_.sampler_drafts.clear();
    }
  }
  if (!any_error && ui_.message_is_error && !results_.empty()) ui_.message.clear();
  results_.clear();
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
  ui_.set_message(text, true);
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
  auto panel_of = [](const std::string& name) -> int {
    const char* names[] = {"prompt",   "tokens", "timeline", "distribution", "attention",
                           "kv-cache", "cost",   "compare",  "branches",     "model"};
    const PanelId ids[] = {PanelId::Prompt,       PanelId::Tokens,    PanelId::Transport,
                           PanelId::Distribution, PanelId::Attention, PanelId::KvCache,
                           PanelId::Cost,         PanelId::Compare,   PanelId::Branches,
                           PanelId::Model};
    for (int i = 0; i < 10; ++i)
      if (name == names[i]) return static_cast<int>(ids[i]);
    return name == "lesson" ? static_cast<int>(PanelId::Lesson) : -1;
  };
  for (const std::string& n : h.show)
    if (int i = panel_of(n); i >= 0) ui_.show[i] = true;
  for (const std::string& n : h.hide)
    if (int i = panel_of(n); i >= 0) ui_.show[i] = false;
  ui_.show[static_cast<int>(PanelId::Lesson)] = true;
  ui_.focus_panel = panel_of(h.focus);
  ui_.selected_position = h.select_position;  // -1 is the last position
  if (h.select_layer >= 0) ui_.selected_layer = h.select_layer;
  if (h.select_head >= 0) ui_.selected_head = h.select_head;
  ui_.ask_text = h.ask;
  // A page's question turns predict-then-reveal on until it is revealed; afterwards the
  // teacher's own setting comes back.
  if (h.hide_distribution) {
    if (!lesson_hides_) teacher_predict_ = ui_.predict_then_reveal;
    lesson_hides_ = true;
    ui_.predict_then_reveal = true;
    ui_.revealed_node = -1;
  } else if (lesson_hides_) {
    lesson_hides_ = false;
    ui_.predict_then_reveal = teacher_predict_;
    ui_.revealed_node = shown_node(session_, ui_);
  }
  const LessonPage& page = lesson_->current();
  ui_.set_message("lesson page " + std::to_string(lesson_->page() + 1) + " of " +
                      std::to_string(lesson_->page_count()) + ": " + page.title,
                  false);
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
    case ScriptVerb::Step:
      add(cmd::Step{l.n});
      break;
    case ScriptVerb::Back:
      add(cmd::Back{l.n});
      break;
    case ScriptVerb::Seek:
      add(cmd::Seek{l.n});
      break;
    case ScriptVerb::Into:
      add(cmd::StepInto{});
      break;
    case ScriptVerb::Prompt:
      ui_.prompt_edit = l.text;
      add(cmd::SetPrompt{l.text});
      break;
    case ScriptVerb::Force: {
      if (!session_.has_model()) {
        report_error("force: no model is loaded", l.line);
        break;
      }
      const Tokenizer& tok = session_.tokenizer();
      int id = -1;
      if (l.text.size() > 1 && l.text[0] == '#') {
        id = std::atoi(l.text.c_str() + 1);
        if (id < 0 || id >= tok.vocab_size()) id = -1;
      }
      if (id < 0) id = tok.find(l.text);
      if (id < 0) {  // a space typed as a space, for vocabularies that store it otherwise
        std::string alt;
        for (char ch : l.text) alt += ch == ' ' ? tok.data().space_char : std::string(1, ch);
        id = tok.find(alt);
      }
      for (int i = 0; id < 0 && i < tok.vocab_size(); ++i)
        if (tok.display_piece(i) == l.text || tok.token_bytes(i) == l.text) id = i;
      if (id < 0) {
        report_error("force: no token with the piece '" + l.text + "'", l.line);
        break;
      }
      add(cmd::Force{id, std::clamp(ui_.selected_lane, 0, session_.lane_count() - 1)});
      break;
    }
    case ScriptVerb::Lesson:
      add(cmd::LessonOpen{l.text});
      break;
    case ScriptVerb::Next:
      add(cmd::LessonNext{});
      break;
    case ScriptVerb::BackPage:
      add(cmd::LessonBack{});
      break;
    case ScriptVerb::Sampler: {
      if (!session_.has_model()) {
        report_error("sampler: no model is loaded", l.line);
        break;
      }
      Result<SamplerSettings> spec = parse_sampler_spec(l.text, session_.settings(0));
      if (!spec.ok()) {
        report_error("sampler: " + spec.error().message, l.line);
        break;
      }
      add(cmd::SetSampler{0, spec.value()});
      break;
    }
    case ScriptVerb::View: {
      if (l.text == "raw") {
        ui_.dist_stage = DistStage::Raw;
      } else if (l.text == "final") {
        ui_.dist_stage = DistStage::Final;
      } else {
        const std::vector<StageKind>& order =
            session_.lane_count() > 0 ? session_.settings(0).order : std::vector<StageKind>{};
        auto it = std::find_if(order.begin(), order.end(),
                               [&](StageKind k) { return l.text == stage_name(k); });
        if (it == order.end()) {
          report_error("view: no stage '" + l.text + "' in the sampler chain", l.line);
          break;
        }
        ui_.dist_stage = DistStage::Stage;
        ui_.dist_stage_index = static_cast<int>(it - order.begin());
      }
      break;
    }
    case ScriptVerb::Sample: {
      const int lane = shown_lane(session_, ui_);
      Result<Histogram> h = session_.histogram(l.n, lane);
      if (!h.ok()) {
        report_error("sample: " + h.error().message, l.line);
        break;
      }
      ui_.histogram_samples = l.n;
      ui_.histogram =
          HistogramView{lane, shown_node(session_, ui_), h->n_samples, h->ids, h->counts, h->p};
      break;
    }
    case ScriptVerb::Select:
      ui_.selected_position = std::max(-1, l.n);
      break;
    case ScriptVerb::Font:
      ui_.font_size = static_cast<float>(l.n);
      ui_.want_font_rebuild = true;
      break;
    case ScriptVerb::Theme:
      ui_.theme = l.text == "dark"        ? ThemeKind::Dark
                  : l.text == "projector" ? ThemeKind::Projector
                                          : ThemeKind::Light;
      break;
    case ScriptVerb::Screenshot:
      screenshot_ = Screenshot{l.text, 2, l.line};
      break;
    case ScriptVerb::Quit:
      quit_ = true;
      break;
  }
}

// ------------------------------------------------------------------------------------------
// Screenshots: the window writes the PNG; the app writes what it drew next to it.

std::optional<std::string> App::screenshot_due() const {
  if (capture_now_ && screenshot_) return screenshot_->path;
  return std::nullopt;
}

void App::screenshot_written(const std::string& path, const Status& st) {
  const int line = screenshot_ ? screenshot_->script_line : 0;
  screenshot_.reset();
  capture_now_ = false;
  if (!st.ok()) {
    report_error("screenshot: " + st.error().message, line);
    if (line == 0 && !opt_.screenshot.empty()) exit_code_ = 1;
  } else {
    write_drawn_json(path);
    if (line == 0 && !quit_after_screenshot_) ui_.set_message("saved " + path, false);
  }
  if (quit_after_screenshot_) quit_ = true;
}

void App::write_drawn_json(const std::string& png_path) {
  using nlohmann::json;
  const Palette& pal = palette(ui_.theme);
  auto rgb = [](ImU32 c) { return json::array({c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF}); };
  auto rect = [](const PanelRect& r) { return json::array({r.x, r.y, r.w, r.h}); };
  json panels = json::object();
  for (int i = 0; i < kPanelCount; ++i)
    if (ui_.show[i]) panels[panel_title(static_cast<PanelId>(i))] = rect(ui_.layout[i]);
  json items = json::array();
  for (const DrawnItem& d : ui_.drawn)
    items.push_back({{"kind", d.kind}, {"label", d.label}, {"rect", rect(d.rect)}});
  json tokens = json::array();
  json sess = {{"has_model", session_.has_model()}, {"cursor", session_.cursor()}};
  if (session_.has_model()) {
    for (const PathToken& t : session_.path_tokens(0, true))
      tokens.push_back(session_.tokenizer().display_piece(t.id));
    sess["tokens"] = tokens;
    sess["model"] = session_.model_info().path;
    if (const Step* st = session_.current_step(0)) {
      sess["chosen"] = session_.tokenizer().display_piece(st->token);
      sess["forced"] = st->forced;
    }
  }
  const ImGuiIO& io = ImGui::GetIO();
  const json j = {{"png", png_path},
                  {"window", {io.DisplaySize.x, io.DisplaySize.y}},
                  {"font_size", ui_.font_size},
                  {"theme", theme_name(ui_.theme)},
                  {"palette",
                   {{"window_bg", rgb(pal.window_bg)},
                    {"prompt_chip", rgb(pal.prompt_chip)},
                    {"generated_chip", rgb(pal.generated_chip)},
                    {"forced_chip", rgb(pal.forced_chip)},
                    {"accent", rgb(pal.accent)},
                    {"bar", rgb(pal.bar)},
                    {"bar_cut", rgb(pal.bar_cut)},
                    {"prefill", rgb(pal.prefill)},
                    {"decode", rgb(pal.decode)}}},
                  {"panels", panels},
                  {"items", items},
                  {"session", sess},
                  {"message", ui_.message}};
  std::ofstream f(png_path + ".json", std::ios::binary);
  f << j.dump(1) << '\n';
}

// ------------------------------------------------------------------------------------------
// Models folder scan and settings.

void App::rescan_models() {
  ui_.want_rescan_models = false;
  ui_.model_files.clear();
  ui_.models_dir.clear();
  std::set<std::string> seen;
  std::vector<std::string> dirs;
  for (const std::string& c : default_model_candidates(opt_.source_dir, opt_.exe_path))
    dirs.push_back(fs::path(c).parent_path().string());
  dirs.push_back("models");
  for (const std::string& d : dirs) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) continue;
    if (ui_.models_dir.empty()) ui_.models_dir = d;
    for (const fs::directory_entry& e : fs::directory_iterator(d, ec)) {
      if (e.path().extension() != ".gguf") continue;
      const std::string canon = fs::weakly_canonical(e.path(), ec).string();
      if (seen.insert(canon).second) ui_.model_files.push_back(e.path().string());
    }
  }
  std::sort(ui_.model_files.begin(), ui_.model_files.end());

  ui_.lesson_files.clear();
  seen.clear();
  std::vector<std::string> lesson_dirs = {"lessons"};
  if (!opt_.source_dir.empty())
    lesson_dirs.insert(lesson_dirs.begin(), opt_.source_dir + "/lessons");
  for (const std::string& d : lesson_dirs) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) continue;
    for (const fs::directory_entry& e : fs::directory_iterator(d, ec)) {
      if (e.path().extension() != ".md" || e.path().filename() == "README.md") continue;
      const std::string canon = fs::weakly_canonical(e.path(), ec).string();
      if (seen.insert(canon).second) ui_.lesson_files.push_back(e.path().string());
    }
  }
  std::sort(ui_.lesson_files.begin(), ui_.lesson_files.end(),
            [](const std::string& a, const std::string& b) {
              return fs::path(a).filename() < fs::path(b).filename();
            });
}

void App::save_settings_now() {
  if (!opt_.use_settings || opt_.settings_path.empty() || worker_.busy()) return;
  SessionSettings ss = capture_session_settings(session_);
  ss.prompt = ui_.prompt_edit;  // what the teacher typed, applied or not
  if (!session_.has_model()) ss.model_path = saved_session_.model_path;
  ss.tokenizer_path = saved_session_.tokenizer_path;
  if (ss.lanes.empty()) ss.lanes = saved_session_.lanes;
  const std::string text = settings_to_json(ui_, ss);
  if (text == last_saved_json_) return;
  if (save_settings(opt_.settings_path, ui_, ss).ok()) last_saved_json_ = text;
}

}  // namespace ts
