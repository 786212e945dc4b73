// begin_panel / end_panel: the one place that opens a panel's window at its layout rectangle,
// fixed (no move, no resize), with a close button wired to UiState::show. Panels draw contents
// only. No layout computation here (app/layout.cpp) and no panel contents.
#include "app/panels/panels.h"
#include "app/theme.h"
#include "imgui.h"

namespace ts {

bool begin_panel(UiState& ui, PanelId id, int extra_window_flags) {
  if (!ui.visible(id)) return false;
  const PanelRect& r = ui.rect(id);
  if (r.w > 0 && r.h > 0) {
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  }
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus |
                                 ImGuiWindowFlags_NoSavedSettings | extra_window_flags;
  // A lesson page's focus panel: its title bar in the accent colour.
  const bool focus = ui.focus_panel == static_cast<int>(id);
  if (focus) {
    const ImVec4 accent = ImGui::ColorConvertU32ToFloat4(palette(ui.theme).accent);
    const ImVec4 text = ImGui::ColorConvertU32ToFloat4(palette(ui.theme).window_bg);
    ImGui::PushStyleColor(ImGuiCol_TitleBg, accent);
    ImGui::PushStyleColor(ImGuiCol_TitleBgActive, accent);
    ImGui::PushStyleColor(ImGuiCol_Text, text);
  }
  const bool open = ImGui::Begin(panel_title(id), ui.show_flag(id), flags);
  if (focus) ImGui::PopStyleColor(3);
  if (!open) {
    ImGui::End();
    return false;
  }
  return true;
}

void end_panel() { ImGui::End(); }

void note_last_item(UiState& ui, const char* kind, const std::string& label) {
  if (!ui.record_drawn) return;
  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  ui.note_drawn(kind, label, a.x, a.y, b.x - a.x, b.y - a.y);
}

}  // namespace ts
