// Probability bar list (see prob_bars.h): ImDrawList rectangles over one InvisibleButton per row
// (PushID per row), labels right-aligned in a mono font so pieces line up.
#include "app/widgets/prob_bars.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/widgets/text_fit.h"
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

void set_linear_scale(BarListStyle& style, float top) {
  style.scale_max =
      top > 0 ? std::min(1.0f, top < kMagnifyBelow ? top : std::max(top, kScaleFloor)) : 1.0f;
  style.scale_note.clear();
  if (top > 0 && top < kMagnifyBelow)
    style.scale_note = "bars magnified: a full bar is " + percent_text(top);
}

float bar_row_top(int i, float row_h, int cut_after, float cut_gap) {
  return row_h * i + (cut_after >= 0 && i > cut_after ? cut_gap : 0.0f);
}

namespace {

// The list's geometry: where labels, bars and percentages go, the fonts, the scale.
struct BarGeometry {
  ImFont* mono;
  ImFont* small;
  ImDrawList* dl;
  ImVec2 p0;
  float rh, width, label_w, bar_x, bar_w, count_w, cut_gap, scale;
};

// The words after a bar: its percentage, and its logit where the style shows them.
std::string pct_label(const BarRow& r, const BarListStyle& style) {
  char pct[48];
  if (style.show_logits)
    std::snprintf(pct, sizeof pct, "%s  z %.2f", percent_text(r.p).c_str(), r.logit);
  else
    std::snprintf(pct, sizeof pct, "%s", percent_text(r.p).c_str());
  return pct;
}

BarGeometry bar_geometry(const std::vector<BarRow>& rows, const BarListStyle& style) {
  BarGeometry g{app_font(FontRole::Mono),
                app_font(FontRole::Small),
                ImGui::GetWindowDrawList(),
                ImGui::GetCursorScreenPos(),
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0};
  g.rh = style.row_height > 0 ? style.row_height : prob_bar_row_height();
  g.width = std::max(60.0f, ImGui::GetContentRegionAvail().x);
  for (const BarRow& r : rows)
    g.label_w =
        std::max(g.label_w, g.mono->CalcTextSizeA(g.mono->FontSize, 1e9f, 0, r.label.c_str()).x);
  g.label_w = std::min(g.label_w + 8.0f, g.width * 0.3f);
  bool counts = false;
  for (const BarRow& r : rows) counts |= r.count >= 0;
  const char* pct_template = style.show_logits ? "100.0%  z -00.00" : "100.0%";
  g.count_w = counts ? ImGui::CalcTextSize("  10,000×").x : 0.0f;
  // (room for the widest label drawn, so a full-width bar never runs under its own words)
  float pct_text_w = ImGui::CalcTextSize(pct_template).x;
  for (const BarRow& r : rows)
    pct_text_w = std::max(pct_text_w, ImGui::CalcTextSize(pct_label(r, style).c_str()).x);
  const float pct_w = pct_text_w + 10.0f + g.count_w;
  g.cut_gap = style.cut_after >= 0 ? g.small->FontSize + 4.0f : 0.0f;
  g.bar_x = g.p0.x + g.label_w + 6.0f;
  g.bar_w = std::max(10.0f, g.width - g.label_w - 6.0f - pct_w);
  g.scale = style.scale_max > 0 ? style.scale_max : 1.0f;
  return g;
}

void row_tooltip(const BarRow& r, const BarListStyle& style) {
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

// The row's bar, the raw model's outline over it, the chosen token's frame and the sampled
// frequency's thin bar. Returns where the bar or its outline ends (the % goes after it).
float draw_bar(const BarGeometry& g, const BarRow& r, float y, const BarListStyle& style,
               const Palette& pal, DrawLog& log) {
  ImDrawList* dl = g.dl;
  const float rh = g.rh, bar_x = g.bar_x, bar_w = g.bar_w;
  const float frac = bar_fraction(r.p, g.scale, style.log_scale);
  const float bh = r.empirical >= 0 ? rh * 0.5f : rh * 0.7f;
  const float by = y + (r.empirical >= 0 ? rh * 0.1f : rh * 0.15f);
  const ImVec2 a(bar_x, by);
  const ImVec2 b(bar_x + std::max(1.0f, bar_w * frac), by + bh);
  const ImU32 fill = !r.kept ? pal.bar_cut : (r.chosen ? pal.accent : pal.bar);
  float bar_end = b.x;
  dl->AddRectFilled(a, b, fill, 2.0f);
  if (r.ref_p >= 0) {  // the reference (raw model) probability as an outline over the bar, in
                       // the text colour so it shows inside a dark bar as well as outside it
    const float rf = bar_fraction(r.ref_p, g.scale, style.log_scale);
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
    const float ef = bar_fraction(r.empirical, g.scale, style.log_scale);
    const float ey = by + bh + rh * 0.06f;
    log.note_drawn("hist_bar", r.label, bar_x, ey, std::max(1.0f, bar_w * ef), rh * 0.24f);
    dl->AddRectFilled(ImVec2(bar_x, ey),
                      ImVec2(bar_x + std::max(1.0f, bar_w * ef), ey + rh * 0.24f), pal.histogram,
                      2.0f);
  }
  return bar_end;
}

// The percentage (and the logit, and the sample count) after the bar.
void draw_pct(const BarGeometry& g, const BarRow& r, float y, float bar_end,
              const BarListStyle& style, const Palette& pal, DrawLog& log) {
  const std::string label = pct_label(r, style);
  const char* pct = label.c_str();
  const ImVec2 pct_size = ImGui::CalcTextSize(pct);
  const float px = std::min(bar_end + 6.0f, g.p0.x + g.width - pct_size.x - g.count_w);
  const float py = y + (g.rh - ImGui::GetFontSize()) * 0.5f;
  g.dl->AddText(ImVec2(px, py), r.kept ? pal.text : pal.text_dim, pct);
  log.note_drawn("pct", pct, px, py, pct_size.x, pct_size.y);
  if (r.count < 0) return;
  char cnt[32];  // how many of the samples drew it, in the histogram's colour
  std::snprintf(cnt, sizeof cnt, "  %d×", r.count);
  const ImVec2 cs = ImGui::CalcTextSize(cnt);
  g.dl->AddText(ImVec2(px + pct_size.x, py), pal.histogram_text, cnt);
  log.note_drawn("hist_count", std::to_string(r.count), px + pct_size.x, py, cs.x, cs.y);
}

// Rows skipped before row i: a dotted line across its top. The cut after row i: the line, and
// its label in a strip of its own below it.
void draw_row_marks(const BarGeometry& g, int i, float y, const BarListStyle& style,
                    const Palette& pal, DrawLog& log) {
  ImDrawList* dl = g.dl;
  const ImVec2 p0 = g.p0;
  const float width = g.width;
  if (i == style.gap_before) {
    for (float x = p0.x; x < p0.x + width; x += 8.0f)
      dl->AddLine(ImVec2(x, y + 1), ImVec2(std::min(x + 3.0f, p0.x + width), y + 1), pal.text_dim,
                  pal.line_thickness);
  }
  if (i != style.cut_after) return;
  const float ly = y + g.rh + 1.0f;
  dl->AddLine(ImVec2(p0.x, ly), ImVec2(p0.x + width, ly), pal.cut_line, pal.line_thickness * 2.0f);
  const ImVec2 cs = g.small->CalcTextSizeA(g.small->FontSize, 1e9f, 0, style.cut_label.c_str());
  const ImVec2 ca(std::max(p0.x, p0.x + width - cs.x - 6.0f), ly + 2.0f);
  dl->PushClipRect(ImVec2(p0.x, ly), ImVec2(p0.x + width, ly + g.cut_gap), true);
  dl->AddText(g.small, g.small->FontSize, ca, pal.cut_line, style.cut_label.c_str());
  dl->PopClipRect();
  log.note_drawn("cut_label", style.cut_label, ca.x, ca.y, std::min(cs.x, width), cs.y);
}

}  // namespace

BarListResult draw_prob_bars(const char* id, const std::vector<BarRow>& rows,
                             const BarListStyle& style, const Palette& pal, DrawLog& log) {
  BarListResult out;
  ImGui::PushID(id);
  if (!style.scale_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
    fit_text(log, style.scale_note, ImGui::GetContentRegionAvail().x);
    ImGui::PopStyleColor();
    note_text_item(log, style.scale_note);
  }
  const BarGeometry g = bar_geometry(rows, style);
  const ImVec2 p0 = g.p0;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const BarRow& r = rows[i];
    const float y = p0.y + bar_row_top(i, g.rh, style.cut_after, g.cut_gap);
    ImGui::PushID(i);
    ImGui::SetCursorScreenPos(ImVec2(p0.x, y));
    ImGui::InvisibleButton("row", ImVec2(g.width, g.rh));
    const bool hovered = ImGui::IsItemHovered();
    if (style.clickable && ImGui::IsItemClicked(ImGuiMouseButton_Left)) out.clicked_id = r.id;
    if (style.clickable && ImGui::IsItemClicked(ImGuiMouseButton_Right)) out.right_clicked_id = r.id;
    ImGui::PopID();
    if (hovered) {
      out.hovered_id = r.id;
      g.dl->AddRectFilled(ImVec2(p0.x, y), ImVec2(p0.x + g.width, y + g.rh),
                          mix_color(pal.window_bg, pal.hovered, 0.18f));
      row_tooltip(r, style);
    }
    const ImU32 text_col = r.kept ? pal.text : pal.text_dim;
    const ImVec2 ls = g.mono->CalcTextSizeA(g.mono->FontSize, 1e9f, 0, r.label.c_str());
    const float ty = y + (g.rh - ls.y) * 0.5f;
    g.dl->PushClipRect(ImVec2(p0.x, y), ImVec2(p0.x + g.label_w, y + g.rh), true);
    g.dl->AddText(g.mono, g.mono->FontSize, ImVec2(p0.x + g.label_w - ls.x - 4.0f, ty),
                  r.chosen ? pal.accent : text_col, r.label.c_str());
    g.dl->PopClipRect();
    const float bar_end = draw_bar(g, r, y, style, pal, log);
    draw_pct(g, r, y, bar_end, style, pal, log);
    draw_row_marks(g, i, y, style, pal, log);
  }
  const float total_h =
      rows.empty() ? 0.0f
                   : bar_row_top(static_cast<int>(rows.size()), g.rh, style.cut_after, g.cut_gap);
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p0.y + total_h));
  ImGui::Dummy(ImVec2(g.width, 1));
  ImGui::PopID();
  return out;
}

}  // namespace ts
