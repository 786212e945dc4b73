// App, part 3: what touches files: the JSON report written beside each screenshot (what was
// drawn where, for the window smoke test; the class poll's tally), the scan of the models and
// lessons folders, and the settings file. The PNG itself is written by the window (window.cpp).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/lesson_render.h"
#include "app/platform.h"
#include "app/theme.h"
#include "app/widgets/units.h"
#include "formats/memory_budget.h"
#include "formats/model_file.h"
#include "imgui.h"
#include "session/default_model.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {

namespace fs = std::filesystem;

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
    if (line == 0 && !quit_after_screenshot_) {
      ui_.status.set_message("saved " + path, false);
      platform::offer_file(path);
    }
  }
  if (quit_after_screenshot_) quit_ = true;
}

namespace {

using nlohmann::json;

json rect_json(const PanelRect& r) { return json::array({r.x, r.y, r.w, r.h}); }

// The theme's colours the screenshot checks look for, as [r, g, b].
json palette_json(const Palette& pal) {
  auto rgb = [](ImU32 c) { return json::array({c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF}); };
  return {{"window_bg", rgb(pal.window_bg)},
          {"prompt_chip", rgb(pal.prompt_chip)},
          {"generated_chip", rgb(pal.generated_chip)},
          {"forced_chip", rgb(pal.forced_chip)},
          {"accent", rgb(pal.accent)},
          {"bar", rgb(pal.bar)},
          {"bar_cut", rgb(pal.bar_cut)},
          {"prefill", rgb(pal.prefill)},
          {"decode", rgb(pal.decode)}};
}

// Each shown panel: its rectangle, and (when drawn whole, not as a tab) the content beyond its
// visible region, [below, right] in pixels.
json panels_json(const UiState& ui) {
  json panels = json::object();
  json hidden = json::object();
  for (const PanelOverflow& o : ui.log.overflow) hidden[o.panel] = json::array({o.below, o.right});
  for (int i = 0; i < kPanelCount; ++i) {
    if (!ui.prefs.show[i]) continue;
    const char* title = panel_title(static_cast<PanelId>(i));
    panels[title] = {{"rect", rect_json(ui.frame.rects[i])}, {"tab", ui.frame.tabbed[i]}};
    if (hidden.contains(title)) panels[title]["hidden_px"] = hidden[title];
  }
  return panels;
}

json tabs_json(const UiState& ui) {
  json tabs = json::array();
  for (int i = 0; i < kPanelCount; ++i)
    if (ui.prefs.show[i] && ui.frame.tabbed[i])
      tabs.push_back(panel_title(static_cast<PanelId>(i)));
  return tabs;
}

// Every item the frame noted, and (the Compare panel) whether each lane's newest token is in view.
json items_json(const DrawLog& log, json& lanes) {
  json items = json::array();
  for (const DrawnItem& d : log.drawn) {
    json it = {{"kind", d.kind},
               {"label", d.label},
               {"rect", rect_json(d.rect)},
               {"panel", d.panel},
               {"visible", d.visible}};
    if (!d.state.empty()) it["state"] = d.state;
    items.push_back(std::move(it));
    if (d.kind == "lane_newest") lanes.push_back({{"name", d.state}, {"newest_visible", d.visible}});
  }
  return items;
}

json clipped_json(const DrawLog& log) {
  json clipped = json::array();
  for (const ClippedText& c : log.clipped)
    clipped.push_back({{"panel", c.panel}, {"text", c.text}, {"how", c.how}});
  return clipped;
}

// The session as the panels show it: lane 0's tokens, the model, the step on screen.
json session_json(const Session& s) {
  json sess = {{"has_model", has_model(s)}, {"cursor", s.cursor()}};
  if (!has_model(s)) return sess;
  json tokens = json::array();
  for (const PathToken& t : path_tokens(s, 0, true))
    tokens.push_back(s.tokenizer().display_piece(t.id));
  sess["tokens"] = tokens;
  sess["model"] = model_info(s).path;
  if (const Step* st = current_step(s, 0)) {
    sess["chosen"] = s.tokenizer().display_piece(st->token);
    sess["forced"] = st->forced;
  }
  return sess;
}

// The open lesson's page and its checks (null without a lesson).
json lesson_json(const LessonRunner* lesson, const Session& s, const DrawLog& log) {
  if (!lesson || lesson->page() < 0) return nullptr;
  int passed = 0;
  const std::vector<CheckResult> checks = lesson->check_page(s);
  for (const CheckResult& c : checks) passed += c.ok ? 1 : 0;
  return {{"title", lesson->lesson().title},
          {"page", lesson->page()},
          {"page_count", lesson->page_count()},
          {"page_title", lesson->current().title},
          {"checks", checks.size()},
          {"checks_passed", passed},
          {"text_hidden_px", screen_record(log).text_hidden_px}};
}

// The class poll, as its panel shows it (null when none runs).
json poll_json(const PollPanelState& p) {
  if (!p.running) return nullptr;
  json top = json::array();
  for (const PollBarRow& b : p.bars)
    top.push_back({{"piece", b.piece}, {"count", b.count}, {"rank", b.rank}, {"p", b.p}});
  return {{"open", p.open},
          {"guesses", p.answered},
          {"counted", p.counted},
          {"like_model", p.like_model},
          {"model_top", p.model_top},
          {"step", p.step},
          {"url", p.url},
          {"top", top}};
}

}  // namespace

void App::write_drawn_json(const std::string& png_path) {
  json lanes = json::array();
  const json items = items_json(ui_.log, lanes);
  const ImGuiIO& io = ImGui::GetIO();
  const json j = {{"png", png_path},
                  {"window", {io.DisplaySize.x, io.DisplaySize.y}},
                  {"font_size", ui_.prefs.font_size},
                  {"theme", theme_name(ui_.prefs.theme)},
                  {"palette", palette_json(palette(ui_.prefs.theme))},
                  {"panels", panels_json(ui_)},
                  {"focus", ui_.prefs.presenting()
                                ? json(panel_title(static_cast<PanelId>(ui_.prefs.focus_panel)))
                                : json(nullptr)},
                  {"tabs", tabs_json(ui_)},
                  {"clipped", clipped_json(ui_.log)},
                  {"items", items},
                  {"session", session_json(session_)},
                  {"lesson", lesson_json(lesson_.get(), session_, ui_.log)},
                  {"compare", lanes.empty() ? json(nullptr) : json({{"lanes", lanes}})},
                  {"poll", poll_json(ui_.poll)},
                  {"message", ui_.status.message}};
  std::ofstream f(png_path + ".json", std::ios::binary);
  f << j.dump(1) << '\n';
}

// ------------------------------------------------------------------------------------------
// Models folder scan and settings.

namespace {

// What the picker says about a model file before it is loaded (its header only).
std::string model_file_note(const std::string& path) {
  Result<ModelFileInfo> r = inspect_model_file(path);
  if (!r.ok()) return "cannot be opened: " + r.error().message;
  const ModelFileInfo& m = r.value();
  const ModelConfig& c = m.config;
  const double n = static_cast<double>(m.n_params);
  char params[32];
  if (n >= 1e9) {
    std::snprintf(params, sizeof params, "%.2fB", n / 1e9);
  } else if (n >= 1e6) {
    std::snprintf(params, sizeof params, "%.1fM", n / 1e6);
  } else {
    std::snprintf(params, sizeof params, "%.0fK", n / 1e3);
  }
  std::string note = c.architecture + " · " + params + " parameters · " + std::to_string(c.n_layers) + " layers × " +
                     std::to_string(c.n_heads) + " heads · vocab " +
                     std::to_string(c.vocab_size) + " · context " + std::to_string(c.n_ctx);
  if (!m.tensor_types.empty()) note += "\ntensors: " + m.tensor_types;
  note += "\nfile " + format_bytes(static_cast<double>(m.file_bytes)) + ", " +
          format_bytes(static_cast<double>(m.memory_bytes)) + " in memory once loaded";
  const std::optional<uint64_t> avail = available_memory_bytes();
  if (avail && m.memory_bytes > *avail)
    note += "\ntoo big for this machine: " + format_bytes(static_cast<double>(*avail)) +
            " available";
  return note;
}

}  // namespace

void App::rescan_models() {
  ui_.prompt.want_rescan_models = false;
  ui_.prompt.model_files.clear();
  ui_.prompt.models_dir.clear();
  std::set<std::string> seen;
  std::vector<std::string> dirs;
  for (const std::string& c : default_model_candidates(opt_.source_dir, opt_.exe_path))
    dirs.push_back(fs::path(c).parent_path().string());
  dirs.push_back("models");
  for (const std::string& d : dirs) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) continue;
    if (ui_.prompt.models_dir.empty()) ui_.prompt.models_dir = d;
    for (const fs::directory_entry& e : fs::directory_iterator(d, ec)) {
      if (e.path().extension() != ".gguf") continue;
      const std::string canon = fs::weakly_canonical(e.path(), ec).string();
      if (seen.insert(canon).second) ui_.prompt.model_files.push_back(e.path().string());
    }
  }
  std::sort(ui_.prompt.model_files.begin(), ui_.prompt.model_files.end());
  ui_.prompt.model_notes.clear();
  for (const std::string& f : ui_.prompt.model_files)
    ui_.prompt.model_notes.push_back(model_file_note(f));

  ui_.lesson.files.clear();
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
      if (seen.insert(canon).second) ui_.lesson.files.push_back(e.path().string());
    }
  }
  std::sort(ui_.lesson.files.begin(), ui_.lesson.files.end(),
            [](const std::string& a, const std::string& b) {
              return fs::path(a).filename() < fs::path(b).filename();
            });
}

void App::save_settings_now() {
  if (!opt_.use_settings || opt_.settings_path.empty() || worker_.busy()) return;
  SessionSettings ss = capture_session_settings(session_);
  ss.prompt = ui_.prompt.prompt_edit;  // what the teacher typed, applied or not
  if (!has_model(session_)) ss.model_path = saved_session_.model_path;
  ss.tokenizer_path = saved_session_.tokenizer_path;
  if (ss.lanes.empty()) ss.lanes = saved_session_.lanes;
  const std::string text = settings_to_json(ui_, ss);
  if (text == last_saved_json_) return;
  if (save_settings(opt_.settings_path, ui_, ss).ok()) {
    last_saved_json_ = text;
    platform::settings_written(opt_.settings_path);
  }
}
}  // namespace ts
