// Probability bar list (see prob_bars.h): ImDrawList rectangles over one InvisibleButton per row
// (PushID per row), labels right-aligned in a mono font so pieces line up.
#include "app/widgets/prob_bars.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/fonts.h"
#include "app/widgets/units.h"

namespace ts {

float prob_bar_row_height() { return ImGui::GetFontSize() * 1.45f; }

float bar_fraction(float p, float scale_max, bool log_scale) {
  const float top = scale_max > 0 ? scale_max : 1.0f;
  if (!(p > 0)) return 0.0f;
  if (!log_scale) return std::clamp(p / top, 0.0f, 1.0f);
  const float lo = std::log10(kLogFloor), hi = std::log10(std::max(top, kLogFloor * 10));
  return std::clamp((std::log10(p) - lo) / (hi - lo), 0.0f, 1.0f);
}

float bar_row_top(int i, float row_h, int cut_after, float cut_gap) {
  return row_h * i + (cut_after >= 0 && i > cut_after ? cut_gap : 0.0f);
}

BarListResult draw_prob_bars(const char* id, const std::vector<BarRow>& rows,
                             const BarListStyle& style, const Palette& pal, DrawLog& log) {
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
  bool counts = false;
  for (const BarRow& r : rows) counts |= r.count >= 0;
  const char* pct_template = style.show_logits ? "100.0%  z -00.00" : "100.0%";
  const float count_w = counts ? ImGui::CalcTextSize("  10,000×").x : 0.0f;
  const float pct_w = ImGui::CalcTextSize(pct_template).x + 10.0f + count_w;
  const float cut_gap = style.cut_after >= 0 ? small->FontSize + 4.0f : 0.0f;
  const float bar_x = p0.x + label_w + 6.0f;
  const float bar_w = std::max(10.0f, width - label_w - 6.0f - pct_w);
  const float scale = style.scale_max > 0 ? style.scale_max : 1.0f;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const BarRow& r = rows[i];
    const float y = p0.y + bar_row_top(i, rh, style.cut_after, cut_gap);
    ImGui::PushID(i);
    ImGui::SetCursorScreenPos(ImVec2(p0.x, y));
    ImGui::InvisibleButton("row", ImVec2(width, rh));
    const bool hovered = ImGui::IsItemHovered();
    if (style.clickable && ImGui::IsItemClicked(ImGuiMouseButton_Left)) out.clicked_id = r.id;
    if (style.clickable && ImGui::IsItemClicked(ImGuiMouseButton_Right)) out.right_clicked_id = r.id;
    ImGui::PopID();
    if (hovered) {
      out.hovered_id = r.id;
      dl->AddRectFilled(ImVec2(p0.x, y), ImVec2(p0.x + width, y + rh),
                        mix_color(pal.window_bg, pal.hovered, 0.18f));
      ImGui::BeginTooltip();
      ImGui::Text("%s   (id %d)", r.label.c_str(), r.id);
      ImGui::Text("probability %.2f%%   logit %.3f", 100.0 * r.p, r.logit);
      if (r.ref_p >= 0) ImGui::Text("%s %.2f%% (the outline)", style.ref_note, 100.0 * r.ref_p);
      if (r.empirical >= 0) ImGui::Text("sampled %.1f%% of the time", 100.0 * r.empirical);
      if (!r.kept) ImGui::TextDisabled("cut by this stage: it can no longer be drawn");
      if (r.chosen) ImGui::Text("%s", style.chosen_note);
      if (style.clickable) ImGui::TextDisabled("click to force this token here (creates a branch)");
      if (style.clickable) ImGui::TextDisabled("right-click: why not this token? (Why this token)");
      ImGui::EndTooltip();
    }
    const ImU32 text_col = r.kept ? pal.text : pal.text_dim;
    const ImVec2 ls = mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, r.label.c_str());
    const float ty = y + (rh - ls.y) * 0.5f;
    dl->PushClipRect(ImVec2(p0.x, y), ImVec2(p0.x + label_w, y + rh), true);
    dl->AddText(mono, mono->FontSize, ImVec2(p0.x + label_w - ls.x - 4.0f, ty),
                r.chosen ? pal.accent : text_col, r.label.c_str());
    dl->PopClipRect();

    const float frac = bar_fraction(r.p, scale, style.log_scale);
    const float bh = r.empirical >= 0 ? rh * 0.5f : rh * 0.7f;
    const float by = y + (r.empirical >= 0 ? rh * 0.1f : rh * 0.15f);
    const ImVec2 a(bar_x, by);
    const ImVec2 b(bar_x + std::max(1.0f, bar_w * frac), by + bh);
    const ImU32 fill = !r.kept ? pal.bar_cut : (r.chosen ? pal.accent : pal.bar);
    float bar_end = b.x;  // the bar or its outline, whichever reaches further: the % goes after
    dl->AddRectFilled(a, b, fill, 2.0f);
    if (r.ref_p >= 0) {  // the reference (raw model) probability as an outline over the bar, in
                         // the text colour so it shows inside a dark bar as well as outside it
      const float rf = bar_fraction(r.ref_p, scale, style.log_scale);
      const float rx = bar_x + std::max(1.0f, bar_w * rf);
      bar_end = std::max(bar_end, rx + 1.0f);
      if (std::abs(rx - b.x) > 1.5f) {  // equal to the bar: nothing to outline
        dl->AddRect(ImVec2(bar_x, by - 1), ImVec2(rx, by + bh + 1), pal.text, 2.0f, 0,
                    pal.line_thickness);
        dl->AddLine(ImVec2(rx, by - 3), ImVec2(rx, by + bh + 3), pal.text, pal.line_thickness * 2.0f);
      }
      log.note_drawn("ref_bar", r.label, bar_x, by, rx - bar_x, bh);
    }
    if (r.chosen) {
      dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), pal.accent, 3.0f, 0,
                  pal.line_thickness * 1.5f);
    }
    log.note_drawn("bar", r.label, a.x, a.y, b.x - a.x, bh,
                   r.chosen ? "chosen" : (r.kept ? "kept" : "cut"));
    if (r.empirical >= 0) {
      const float ef = bar_fraction(r.empirical, scale, style.log_scale);
      const float ey = by + bh + rh * 0.06f;
      log.note_drawn("hist_bar", r.label, bar_x, ey, std::max(1.0f, bar_w * ef), rh * 0.24f);
      dl->AddRectFilled(ImVec2(bar_x, ey),
                        ImVec2(bar_x + std::max(1.0f, bar_w * ef), ey + rh * 0.24f), pal.histogram,
                        2.0f);
    }
    char pct[48];
    if (style.show_logits)
      std::snprintf(pct, sizeof pct, "%s  z %.2f", percent_text(r.p).c_str(), r.logit);
    else
      std::snprintf(pct, sizeof pct, "%s", percent_text(r.p).c_str());
    const ImVec2 pct_size = ImGui::CalcTextSize(pct);
    const float px = std::min(bar_end + 6.0f, p0.x + width - pct_size.x - count_w);
    const float py = y + (rh - ImGui::GetFontSize()) * 0.5f;
    dl->AddText(ImVec2(px, py), text_col, pct);
    log.note_drawn("pct", pct, px, py, pct_size.x, pct_size.y);
    if (r.count >= 0) {  // how many of the samples drew it, in the histogram's colour
      char cnt[32];
      std::snprintf(cnt, sizeof cnt, "  %d×", r.count);
      const ImVec2 cs = ImGui::CalcTextSize(cnt);
      dl->AddText(ImVec2(px + pct_size.x, py), pal.histogram_text, cnt);
      log.note_drawn("hist_count", std::to_string(r.count), px + pct_size.x, py, cs.x, cs.y);
    }

    if (i == style.gap_before) {  // rows skipped: a dotted line across the top of this row
      for (float x = p0.x; x < p0.x + width; x += 8.0f)
        dl->AddLine(ImVec2(x, y + 1), ImVec2(std::min(x + 3.0f, p0.x + width), y + 1), pal.text_dim,
                    pal.line_thickness);
    }
    if (i == style.cut_after) {  // the line, and its label in a strip of its own below it
      const float ly = y + rh + 1.0f;
      dl->AddLine(ImVec2(p0.x, ly), ImVec2(p0.x + width, ly), pal.cut_line,
                  pal.line_thickness * 2.0f);
      const ImVec2 cs = small->CalcTextSizeA(small->FontSize, 1e9f, 0, style.cut_label.c_str());
      const ImVec2 ca(std::max(p0.x, p0.x + width - cs.x - 6.0f), ly + 2.0f);
      dl->PushClipRect(ImVec2(p0.x, ly), ImVec2(p0.x + width, ly + cut_gap), true);
      dl->AddText(small, small->FontSize, ca, pal.cut_line, style.cut_label.c_str());
      dl->PopClipRect();
      log.note_drawn("cut_label", style.cut_label, ca.x, ca.y, std::min(cs.x, width), cs.y);
    }
  }
  const float total_h = rows.empty() ? 0.0f
                                     : bar_row_top(static_cast<int>(rows.size()), rh,
                                                   style.cut_after, cut_gap);
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p0.y + total_h));
  ImGui::Dummy(ImVec2(width, 1));
  ImGui::PopID();
  return out;
}

}  // namespace ts
