// Splitter handles (see splitters.h): each is a small undecorated window over a column or row
// border, holding one invisible button; dragging it moves the border.
#include "app/splitters.h"

#include "app/panel_table.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "app/theme.h"
#include "imgui.h"

namespace ts {
namespace {

// A handle on a border: vertical (a column border at x over top .. top + len) or horizontal (a
// row border at y = top over x .. x + len). Returns the drag across the border in pixels this
// frame and sets *reset on a double-click.
float handle(UiState& ui, const char* id, float x, float top, float len, bool vertical,
             bool* reset) {
  const float t = std::max(6.0f, ImGui::GetFontSize() * 0.3f);
  const ImVec2 pos = vertical ? ImVec2(x - t * 0.5f, top) : ImVec2(x, top - t * 0.5f);
  const ImVec2 size = vertical ? ImVec2(t, len) : ImVec2(len, t);
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
  float d = 0;
  if (ImGui::Begin(id, nullptr,
                   ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                       ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav)) {
    ImGui::InvisibleButton("##drag", size);
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
      ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
      const ImVec2 a = vertical ? ImVec2(x - 1.5f, top) : ImVec2(x, top - 1.5f);
      const ImVec2 b = vertical ? ImVec2(x + 1.5f, top + len) : ImVec2(x + len, top + 1.5f);
      ImGui::GetWindowDrawList()->AddRectFilled(a, b, palette(ui.prefs.theme).accent);
    }
    if (ImGui::IsItemActive())
      d = vertical ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0)) *reset = true;
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
      ImGui::SetTooltip("drag to resize; double-click for the default");
  }
  ImGui::End();
  ImGui::PopStyleVar(3);
  return d;
}

// Row borders inside the overview's columns: between two full panels stacked in one column
// (not the tokens panel, which takes the height its chips need). Dragging moves height from one
// to the other through their weights in ui.prefs.layout_prefs.weight.
void row_splitters(UiState& ui) {
  const float min_h = ImGui::GetFontSize() * 4.0f;
  for (int a = 0; a < kPanelCount; ++a) {
    const PanelRect& ra = ui.frame.rects[a];
    if (ra.w <= 0 || ui.frame.tabbed[a] || a == static_cast<int>(PanelId::Tokens)) continue;
    for (int b = 0; b < kPanelCount; ++b) {
      const PanelRect& rb = ui.frame.rects[b];
      if (b == a || rb.w <= 0 || ui.frame.tabbed[b] || b == static_cast<int>(PanelId::Tokens) ||
          b == static_cast<int>(PanelId::Transport) || b == static_cast<int>(PanelId::Status) ||
          a == static_cast<int>(PanelId::Transport))
        continue;
      if (std::abs(rb.x - ra.x) > 0.5f || std::abs(rb.w - ra.w) > 0.5f ||
          std::abs(rb.y - (ra.y + ra.h)) > 0.5f)
        continue;
      bool reset = false;
      const std::string id = "##split_row_" + std::to_string(a);
      const float dy = handle(ui, id.c_str(), ra.x, rb.y, ra.w, false, &reset);
      float& wa = ui.prefs.layout_prefs.weight[a];
      float& wb = ui.prefs.layout_prefs.weight[b];
      if (reset) wa = wb = 0;
      if (dy == 0) continue;
      const float ha = std::clamp(ra.h + dy, min_h, ra.h + rb.h - min_h);
      // Weights proportional to the heights, on the scale of the pair's heights.
      wa = ha / (ra.h + rb.h) * 10.0f;
      wb = (ra.h + rb.h - ha) / (ra.h + rb.h) * 10.0f;
      // The other panels of the column keep their heights: scale their weights alike.
      for (int c = 0; c < kPanelCount; ++c) {
        const PanelRect& rc = ui.frame.rects[c];
        if (c == a || c == b || rc.w <= 0 || ui.frame.tabbed[c] || std::abs(rc.x - ra.x) > 0.5f ||
            std::abs(rc.w - ra.w) > 0.5f || c == static_cast<int>(PanelId::Tokens))
          continue;
        ui.prefs.layout_prefs.weight[c] = rc.h / (ra.h + rb.h) * 10.0f;
      }
    }
  }
}

}  // namespace

void draw_splitters(UiState& ui) {
  const float width = ImGui::GetIO().DisplaySize.x;
  if (width <= 0) return;
  LayoutPrefs& p = ui.prefs.layout_prefs;
  const LayoutPrefs defaults;
  if (ui.prefs.presenting()) {
    const PanelRect& l = ui.frame.rect(PanelId::Lesson);
    if (l.w <= 0) return;
    bool reset = false;
    const float dx = handle(ui, "##split_lesson", l.x + l.w, l.y, l.h, true, &reset);
    float& override_w = ui.frame.size_override[static_cast<int>(PanelId::Lesson)];
    if (dx != 0) {
      p.lesson_width = std::clamp((l.w + dx) / width, 0.15f, 0.5f);
      override_w = 0;  // the teacher's drag wins over the lesson's `size lesson`
    }
    if (reset) p.lesson_width = defaults.lesson_width;
    return;
  }
  // The overview: the borders right of the left column and left of the right column.
  float left_edge = -1, right_edge = -1, top = 1e9f, bottom = 0;
  for (const PanelSpec& p : panel_table()) {  // the columns as the panel table places them
    const PanelRect& r = ui.frame.rect(p.id);
    if (p.column == Column::Left && r.w > 0) left_edge = r.x + r.w;
    if (p.column == Column::Right && r.w > 0 && r.x > 0) right_edge = r.x;
  }
  for (int i = 0; i < kPanelCount; ++i) {
    const PanelRect& r = ui.frame.rects[i];
    if (r.w <= 0 || i == static_cast<int>(PanelId::Status) ||
        i == static_cast<int>(PanelId::Transport))
      continue;
    top = std::min(top, r.y);
    bottom = std::max(bottom, r.y + r.h);
  }
  if (bottom <= top) return;
  bool reset = false;
  if (left_edge > 0 && left_edge < width - 1) {
    const float dx = handle(ui, "##split_left", left_edge, top, bottom - top, true, &reset);
    const float f = dx / width;
    if (f != 0 && p.columns[0] + f > 0.12f && p.columns[1] - f > 0.15f) {
      p.columns[0] += f;
      p.columns[1] -= f;
    }
  }
  if (right_edge > 0 && right_edge < width - 1) {
    const float dx = handle(ui, "##split_right", right_edge, top, bottom - top, true, &reset);
    const float f = dx / width;
    if (f != 0 && p.columns[1] + f > 0.15f && p.columns[2] - f > 0.12f) {
      p.columns[1] += f;
      p.columns[2] -= f;
    }
  }
  if (reset) p.columns = defaults.columns;
  row_splitters(ui);
}

}  // namespace ts
