// Probability bar list (see prob_bars.h): ImDrawList rectangles over one InvisibleButton per row
// (PushID per row), labels right-aligned in a mono font so pieces line up.
#include "app/widgets/prob_bars.h"

#include <algorithm>
#include <cstdio>

#include "app/fonts.h"

namespace ts {

float prob_bar_row_height() { return ImGui::GetFontSize() * 1.45f; }

BarListResult draw_prob_bars(const char* id, const std::vector<BarRow>& rows,
                             const BarListStyle& style, const Palette& pal, UiState& ui) {
  BarListResult out;
  ImGui::PushID(id);
  ImFont* mono = app_font(FontRole::Mono);
  ImFont* small = app_font(FontRole::Small);
  const float rh = style.row_height > 0 ? style.row_height : prob_bar_row_height();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float width = std::max(60.0f, ImGui::GetContentRegionAvail().x);
  float label_w = 0;
  for (const BarRow& r : rows)
    label_w = std::max(label_w, mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, r.label.c_str()).x);
  label_w = std::min(label_w + 8.0f, width * 0.3f);
  const char* pct_template = style.show_logits ? "100.0%  z -00.00" : "100.0%";
  const float pct_w = ImGui::CalcTextSize(pct_template).x + 10.0f;
  const float bar_x = p0.x + label_w + 6.0f;
  const float bar_w = std::max(10.0f, width - label_w - 6.0f - pct_w);
  const float scale = style.scale_max > 0 ? style.scale_max : 1.0f;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const BarRow& r = rows[i];
    const float y = p0.y + rh * i;
    ImGui::PushID(i);
    ImGui::SetCursorScreenPos(ImVec2(p0.x, y));
    ImGui::InvisibleButton("row", ImVec2(width, rh));
    const bool hovered = ImGui::IsItemHovered();
    if (style.clickable && ImGui::IsItemClicked(ImGuiMouseButton_Left)) out.clicked_id = r.id;
    ImGui::PopID();
    if (hovered) {
      out.hovered_id = r.id;
      dl->AddRectFilled(ImVec2(p0.x, y), ImVec2(p0.x + width, y + rh),
                        mix_color(pal.window_bg, pal.hovered, 0.18f));
      ImGui::BeginTooltip();
      ImGui::Text("%s   (id %d)", r.label.c_str(), r.id);
      ImGui::Text("probability %.2f%%   logit %.3f", 100.0 * r.p, r.logit);
      if (r.empirical >= 0) ImGui::Text("sampled %.1f%% of the time", 100.0 * r.empirical);
      if (!r.kept) ImGui::TextDisabled("cut by this stage: it can no longer be drawn");
      if (r.chosen) ImGui::Text("%s", style.chosen_note);
      if (style.clickable) ImGui::TextDisabled("click to force this token here (creates a branch)");
      ImGui::EndTooltip();
    }
    const ImU32 text_col = r.kept ? pal.text : pal.text_dim;
    const ImVec2 ls = mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, r.label.c_str());
    const float ty = y + (rh - ls.y) * 0.5f;
    dl->PushClipRect(ImVec2(p0.x, y), ImVec2(p0.x + label_w, y + rh), true);
    dl->AddText(mono, mono->FontSize, ImVec2(p0.x + label_w - ls.x - 4.0f, ty),
                r.chosen ? pal.accent : text_col, r.label.c_str());
    dl->PopClipRect();

    const float frac = std::clamp(r.p / scale, 0.0f, 1.0f);
    const float bh = r.empirical >= 0 ? rh * 0.5f : rh * 0.7f;
    const float by = y + (r.empirical >= 0 ? rh * 0.1f : rh * 0.15f);
    const ImVec2 a(bar_x, by);
    const ImVec2 b(bar_x + std::max(1.0f, bar_w * frac), by + bh);
    const ImU32 fill = !r.kept ? pal.bar_cut : (r.chosen ? pal.accent : pal.bar);
    dl->AddRectFilled(a, b, fill, 2.0f);
    if (r.chosen) {
      dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), pal.accent, 3.0f, 0,
                  pal.line_thickness * 1.5f);
      ui.note_drawn("chosen_bar", r.label, a.x, a.y, b.x - a.x, bh);
    } else {
      ui.note_drawn(r.kept ? "bar" : "cut_bar", r.label, a.x, a.y, b.x - a.x, bh);
    }
    if (r.empirical >= 0) {
      const float ef = std::clamp(r.empirical / scale, 0.0f, 1.0f);
      const float ey = by + bh + rh * 0.06f;
      ui.note_drawn("hist_bar", r.label, bar_x, ey, std::max(1.0f, bar_w * ef), rh * 0.24f);
      dl->AddRectFilled(ImVec2(bar_x, ey),
                        ImVec2(bar_x + std::max(1.0f, bar_w * ef), ey + rh * 0.24f), pal.histogram,
                        2.0f);
    }
    char pct[48];
    if (style.show_logits)
      std::snprintf(pct, sizeof pct, "%.1f%%  z %.2f", 100.0 * r.p, r.logit);
    else
      std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * r.p);
    const float px = std::min(b.x + 6.0f, p0.x + width - ImGui::CalcTextSize(pct).x);
    dl->AddText(ImVec2(px, y + (rh - ImGui::GetFontSize()) * 0.5f), text_col, pct);

    if (i == style.gap_before) {  // rows skipped: a dotted line across the top of this row
      for (float x = p0.x; x < p0.x + width; x += 8.0f)
        dl->AddLine(ImVec2(x, y + 1), ImVec2(std::min(x + 3.0f, p0.x + width), y + 1), pal.text_dim,
                    pal.line_thickness);
    }
    if (i == style.cut_after) {
      const float ly = y + rh;
      dl->AddLine(ImVec2(p0.x, ly), ImVec2(p0.x + width, ly), pal.cut_line,
                  pal.line_thickness * 2.0f);
      const ImVec2 cs = small->CalcTextSizeA(small->FontSize, 1e9f, 0, style.cut_label.c_str());
      const ImVec2 ca(p0.x + width - cs.x - 6.0f, ly - cs.y - 1.0f);
      dl->AddRectFilled(ImVec2(ca.x - 3, ca.y), ImVec2(ca.x + cs.x + 3, ly - 1),
                        mix_color(pal.window_bg, pal.cut_line, 0.08f));
      dl->AddText(small, small->FontSize, ca, pal.cut_line, style.cut_label.c_str());
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p0.y + rh * rows.size()));
  ImGui::Dummy(ImVec2(width, 1));
  ImGui::PopID();
  return out;
}

}  // namespace ts
