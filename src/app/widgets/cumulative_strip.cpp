// Cumulative strip (see cumulative_strip.h). Segments alternate two tones of the bar colour so
// neighbours stay distinct; labels are drawn only where they fit.
#include "app/widgets/cumulative_strip.h"

#include <algorithm>
#include <cstdio>

#include "app/fonts.h"
#include "imgui.h"

namespace ts {

int draw_cumulative_strip(const char* id, const std::vector<StripSegment>& segments, double u,
                          float height, const Palette& pal, DrawLog& log,
                          const StripLegend& legend) {
  ImGui::PushID(id);
  ImFont* small = app_font(FontRole::Small);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float w = std::max(40.0f, ImGui::GetContentRegionAvail().x);
  const float label_h = small->FontSize + 4.0f;
  // The row under the strip holds the u label and the legend; without either (a greedy step,
  // nothing to explain) only the tick marks need room.
  const bool label_row = u >= 0 || !legend.text.empty();
  ImGui::InvisibleButton("strip", ImVec2(w, height + (label_row ? label_h : 5.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const float mx = ImGui::GetIO().MousePos.x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 tone_a = pal.bar;
  const ImU32 tone_b = mix_color(pal.bar, pal.window_bg, 0.45f);
  double covered = 0;
  int hovered_id = -1;
  for (size_t i = 0; i < segments.size(); ++i) {
    const StripSegment& sg = segments[i];
    const float x0 = p0.x + static_cast<float>(sg.lo) * w;
    const float x1 = p0.x + static_cast<float>(sg.hi) * w;
    const ImU32 fill = sg.chosen ? pal.accent : (i % 2 ? tone_b : tone_a);
    dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(std::max(x0 + 1, x1), p0.y + height), fill);
    if (sg.chosen) log.note_drawn("strip_chosen", sg.label, x0, p0.y, x1 - x0, height);
    const ImVec2 ts = small->CalcTextSizeA(small->FontSize, 1e9f, 0, sg.label.c_str());
    if (ts.x + 6 < x1 - x0)
      dl->AddText(small, small->FontSize,
                  ImVec2((x0 + x1 - ts.x) * 0.5f, p0.y + (height - ts.y) * 0.5f),
                  sg.chosen || i % 2 == 0 ? pal.window_bg : pal.text, sg.label.c_str());
    if (hovered && mx >= x0 && mx < x1) {
      hovered_id = sg.id;
      ImGui::SetTooltip("%s: [%.3f, %.3f)  p = %.1f%%%s", sg.label.c_str(), sg.lo, sg.hi,
                        100.0 * (sg.hi - sg.lo), sg.chosen ? "\nu fell here: chosen" : "");
    }
    covered = std::max(covered, sg.hi);
  }
  if (covered < 0.999) {  // tokens not recorded
    const float x0 = p0.x + static_cast<float>(covered) * w;
    dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(p0.x + w, p0.y + height), pal.bar_cut);
    if (p0.x + w - x0 > ImGui::CalcTextSize("other").x + 6)
      dl->AddText(small, small->FontSize, ImVec2(x0 + 4, p0.y + (height - small->FontSize) * 0.5f),
                  pal.text_dim, "other");
    if (hovered && mx >= x0)
      ImGui::SetTooltip("every other token: %.1f%% together", 100.0 * (1.0 - covered));
  }
  dl->AddRect(p0, ImVec2(p0.x + w, p0.y + height), pal.grid);
  // Ticks at 0, 0.5, 1.
  for (int t = 0; t <= 4; ++t) {
    const float x = p0.x + w * t / 4.0f;
    dl->AddLine(ImVec2(x, p0.y + height), ImVec2(x, p0.y + height + 3), pal.text_dim);
  }
  float u_lo = p0.x + w, u_hi = p0.x + w;  // where the u label is (none: off the right edge)
  if (u >= 0) {
    const float x = p0.x + static_cast<float>(u) * w;
    const float r = height * 0.22f;
    dl->AddLine(ImVec2(x, p0.y - 3), ImVec2(x, p0.y + height + 2), pal.text,
                pal.line_thickness * 2.0f);
    dl->AddTriangleFilled(ImVec2(x - r, p0.y + height + label_h - 2),
                          ImVec2(x + r, p0.y + height + label_h - 2), ImVec2(x, p0.y + height + 2),
                          pal.text);
    char buf[32];
    std::snprintf(buf, sizeof buf, "u = %.3f", u);
    const float tw = small->CalcTextSizeA(small->FontSize, 1e9f, 0, buf).x;
    float tx = x + r + 4;
    if (tx + tw > p0.x + w) tx = x - r - 4 - tw;
    dl->AddText(small, small->FontSize, ImVec2(tx, p0.y + height + 2), pal.text, buf);
    log.note_drawn("u_needle", buf, x - 1, p0.y, 2, height);
    log.note_drawn("text", buf, tx, p0.y + height + 2, tw, small->FontSize);
    u_lo = std::min(tx, x - r);
    u_hi = std::max(tx + tw, x + r);
  }
  if (!legend.text.empty()) {  // right-aligned, or left when the u label is on the right
    const float lw = small->CalcTextSizeA(small->FontSize, 1e9f, 0, legend.text.c_str()).x;
    float lx = p0.x + w - lw;
    if (lx < u_hi + 8) lx = u_lo - lw - 8 >= p0.x ? p0.x : lx;
    if (lx + lw <= u_lo - 8 || lx >= u_hi + 8) {
      dl->AddText(small, small->FontSize, ImVec2(lx, p0.y + height + 2),
                  legend.color ? legend.color : pal.text_dim, legend.text.c_str());
      log.note_drawn("text", legend.text, lx, p0.y + height + 2, lw, small->FontSize);
    }
  }
  ImGui::PopID();
  return hovered_id;
}

}  // namespace ts
