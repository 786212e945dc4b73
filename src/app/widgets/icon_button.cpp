// Icon buttons for the transport (see icon_button.h): triangles and bars in the text colour,
// centred in a square button; disabled buttons draw in the disabled text colour.
#include "app/widgets/icon_button.h"

namespace ts {
namespace {

void triangle_right(ImDrawList* dl, ImVec2 c, float r, ImU32 col) {
  dl->AddTriangleFilled(ImVec2(c.x - r * 0.6f, c.y - r), ImVec2(c.x - r * 0.6f, c.y + r),
                        ImVec2(c.x + r * 0.8f, c.y), col);
}
void triangle_left(ImDrawList* dl, ImVec2 c, float r, ImU32 col) {
  dl->AddTriangleFilled(ImVec2(c.x + r * 0.6f, c.y - r), ImVec2(c.x - r * 0.8f, c.y),
                        ImVec2(c.x + r * 0.6f, c.y + r), col);
}
void bar(ImDrawList* dl, float x, ImVec2 c, float r, float w, ImU32 col) {
  dl->AddRectFilled(ImVec2(x, c.y - r), ImVec2(x + w, c.y + r), col);
}

}  // namespace

bool icon_button(const char* id, Icon icon, const char* tooltip, float size, bool enabled) {
  if (size <= 0) size = ImGui::GetFrameHeight() * 1.3f;
  ImGui::BeginDisabled(!enabled);
  const bool clicked = ImGui::Button(id, ImVec2(size, size));
  if (tooltip && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", tooltip);
  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  const ImVec2 c((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
  const float r = size * 0.22f;
  const float w = size * 0.09f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 col = ImGui::GetColorU32(ImGuiCol_Text);
  switch (icon) {
    case Icon::First:
      bar(dl, c.x - r * 1.1f, c, r, w, col);
      triangle_left(dl, ImVec2(c.x + r * 0.2f, c.y), r, col);
      break;
    case Icon::Back:
      triangle_left(dl, c, r, col);
      break;
    case Icon::Play:
      triangle_right(dl, ImVec2(c.x + r * 0.1f, c.y), r * 1.15f, col);
      break;
    case Icon::Pause:
      bar(dl, c.x - r * 0.7f, c, r, r * 0.5f, col);
      bar(dl, c.x + r * 0.2f, c, r, r * 0.5f, col);
      break;
    case Icon::Step:
      triangle_right(dl, c, r, col);
      break;
    case Icon::Last:
      triangle_right(dl, ImVec2(c.x - r * 0.2f, c.y), r, col);
      bar(dl, c.x + r * 1.1f - w, c, r, w, col);
      break;
    case Icon::StepInto: {
      // An arrow going right then bending down into a bar: "go inside this step".
      const float t = w * 1.1f;
      dl->AddLine(ImVec2(c.x - r * 1.1f, c.y - r * 0.6f), ImVec2(c.x + r * 0.2f, c.y - r * 0.6f),
                  col, t);
      dl->AddLine(ImVec2(c.x + r * 0.2f, c.y - r * 0.6f), ImVec2(c.x + r * 0.2f, c.y + r * 0.3f),
                  col, t);
      dl->AddTriangleFilled(ImVec2(c.x + r * 0.2f - r * 0.5f, c.y + r * 0.2f),
                            ImVec2(c.x + r * 0.2f + r * 0.5f, c.y + r * 0.2f),
                            ImVec2(c.x + r * 0.2f, c.y + r * 0.8f), col);
      dl->AddRectFilled(ImVec2(c.x - r * 1.1f, c.y + r * 0.95f),
                        ImVec2(c.x + r * 1.1f, c.y + r * 1.05f + w * 0.5f), col);
      break;
    }
  }
  ImGui::EndDisabled();
  return clicked;
}

}  // namespace ts
