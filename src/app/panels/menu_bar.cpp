// The main menu bar: File (open a model, export the window as PNG, export the trace as JSON,
// quit), View (every panel, font size, chip colouring, predict-then-reveal), Theme (light, dark,
// projector preset), Poll (the class poll: start it on a LAN address, open and close the
// question, stop; on the web page, why there is none) and Help (the keyboard map). UI options change UiState directly;
// anything touching the session or files is a Command.
#include <algorithm>
#include <string>

#include "app/appearance.h"
#include "app/panels/panels.h"
#include "app/platform.h"
#include "app/ui_state.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

void help_windows(UiState& ui) {
  if (ui.menu.show_about) {
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0), ImGuiCond_Always);
    const ImVec2 c = ImGui::GetMainViewport()->GetCenter();
    ImGui::SetNextWindowPos(c, ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("Keyboard and help", &ui.menu.show_about,
                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                         ImGuiWindowFlags_AlwaysAutoResize)) {
      text_wrapped(
          "tokenscope runs a small transformer on this computer and records every "
          "iteration of text generation, so you can step through it.");
      ImGui::Separator();
      const char* keys[][2] = {{"Space", "play / pause"},
                               {"Right arrow", "step: one whole iteration"},
                               {"Shift + Right", "step into: the next phase inside an iteration"},
                               {"Left arrow", "back one step (nothing is lost)"},
                               {"Home / End", "before the prefill / the last recorded step"},
                               {"Ctrl + / Ctrl -", "larger / smaller text"},
                               {"R", "reveal the prediction (predict, then reveal)"},
                               {"PageDown / PageUp", "next / previous lesson page"},
                               {"1 … 9, 0", "show that panel large (the list below)"},
                               {"Escape", "back to every panel"},
                               {"Ctrl + Q", "quit"}};
      if (ImGui::BeginTable("keys", 2)) {
        for (const auto& k : keys) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(k[0]);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(k[1]);
        }
        ImGui::EndTable();
      }
      ImGui::Separator();
      if (ImGui::BeginTable("panel_keys", 4)) {  // key, panel, key, panel
        for (int i = 0; i < kPanelCount; ++i) {
          const PanelId id = static_cast<PanelId>(i);
          if (!*panel_key_name(id)) continue;
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(panel_key_name(id));
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(panel_title(id));
        }
        ImGui::EndTable();
      }
      ImGui::Separator();
      text_wrapped(
          "Click a token chip to select its position; click a probability bar to "
          "force that token (a new branch); drag on the timeline to scrub. Double-click a "
          "panel's title to show it large; click a tab to bring it up; drag the borders "
          "between columns to resize them.");
    }
    ImGui::End();
  }
}

// The Poll menu: where to start the class poll (this machine's LAN addresses, or this computer
// only), then, while it runs, the question and stop.
void poll_menu(UiState& ui, Commands& cmd) {
  PollPanelState& p = ui.poll;
  if (!p.available) {
    ImGui::TextUnformatted("A web page cannot host the class poll:");
    note_text_item(ui.log, "A web page cannot host the class poll:");
    ImGui::TextUnformatted("a browser cannot run a server.");
    ImGui::TextDisabled("Use the desktop app: tokenscope --poll 0.0.0.0:8080");
    return;
  }
  if (p.running) {
    ImGui::TextDisabled("Students open %s", p.url.c_str());
    if (ImGui::MenuItem("Open the question for this step", nullptr, false, !p.open))
      cmd.push(cmd::PollOpen{});
    note_last_item(ui.log, "menu_item", "poll_open");
    if (ImGui::MenuItem("Close the question", nullptr, false, p.open)) cmd.push(cmd::PollClose{});
    note_last_item(ui.log, "menu_item", "poll_close");
    if (ImGui::MenuItem("Show the Class poll panel"))
      ui.prefs.show[static_cast<int>(PanelId::Poll)] = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Stop the poll")) cmd.push(cmd::PollStop{});
    note_last_item(ui.log, "menu_item", "poll_stop");
    return;
  }
  ImGui::TextDisabled("Start the class poll: students' phones open this address");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::InputInt("port", &p.port_edit, 0);
  p.port_edit = std::clamp(p.port_edit, 1, 65535);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::InputTextWithHint("class code", "random", &p.code_edit, ImGuiInputTextFlags_CharsDecimal);
  if (p.code_edit.size() > 4) p.code_edit.resize(4);
  const bool code_ok = p.code_edit.empty() || p.code_edit.size() == 4;
  const std::string port = ":" + std::to_string(p.port_edit);
  for (const std::string& a : p.addresses) {
    if (ImGui::MenuItem(("On the network: " + a + port).c_str(), nullptr, false, code_ok))
      cmd.push(cmd::PollStart{a + port, p.code_edit});
    note_last_item(ui.log, "menu_item", "poll_start " + a + port);
  }
  if (p.addresses.empty()) ImGui::TextDisabled("(no network address found)");
  if (ImGui::MenuItem(("This computer only: 127.0.0.1" + port).c_str(), nullptr, false, code_ok))
    cmd.push(cmd::PollStart{"127.0.0.1" + port, p.code_edit});
  note_last_item(ui.log, "menu_item", "poll_start 127.0.0.1" + port);
  if (!p.notice.empty()) ImGui::TextUnformatted(p.notice.c_str());
}

// File: open a model, a lesson (shipped or by path) or a trace; export; quit.
void file_menu(const Session& s, UiState& ui, Commands& cmd) {
  if (!ImGui::BeginMenu("File")) return;
  if (ImGui::MenuItem("Open model…")) {
    ui.prompt.open_model_popup = true;
    ui.prefs.show[static_cast<int>(PanelId::Prompt)] = true;
  }
  if (ImGui::BeginMenu("Open lesson", !ui.lesson.files.empty())) {
    for (size_t i = 0; i < ui.lesson.files.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      const std::string& f = ui.lesson.files[i];
      const size_t slash = f.find_last_of('/');
      if (ImGui::MenuItem(slash == std::string::npos ? f.c_str() : f.c_str() + slash + 1))
        cmd.push(cmd::LessonOpen{f});
      ImGui::PopID();
    }
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Open lesson file…")) ui.prefs.show[static_cast<int>(PanelId::Lesson)] = true;
  if (ImGui::BeginMenu("Open trace…")) {  // a trace exported by tokenscope, replayed
    ImGui::TextDisabled("A trace JSON exported by tokenscope: its run is replayed exactly");
    ImGui::TextDisabled("(the model file it names must be here).");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 22.0f);
    ImGui::InputTextWithHint("##trace_path", "tokenscope-….trace.json", &ui.menu.trace_path_edit);
    if (ImGui::MenuItem("Open", nullptr, false, !ui.menu.trace_path_edit.empty()))
      cmd.push(cmd::OpenTrace{ui.menu.trace_path_edit});
    ImGui::EndMenu();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Export PNG of the window")) cmd.push(cmd::ExportPng{""});
  if (ImGui::MenuItem("Export trace JSON", nullptr, false, has_model(s) && s.cursor() >= 0))
    cmd.push(cmd::ExportTrace{""});
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) cmd.push(cmd::Quit{});
  ImGui::EndMenu();
}

// View: every panel with its key, the overview, full screen, text size, the chips' options.
void view_menu(UiState& ui) {
  if (!ImGui::BeginMenu("View")) return;
  for (int i = 0; i < kPanelCount; ++i) {
    ImGui::PushID(i);
    const char* key = panel_key_name(static_cast<PanelId>(i));
    ImGui::MenuItem(panel_title(static_cast<PanelId>(i)), *key ? key : nullptr, &ui.prefs.show[i]);
    ImGui::PopID();
  }
  if (ImGui::MenuItem("Every panel (no focus)", "Esc", false, ui.prefs.focus_panel >= 0))
    ui.prefs.focus_panel = -1;
  ImGui::Separator();
  if (platform::can_go_fullscreen() && ImGui::MenuItem("Full screen", "F11", ui.status.fullscreen))
    ui.status.want_fullscreen = !ui.status.fullscreen;
  if (ImGui::MenuItem("Larger text", "Ctrl +")) set_font_size(ui, ui.prefs.font_size + 2);
  if (ImGui::MenuItem("Smaller text", "Ctrl -")) set_font_size(ui, ui.prefs.font_size - 2);
  ImGui::Separator();
  ImGui::MenuItem("Colour generated tokens by probability", nullptr, &ui.prefs.color_chips_by_p);
  ImGui::MenuItem("Position numbers on tokens", nullptr, &ui.prefs.show_position_numbers);
  ImGui::MenuItem("Predict, then reveal", "R", &ui.sel.predict_then_reveal);
  ImGui::EndMenu();
}

// Theme: light, dark, or the projector preset (appearance.h).
void theme_menu(UiState& ui) {
  if (!ImGui::BeginMenu("Theme")) return;
  for (ThemeKind t : {ThemeKind::Light, ThemeKind::Dark, ThemeKind::Projector}) {
    const char* label = t == ThemeKind::Light  ? "Light"
                        : t == ThemeKind::Dark ? "Dark"
                                               : "Projector (large text, high contrast)";
    if (ImGui::MenuItem(label, nullptr, ui.prefs.theme == t)) set_theme(ui, t);
  }
  ImGui::EndMenu();
}

}  // namespace

void draw_menu_bar(const Session& s, UiState& ui, Commands& cmd) {
  if (ImGui::BeginMainMenuBar()) {
    ui.frame.menu_bar_height = ImGui::GetWindowSize().y;
    file_menu(s, ui, cmd);
    view_menu(ui);
    theme_menu(ui);
    const bool poll_open = ImGui::BeginMenu("Poll");
    note_last_item(ui.log, "menu", "Poll");
    if (poll_open) {
      poll_menu(ui, cmd);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
      if (ImGui::MenuItem("Keyboard and help", "F1")) ui.menu.show_about = true;
      ImGui::EndMenu();
    }
    if (ui.status.busy) {
      ImGui::Separator();
      ImGui::TextDisabled("%s…", ui.status.busy_label.c_str());
    }
    ImGui::EndMainMenuBar();
  }
  help_windows(ui);
}

}  // namespace ts
