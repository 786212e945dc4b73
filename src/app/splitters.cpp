// Splitter handles (see splitters.h): each is a small undecorated window over a column border,
// holding one invisible button; dragging it moves the border.
#include "app/splitters.h"

#include <algorithm>
#include <string>

#include "app/theme.h"
#include "imgui.h"

namespace ts {
namespace {

// A handle at x over (top, top + h); returns the horizontal drag in pixels this frame, and
// sets *reset on a double-click.
float handle(UiState& ui, const char* id, float x, float top, float h, bool* reset) {
  const float w = std::max(6.0f, ImGui::GetFontSize() * 0.3f);
  ImGui::SetNextWindowPos(ImVec2(x - w * 0.5f, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  float dx = 0;
  if (ImGui::Begin(id, nullptr,
                   ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                       ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav)) {
    ImGui::InvisibleButton("##drag", ImVec2(w, h));
    const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
    if (hot) {
      ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(x - 1.5f, top), ImVec2(x + 1.5f, top + h),
                                                palette(ui.theme).accent);
    }
    if (ImGui::IsItemActive()) dx = ImGui::GetIO().MouseDelta.x;
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0)) *reset = true;
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
      ImGui::SetTooltip("drag to resize; double-click for the default");
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
  return dx;
}

}  // namespace

void draw_splitters(UiState& ui) {
  const float width = ImGui::GetIO().DisplaySize.x;
  if (width <= 0) return;
  LayoutPrefs& p = ui.layout_prefs;
  const LayoutPrefs defaults;
  if (ui.presenting()) {
    const PanelRect& l = ui.rect(PanelId::Lesson);
    if (l.w <= 0) return;
    bool reset = false;
    const float dx = handle(ui, "##split_lesson", l.x + l.w, l.y, l.h, &reset);
    float& override_w = ui.size_override[static_cast<int>(PanelId::Lesson)];
    if (dx != 0) {
      p.lesson_width = std::clamp((l.w + dx) / width, 0.15f, 0.5f);
      override_w = 0;  // the teacher's drag wins over the lesson's `size lesson`
    }
    if (reset) p.lesson_width = defaults.lesson_width;
    return;
  }
  // The overview: the borders right of the left column and left of the right column.
  const PanelId lefts[] = {PanelId::Lesson, PanelId::Prompt, PanelId::KvCache, PanelId::Model};
  const PanelId rights[] = {PanelId::Attention, PanelId::Cost, PanelId::Branches};
  float left_edge = -1, right_edge = -1, top = 1e9f, bottom = 0;
  for (PanelId id : lefts)
    if (ui.rect(id).w > 0) left_edge = ui.rect(id).x + ui.rect(id).w;
  for (PanelId id : rights)
    if (ui.rect(id).w > 0 && ui.rect(id).x > 0) right_edge = ui.rect(id).x;
  for (int i = 0; i < kPanelCount; ++i) {
    const PanelRect& r = ui.layout[i];
    if (r.w <= 0 || i == static_cast<int>(PanelId::Status) ||
        i == static_cast<int>(PanelId::Transport))
      continue;
    top = std::min(top, r.y);
    bottom = std::max(bottom, r.y + r.h);
  }
  if (bottom <= top) return;
  bool reset = false;
  if (left_edge > 0 && left_edge < width - 1) {
    const float dx = handle(ui, "##split_left", left_edge, top, bottom - top, &reset);
    const float f = dx / width;
    if (f != 0 && p.columns[0] + f > 0.12f && p.columns[1] - f > 0.15f) {
      p.columns[0] += f;
      p.columns[1] -= f;
    }
  }
  if (right_edge > 0 && right_edge < width - 1) {
    const float dx = handle(ui, "##split_right", right_edge, top, bottom - top, &reset);
    const float f = dx / width;
    if (f != 0 && p.columns[1] + f > 0.15f && p.columns[2] - f > 0.12f) {
      p.columns[1] += f;
      p.columns[2] -= f;
    }
  }
  if (reset) p.columns = defaults.columns;
}

}  // namespace ts
