// The switchboard and the global keyboard shortcuts (see switchboard.h).
#include "app/switchboard.h"

#include <algorithm>

#include "app/appearance.h"
#include "app/panel_table.h"
#include "app/panels/panels.h"
#include "app/splitters.h"
#include "app/view.h"
#include "imgui.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

void draw_switchboard(const Session& s, const LessonRunner* lesson, UiState& ui, Commands& cmd) {
  draw_menu_bar(s, ui, cmd);
  const PanelEnv env = ui.env();  // what every panel shares; each gets its own part besides
  if (ui.trace_view.trace) {      // a trace without its model: it alone, until closed
    draw_status_panel(s, env, ui.trace_view, cmd);
    draw_read_only_trace(env, ui.trace_view, cmd);
    return;
  }
  for (const PanelSpec& p : panel_table()) p.draw(s, lesson, ui, cmd);
  draw_more_tabs(env, cmd);
  draw_splitters(ui);
}

namespace {

// GLFW key codes (GLFW/glfw3.h), used by the 1.86 GLFW backend as io.KeysDown indices.
constexpr int kKeyMinus = 45, kKeyEqual = 61, kKeyQ = 81, kKeyR = 82, kKey0 = 48, kKeyF1 = 290;
constexpr int kKeyF11 = 300;
constexpr int kKeyPadSubtract = 333, kKeyPadAdd = 334;

bool pressed_raw(int key) {
  return key >= 0 && key < IM_ARRAYSIZE(ImGuiIO::KeysDown) && ImGui::IsKeyPressed(key);
}
bool pressed(ImGuiKey_ key) { return pressed_raw(ImGui::GetKeyIndex(key)); }

}  // namespace

void handle_shortcuts(const Session& s, const LessonRunner* lesson, UiState& ui, Commands& cmd) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  if (ui.trace_view.trace && !io.KeyCtrl) {  // moving through the recorded steps; Escape closes
    if (pressed(ImGuiKey_RightArrow)) cmd.push(cmd::Step{1});
    if (pressed(ImGuiKey_LeftArrow)) cmd.push(cmd::Back{1});
    if (pressed(ImGuiKey_Home)) cmd.push(cmd::First{});
    if (pressed(ImGuiKey_End)) cmd.push(cmd::Last{});
    if (pressed(ImGuiKey_Escape)) ui.trace_view.trace.reset();
    if (pressed_raw(kKeyF1)) ui.menu.show_about = !ui.menu.show_about;
    return;
  }
  if (io.KeyCtrl) {
    if (pressed_raw(kKeyEqual) || pressed_raw(kKeyPadAdd))
      set_font_size(ui, ui.prefs.font_size + 2.0f);
    if (pressed_raw(kKeyMinus) || pressed_raw(kKeyPadSubtract))
      set_font_size(ui, ui.prefs.font_size - 2.0f);
    if (pressed_raw(kKeyQ)) cmd.push(cmd::Quit{});
    return;
  }
  // 1 ... 9, 0: that panel in focus (shown if it was hidden); again, or Escape: the overview.
  for (int i = 0; i < kPanelCount; ++i) {
    const char* k = panel_key_name(static_cast<PanelId>(i));
    if (!*k || !pressed_raw(kKey0 + (k[0] - '0'))) continue;
    ui.prefs.show[i] = true;
    ui.prefs.focus_panel = ui.prefs.focus_panel == i ? -1 : i;
  }
  if (pressed(ImGuiKey_Escape)) ui.prefs.focus_panel = -1;
  if (pressed_raw(kKeyF1)) ui.menu.show_about = !ui.menu.show_about;
  if (pressed_raw(kKeyF11)) ui.status.want_fullscreen = !ui.status.fullscreen;
  if (lesson) {
    if (pressed(ImGuiKey_PageDown)) cmd.push(cmd::LessonNext{});
    if (pressed(ImGuiKey_PageUp)) cmd.push(cmd::LessonBack{});
  }
  if (!has_model(s)) return;
  if (pressed(ImGuiKey_Space)) cmd.push(cmd::TogglePlay{});
  if (pressed(ImGuiKey_RightArrow)) {
    if (io.KeyShift)
      cmd.push(cmd::StepInto{});
    else
      cmd.push(cmd::Step{1});
  }
  if (pressed(ImGuiKey_LeftArrow) && s.cursor() > -1) cmd.push(cmd::Back{1});
  if (pressed(ImGuiKey_Home)) cmd.push(cmd::First{});
  if (pressed(ImGuiKey_End)) cmd.push(cmd::Last{});
  if (pressed_raw(kKeyR) && ui.sel.predict_then_reveal)
    ui.sel.revealed_node = shown_node(s, ui.sel);
}

}  // namespace ts
