// Flow layout for rows of controls: put the next item on the same line only when it fits, so a
// narrow panel wraps its controls instead of clipping them. Width estimates for common items.
#pragma once
#include "imgui.h"

namespace ts {

// Call between two items: SameLine() if an item `next_width` wide fits after the last one.
inline void flow_same_line(float next_width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + next_width <= right)
    ImGui::SameLine();
}

// Width of ImGui::Checkbox(label) / RadioButton(label).
inline float checkbox_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
         ImGui::CalcTextSize(label, nullptr, true).x;
}

}  // namespace ts
