// Cumulative strip (see cumulative_strip.h). Segments alternate two tones of the bar colour so
// neighbours stay distinct; labels are drawn only where they fit.
#include "app/widgets/cumulative_strip.h"

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <utility>

#include "app/fonts.h"
#include "imgui.h"

namespace ts {

namespace {

// The strip's frame: its top-left, width, bar height, the small font and its label row.
struct StripFrame {
  ImVec2 p0;
  float w = 0, height = 0, label_h = 0;
  ImFont* small = nullptr;
  float x(double at) const { return p0.x + static_cast<float>(at) * w; }
};

// The segments side by side (alternating tones, the chosen one in the accent), each labelled
// where its label fits, then what no segment covers as "other"; tooltips under the mouse.
// Returns the hovered segment's id (-1: none).
int draw_segments(const StripFrame& f, const std::vector<StripSegment>& segments, bool hovered,
                  const Palette& pal, DrawLog& log) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImFont* small = f.small;
  const ImVec2 p0 = f.p0;
  const float height = f.height, mx = ImGui::GetIO().MousePos.x;
  const ImU32 tone_a = pal.bar;
  const ImU32 tone_b = mix_color(pal.bar, pal.window_bg, 0.45f);
  double covered = 0;
  int hovered_id = -1;
  for (size_t i = 0; i < segments.size(); ++i) {
    const StripSegment& sg = segments[i];
    const float x0 = f.x(sg.lo), x1 = f.x(sg.hi);
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
    const float x0 = f.x(covered);
    dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(p0.x + f.w, p0.y + height), pal.bar_cut);
    if (p0.x + f.w - x0 > ImGui::CalcTextSize("other").x + 6)
      dl->AddText(small, small->FontSize, ImVec2(x0 + 4, p0.y + (height - small->FontSize) * 0.5f),
                  pal.text_dim, "other");
    if (hovered && mx >= x0)
      ImGui::SetTooltip("every other token: %.1f%% together", 100.0 * (1.0 - covered));
  }
  return hovered_id;
}

// The border and ticks at 0, 1/4, ..., 1.
void draw_strip_frame(const StripFrame& f, const Palette& pal) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRect(f.p0, ImVec2(f.p0.x + f.w, f.p0.y + f.height), pal.grid);
  for (int t = 0; t <= 4; ++t) {
    const float x = f.p0.x + f.w * t / 4.0f;
    dl->AddLine(ImVec2(x, f.p0.y + f.height), ImVec2(x, f.p0.y + f.height + 3), pal.text_dim);
  }
}

// The draw u: a needle through the strip, a pointer under it and "u = 0.123" beside it (left
// of it near the right edge). Returns the span [lo, hi] its marks take in x.
std::pair<float, float> draw_u_needle(const StripFrame& f, double u, const Palette& pal,
                                      DrawLog& log) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImFont* small = f.small;
  const ImVec2 p0 = f.p0;
  const float height = f.height, w = f.w;
  const float x = f.x(u);
  const float r = height * 0.22f;
  dl->AddLine(ImVec2(x, p0.y - 3), ImVec2(x, p0.y + height + 2), pal.text,
              pal.line_thickness * 2.0f);
  dl->AddTriangleFilled(ImVec2(x - r, p0.y + height + f.label_h - 2),
                        ImVec2(x + r, p0.y + height + f.label_h - 2), ImVec2(x, p0.y + height + 2),
                        pal.text);
  char buf[32];
  std::snprintf(buf, sizeof buf, "u = %.3f", u);
  const float tw = small->CalcTextSizeA(small->FontSize, 1e9f, 0, buf).x;
  float tx = x + r + 4;
  if (tx + tw > p0.x + w) tx = x - r - 4 - tw;
  dl->AddText(small, small->FontSize, ImVec2(tx, p0.y + height + 2), pal.text, buf);
  log.note_drawn("u_needle", buf, x - 1, p0.y, 2, height);
  log.note_drawn("text", buf, tx, p0.y + height + 2, tw, small->FontSize);
  return {std::min(tx, x - r), std::max(tx + tw, x + r)};
}

// The legend in the label row: right-aligned, or left when the u label is on the right; left
// out when it would touch the u label either way.
void draw_strip_legend(const StripFrame& f, const StripLegend& legend, float u_lo, float u_hi,
                       const Palette& pal, DrawLog& log) {
  ImFont* small = f.small;
  const float lw = small->CalcTextSizeA(small->FontSize, 1e9f, 0, legend.text.c_str()).x;
  float lx = f.p0.x + f.w - lw;
  if (lx < u_hi + 8) lx = u_lo - lw - 8 >= f.p0.x ? f.p0.x : lx;
  if (lx + lw > u_lo - 8 && lx < u_hi + 8) return;
  const float y = f.p0.y + f.height + 2;
  ImGui::GetWindowDrawList()->AddText(small, small->FontSize, ImVec2(lx, y),
                                      legend.color ? legend.color : pal.text_dim,
                                      legend.text.c_str());
  log.note_drawn("text", legend.text, lx, y, lw, small->FontSize);
}

}  // namespace

int draw_cumulative_strip(const char* id, const std::vector<StripSegment>& segments, double u,
                          float height, const Palette& pal, DrawLog& log,
                          const StripLegend& legend) {
  ImGui::PushID(id);
  StripFrame f;
  f.small = app_font(FontRole::Small);
  f.p0 = ImGui::GetCursorScreenPos();
  f.w = std::max(40.0f, ImGui::GetContentRegionAvail().x);
  f.height = height;
  f.label_h = f.small->FontSize + 4.0f;
  // The row under the strip holds the u label and the legend; without either (a greedy step,
  // nothing to explain) only the tick marks need room.
  const bool label_row = u >= 0 || !legend.text.empty();
  ImGui::InvisibleButton("strip", ImVec2(f.w, height + (label_row ? f.label_h : 5.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const int hovered_id = draw_segments(f, segments, hovered, pal, log);
  draw_strip_frame(f, pal);
  float u_lo = f.p0.x + f.w, u_hi = f.p0.x + f.w;  // where the u label is (none: off the right)
  if (u >= 0) std::tie(u_lo, u_hi) = draw_u_needle(f, u, pal, log);
  if (!legend.text.empty()) draw_strip_legend(f, legend, u_lo, u_hi, pal, log);
  ImGui::PopID();
  return hovered_id;
}

}  // namespace ts
