// Heatmap drawing: layout from the font size, cells, hatched causal mask, labels (columns rotated
// by moving the vertices AddText emitted), row highlights, hover / click and the tooltip.
#include "app/widgets/heatmap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/widgets/text_fit.h"

namespace ts {
namespace {

const char* ellipsis() {
  // "…" when the loaded font has it, else two dots (the default ImGui font is ASCII only).
  return ImGui::GetFont()->FindGlyphNoFallback(0x2026) ? "\xE2\x80\xA6" : "..";
}

float max_label_width(std::span<const std::string> labels, float cap) {
  float w = 0;
  for (const auto& s : labels) {
    w = std::max(w, ImGui::CalcTextSize(s.c_str()).x);
    if (w >= cap) return cap;
  }
  return w;
}

ImU32 with_alpha(ImU32 c, float a) {
  ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
  v.w *= a;
  return ImGui::ColorConvertFloat4ToU32(v);
}

ImU32 blend(ImU32 a, ImU32 b, float t) {
  const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t,
                                               x.z + (y.z - x.z) * t, 1.0f));
}

bool is_masked(const HeatmapStyle& st, int r, int c) {
  return st.causal && c > r + st.causal_offset;
}

const char* label_or_empty(std::span<const std::string> labels, int i) {
  return i >= 0 && i < static_cast<int>(labels.size()) ? labels[i].c_str() : "";
}

void draw_tooltip(const HeatmapStyle& st, const HeatmapHit& hit,
                  std::span<const std::string> row_labels, std::span<const std::string> col_labels) {
  const int qpos = hit.row + st.row_number_base;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 22.0f);
  ImGui::Text("%s  position %d  %s", st.row_title, qpos, label_or_empty(row_labels, hit.row));
  ImGui::Text("%s  position %d  %s", st.col_title, hit.col, label_or_empty(col_labels, hit.col));
  if (hit.masked) {
    text_wrapped("Masked: position %d comes after position %d, so the causal mask hides it "
                       "(weight 0).", hit.col, qpos);
  } else if (std::isnan(hit.value)) {
    ImGui::TextUnformatted("not recorded");
  } else {
    ImGui::Text("weight  %.4f  (%.1f%%)", hit.value, hit.value * 100.0f);
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

void draw_mask_legend(const char* text) {
  const float fs = ImGui::GetFontSize();
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  ImGui::AlignTextToFramePadding();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float side = fs * 0.9f;
  ImGui::Dummy(ImVec2(side, ImGui::GetFrameHeight()));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a(p.x, p.y + (ImGui::GetFrameHeight() - side) * 0.5f), b(a.x + side, a.y + side);
  dl->AddRectFilled(a, b, blend(bg, text_col, 0.07f));
  dl->PushClipRect(a, b, true);
  for (float d = -side; d < side; d += fs * 0.3f)
    dl->AddLine(ImVec2(a.x + d, a.y), ImVec2(a.x + d + side, b.y), blend(bg, text_col, 0.35f), 1.0f);
  dl->PopClipRect();
  dl->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Border));
  ImGui::SameLine();
  ImGui::TextUnformatted(text);
}

std::string abbreviate_to_width(const std::string& text, float max_width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= max_width) return text;
  if (DrawLog* log = text_record_target())  // reported in the screenshot JSON
    log->note_clipped(log->drawing_panel, text, "shortened");
  // Too narrow for a character and an ellipsis: cut without one (a letter says more than "…").
  const char* dots = max_width >= ImGui::GetFontSize() * 1.3f ? ellipsis() : "";
  const float dots_w = ImGui::CalcTextSize(dots).x;
  // Cut at UTF-8 character boundaries, longest prefix that fits with the ellipsis.
  size_t best = 0;
  for (size_t i = 1; i <= text.size(); ++i) {
    if (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    const float w = ImGui::CalcTextSize(text.c_str(), text.c_str() + i).x;
    if (w + dots_w > max_width) break;
    best = i;
  }
  return text.substr(0, best) + dots;
}

void add_text_vertical(ImDrawList* dl, ImVec2 bottom_left, ImU32 col, const char* text) {
  // AddText culls glyphs outside the clip rectangle, so emit the text horizontally at the clip
  // rectangle's corner (always inside), then rotate those vertices onto their destination:
  // (dx, dy) -> (dy, -dx) turns "rightwards" into "upwards".
  const ImVec2 origin = dl->GetClipRectMin();
  const float h = ImGui::GetFontSize();
  const int first = dl->VtxBuffer.Size;
  dl->AddText(origin, col, text);
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    ImDrawVert& v = dl->VtxBuffer[i];
    const float dx = v.pos.x - origin.x, dy = v.pos.y - origin.y;
    v.pos = ImVec2(bottom_left.x + dy - h, bottom_left.y - dx);
  }
}

HeatmapLayout heatmap_layout(ImVec2 origin, int rows, int cols, const HeatmapStyle& st,
                             std::span<const std::string> row_labels,
                             std::span<const std::string> col_labels) {
  const float fs = ImGui::GetFontSize();
  HeatmapLayout L;
  if (st.labels && !row_labels.empty())
    // Labels never take more than a quarter of a given size: the cells matter most.
    L.left = max_label_width(row_labels, st.size.x > 0 ? std::clamp(st.size.x * 0.25f - fs * 0.8f, fs * 2.2f, fs * 7.0f)
                                                       : fs * 7.0f) + fs * 0.8f;
  if (st.labels && !col_labels.empty())
    L.top = max_label_width(col_labels, st.size.y > 0 ? std::clamp(st.size.y * 0.25f - fs * 0.4f, fs * 2.2f, fs * 5.0f)
                                                      : fs * 5.0f) + fs * 0.4f;
  const float avail_w = st.size.x > 0 ? st.size.x : ImGui::GetContentRegionAvail().x;
  float cell = cols > 0 ? (avail_w - L.left) / cols : 0.0f;
  if (st.size.y > 0 && rows > 0) cell = std::min(cell, (st.size.y - L.top) / rows);
  cell = std::clamp(cell, 1.0f, std::max(1.0f, st.max_cell_em * fs));
  L.cell = cell;
  L.grid_min = ImVec2(origin.x + L.left, origin.y + L.top);
  L.total = ImVec2(L.left + cols * cell, L.top + rows * cell);
  return L;
}

HeatmapHit draw_heatmap(const char* str_id, std::span<const float> values, int rows, int cols,
                        const HeatmapStyle& st, std::span<const std::string> row_labels,
                        std::span<const std::string> col_labels) {
  HeatmapHit hit;
  if (rows <= 0 || cols <= 0 || values.size() < static_cast<size_t>(rows) * cols) return hit;
  if (!st.labels) row_labels = {}, col_labels = {};
  if (static_cast<int>(row_labels.size()) != rows) row_labels = {};
  if (static_cast<int>(col_labels.size()) != cols) col_labels = {};

  ImGui::PushID(str_id);
  const float fs = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const HeatmapLayout L = heatmap_layout(origin, rows, cols, st, row_labels, col_labels);
  const float cell = L.cell;
  const HeatRamp& ramp = st.ramp ? *st.ramp : theme_heat_ramp(ThemeKind::Light);
  const ImVec2 g0 = L.grid_min;
  const ImVec2 g1(g0.x + cols * cell, g0.y + rows * cell);

  // Interaction: the button covers the labels too (one item), but only cells report hits.
  const bool released = ImGui::InvisibleButton(
      "##heatmap", ImVec2(std::max(L.total.x, 1.0f), std::max(L.total.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (hovered && mouse.x >= g0.x && mouse.x < g1.x && mouse.y >= g0.y && mouse.y < g1.y) {
    hit.hovered = true;
    hit.row = std::clamp(static_cast<int>((mouse.y - g0.y) / cell), 0, rows - 1);
    hit.col = std::clamp(static_cast<int>((mouse.x - g0.x) / cell), 0, cols - 1);
    hit.masked = is_masked(st, hit.row, hit.col);
    hit.value = hit.masked ? 0.0f : values[static_cast<size_t>(hit.row) * cols + hit.col];
    hit.clicked = released;
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  const ImU32 mask_fill = blend(bg, text_col, 0.07f);
  const ImU32 mask_stripe = blend(bg, text_col, 0.20f);
  const ImU32 empty_fill = ImGui::GetColorU32(ImGuiCol_FrameBg);
  const ImU32 sel_col = st.selected_color ? st.selected_color : ImGui::GetColorU32(ImGuiCol_CheckMark);
  const ImU32 step_col =
      st.step_color ? st.step_color : ImGui::GetColorU32(ImGuiCol_PlotHistogramHovered);
  const float gap = cell >= fs * 0.8f ? 1.0f : 0.0f;  // hairline between large cells

  // Cells, and one rectangle per row for the masked run.
  for (int r = 0; r < rows; ++r) {
    const float y0 = g0.y + r * cell, y1 = y0 + cell;
    const int c_mask = st.causal ? std::clamp(r + st.causal_offset + 1, 0, cols) : cols;
    for (int c = 0; c < c_mask; ++c) {
      const float v = values[static_cast<size_t>(r) * cols + c];
      const float x0 = g0.x + c * cell;
      const ImU32 fill = std::isnan(v) ? empty_fill : ramp.color(st.scale.to_unit(v));
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + cell - gap, y1 - gap), fill);
    }
    if (c_mask < cols)
      dl->AddRectFilled(ImVec2(g0.x + c_mask * cell, y0), ImVec2(g1.x, y1), mask_fill);
  }
  // Hatch the mask with stripes parallel to its diagonal edge: lines col = row + d, d > offset+1.
  if (st.causal) {
    const float spacing = std::max(fs * 0.45f / cell, 0.5f);  // in cells
    for (float d = st.causal_offset + 1 + spacing; d < cols; d += spacing) {
      const float v0 = std::max(0.0f, -d), v1 = std::min(static_cast<float>(rows), cols - d);
      if (v1 <= v0) continue;
      dl->AddLine(ImVec2(g0.x + (v0 + d) * cell, g0.y + v0 * cell),
                  ImVec2(g0.x + (v1 + d) * cell, g0.y + v1 * cell), mask_stripe, 1.0f);
    }
  }
  // Weights printed inside cells big enough to hold them.
  if (st.cell_values && cell >= fs * 2.2f) {
    const float vfs = fs * kSmallFontRatio;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols && !is_masked(st, r, c); ++c) {
        const float v = values[static_cast<size_t>(r) * cols + c];
        if (std::isnan(v)) continue;
        char buf[24];
        std::snprintf(buf, sizeof buf, "%.2f", v);
        const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(vfs, 1e9f, 0, buf);
        const ImVec2 ctr = L.cell_center(r, c);
        dl->AddText(ImGui::GetFont(), vfs, ImVec2(ctr.x - ts.x * 0.5f, ctr.y - ts.y * 0.5f),
                    ramp.text_color(st.scale.to_unit(v)), buf);
      }
  }

  // Rows of the current step: a bar in the gap left of the grid; an outline when only some rows.
  if (st.step_row_begin >= 0 && st.step_row_end > st.step_row_begin) {
    const int b = std::clamp(st.step_row_begin, 0, rows), e = std::clamp(st.step_row_end, 0, rows);
    if (e > b) {
      const float bar_w = std::max(fs * 0.25f, 2.0f);
      dl->AddRectFilled(ImVec2(g0.x - bar_w - fs * 0.1f, g0.y + b * cell),
                        ImVec2(g0.x - fs * 0.1f, g0.y + e * cell), step_col);
      if (e - b < rows) {
        for (int r = b; r < e; ++r) {
          const int lim = st.causal ? std::clamp(r + st.causal_offset + 1, 0, cols) : cols;
          dl->AddRect(ImVec2(g0.x, g0.y + r * cell), ImVec2(g0.x + lim * cell, g0.y + (r + 1) * cell),
                      step_col, 0.0f, 0, std::max(1.5f, fs * 0.08f));
        }
      }
    }
  }
  // A row hovered in another panel (linked highlight), under the selection's outline.
  if (st.linked_row >= 0 && st.linked_row < rows && st.linked_row != st.selected_row) {
    const int r = st.linked_row;
    const int lim = st.causal ? std::clamp(r + st.causal_offset + 1, 1, cols) : cols;
    const ImU32 lc = st.linked_color ? st.linked_color : ImGui::GetColorU32(ImGuiCol_ButtonHovered);
    dl->AddRect(ImVec2(g0.x - 1, g0.y + r * cell - 1), ImVec2(g0.x + lim * cell + 1, g0.y + (r + 1) * cell + 1),
                lc, 0.0f, 0, std::max(1.5f, fs * 0.1f));
  }
  // The selected token's row.
  if (st.selected_row >= 0 && st.selected_row < rows) {
    const int r = st.selected_row;
    const int lim = st.causal ? std::clamp(r + st.causal_offset + 1, 1, cols) : cols;
    dl->AddRect(ImVec2(g0.x - 1, g0.y + r * cell - 1), ImVec2(g0.x + lim * cell + 1, g0.y + (r + 1) * cell + 1),
                sel_col, 0.0f, 0, std::max(2.0f, fs * 0.14f));
  }
  if (st.frame_color)
    dl->AddRect(ImVec2(g0.x - 2, g0.y - 2), ImVec2(g1.x + 2, g1.y + 2), st.frame_color, 0.0f, 0,
                std::max(2.0f, fs * 0.12f));
  if (hit.hovered) {
    const float x0 = g0.x + hit.col * cell, y0 = g0.y + hit.row * cell;
    dl->AddRect(ImVec2(x0, y0), ImVec2(x0 + cell, y0 + cell), text_col, 0.0f, 0, 1.5f);
  }

  // Row labels: right-aligned, at a size the rows can hold; thinned out when rows are small.
  if (!row_labels.empty()) {
    const float lfs = std::clamp(cell * 0.95f, fs * kSmallFontRatio, fs);
    const int every = std::max(1, static_cast<int>(std::ceil(lfs * 1.05f / cell)));
    const float max_w = L.left - fs * 0.8f;
    for (int r = 0; r < rows; ++r) {
      const bool emphasised = r == st.selected_row || (hit.hovered && r == hit.row);
      // Thinned-out labels give way around the selected row's, so they never overlap it.
      if (!emphasised && (r % every != 0 || (st.selected_row >= 0 &&
                                             std::abs(r - st.selected_row) * cell < lfs * 1.6f)))
        continue;
      const std::string s = abbreviate_to_width(row_labels[r], max_w);
      const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(lfs, 1e9f, 0, s.c_str());
      // Centred on its row, but never below the grid: a label taller than the cells (the
      // newest row's) is not cut by the map's bottom edge. (Above the grid there is room.)
      const float y = std::min(g0.y + (r + 0.5f) * cell - ts.y * 0.5f,
                               std::max(g0.y, g0.y + rows * cell - ts.y));
      const ImVec2 p(g0.x - fs * 0.5f - ts.x, y);
      if (emphasised)
        dl->AddRectFilled(ImVec2(p.x - 2, p.y), ImVec2(p.x + ts.x + 2, p.y + ts.y),
                          with_alpha(r == st.selected_row ? sel_col : text_col, 0.25f));
      dl->AddText(ImGui::GetFont(), lfs, p, text_col, s.c_str());
    }
  }
  // Column labels: rotated, reading upward from just above the grid.
  if (!col_labels.empty()) {
    const int every = std::max(1, static_cast<int>(std::ceil(fs * 1.05f / cell)));
    const float max_w = L.top - fs * 0.4f;
    for (int c = 0; c < cols; ++c) {
      const bool marked = c == st.marked_col;
      const bool emphasised = (hit.hovered && c == hit.col) || marked;
      // Thinned-out labels give way around the marked one, so it never overlaps a neighbour.
      if (!emphasised &&
          (c % every != 0 || (st.marked_col >= 0 && std::abs(c - st.marked_col) < every)))
        continue;
      const std::string s = abbreviate_to_width(col_labels[c], max_w);
      const float cx = g0.x + (c + 0.5f) * cell;
      const ImVec2 bl(cx + fs * 0.5f, g0.y - fs * 0.2f);
      if (emphasised) {
        const float w = ImGui::CalcTextSize(s.c_str()).x;
        dl->AddRectFilled(ImVec2(cx - fs * 0.5f, bl.y - w - 2), ImVec2(cx + fs * 0.5f, bl.y),
                          with_alpha(marked ? sel_col : text_col, 0.25f));
      }
      add_text_vertical(dl, bl, text_col, s.c_str());
    }
  }

  if (hit.hovered && st.tooltip) draw_tooltip(st, hit, row_labels, col_labels);
  ImGui::PopID();
  return hit;
}

}  // namespace ts
