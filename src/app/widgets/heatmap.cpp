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

namespace {

// What the parts of one map share: the grid on screen, the cell size, the colours.
struct HeatDraw {
  const HeatmapStyle& st;
  std::span<const float> values;
  int rows, cols;
  float fs, cell;
  ImVec2 g0, g1;  // the grid's corners
  const HeatRamp& ramp;
  ImDrawList* dl;
  ImU32 text_col, sel_col, step_col;
  float value(int r, int c) const { return values[static_cast<size_t>(r) * cols + c]; }
  int mask_limit(int r, int lo) const {  // the first masked column of row r
    return st.causal ? std::clamp(r + st.causal_offset + 1, lo, cols) : cols;
  }
};

// The cell under the mouse, when the map's button is hovered there.
HeatmapHit hit_test(const HeatDraw& d, bool hovered, bool released) {
  HeatmapHit hit;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (!hovered || mouse.x < d.g0.x || mouse.x >= d.g1.x || mouse.y < d.g0.y || mouse.y >= d.g1.y)
    return hit;
  hit.hovered = true;
  hit.row = std::clamp(static_cast<int>((mouse.y - d.g0.y) / d.cell), 0, d.rows - 1);
  hit.col = std::clamp(static_cast<int>((mouse.x - d.g0.x) / d.cell), 0, d.cols - 1);
  hit.masked = is_masked(d.st, hit.row, hit.col);
  hit.value = hit.masked ? 0.0f : d.value(hit.row, hit.col);
  hit.clicked = released;
  return hit;
}

// Cells, one rectangle per row for the masked run, hatched with stripes parallel to its
// diagonal edge (lines col = row + k, k > offset + 1).
void draw_cells(const HeatDraw& d) {
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  const ImU32 mask_fill = blend(bg, d.text_col, 0.07f);
  const ImU32 mask_stripe = blend(bg, d.text_col, 0.20f);
  const ImU32 empty_fill = ImGui::GetColorU32(ImGuiCol_FrameBg);
  const float cell = d.cell;
  const float gap = cell >= d.fs * 0.8f ? 1.0f : 0.0f;  // hairline between large cells
  for (int r = 0; r < d.rows; ++r) {
    const float y0 = d.g0.y + r * cell, y1 = y0 + cell;
    const int c_mask = d.mask_limit(r, 0);
    for (int c = 0; c < c_mask; ++c) {
      const float v = d.value(r, c);
      const float x0 = d.g0.x + c * cell;
      const ImU32 fill = std::isnan(v) ? empty_fill : d.ramp.color(d.st.scale.to_unit(v));
      d.dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + cell - gap, y1 - gap), fill);
    }
    if (c_mask < d.cols)
      d.dl->AddRectFilled(ImVec2(d.g0.x + c_mask * cell, y0), ImVec2(d.g1.x, y1), mask_fill);
  }
  if (!d.st.causal) return;
  const float spacing = std::max(d.fs * 0.45f / cell, 0.5f);  // in cells
  for (float k = d.st.causal_offset + 1 + spacing; k < d.cols; k += spacing) {
    const float v0 = std::max(0.0f, -k), v1 = std::min(static_cast<float>(d.rows), d.cols - k);
    if (v1 <= v0) continue;
    d.dl->AddLine(ImVec2(d.g0.x + (v0 + k) * cell, d.g0.y + v0 * cell),
                  ImVec2(d.g0.x + (v1 + k) * cell, d.g0.y + v1 * cell), mask_stripe, 1.0f);
  }
}

// Weights printed inside cells big enough to hold them.
void draw_cell_values(const HeatDraw& d, const HeatmapLayout& L) {
  if (!d.st.cell_values || d.cell < d.fs * 2.2f) return;
  const float vfs = d.fs * kSmallFontRatio;
  for (int r = 0; r < d.rows; ++r)
    for (int c = 0; c < d.cols && !is_masked(d.st, r, c); ++c) {
      const float v = d.value(r, c);
      if (std::isnan(v)) continue;
      char buf[24];
      std::snprintf(buf, sizeof buf, "%.2f", v);
      const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(vfs, 1e9f, 0, buf);
      const ImVec2 ctr = L.cell_center(r, c);
      d.dl->AddText(ImGui::GetFont(), vfs, ImVec2(ctr.x - ts.x * 0.5f, ctr.y - ts.y * 0.5f),
                    d.ramp.text_color(d.st.scale.to_unit(v)), buf);
    }
}

// The current step's rows (a bar left of the grid; an outline when only some rows), a row
// hovered in another panel, the selected row, the frame and the hovered cell.
void draw_row_highlights(const HeatDraw& d, const HeatmapHit& hit) {
  const HeatmapStyle& st = d.st;
  const ImVec2 g0 = d.g0, g1 = d.g1;
  const float cell = d.cell, fs = d.fs;
  if (st.step_row_begin >= 0 && st.step_row_end > st.step_row_begin) {
    const int b = std::clamp(st.step_row_begin, 0, d.rows),
              e = std::clamp(st.step_row_end, 0, d.rows);
    if (e > b) {
      const float bar_w = std::max(fs * 0.25f, 2.0f);
      d.dl->AddRectFilled(ImVec2(g0.x - bar_w - fs * 0.1f, g0.y + b * cell),
                          ImVec2(g0.x - fs * 0.1f, g0.y + e * cell), d.step_col);
      if (e - b < d.rows) {
        for (int r = b; r < e; ++r)
          d.dl->AddRect(ImVec2(g0.x, g0.y + r * cell),
                        ImVec2(g0.x + d.mask_limit(r, 0) * cell, g0.y + (r + 1) * cell), d.step_col,
                        0.0f, 0, std::max(1.5f, fs * 0.08f));
      }
    }
  }
  // (the linked row under the selection's outline)
  if (st.linked_row >= 0 && st.linked_row < d.rows && st.linked_row != st.selected_row) {
    const int r = st.linked_row;
    const ImU32 lc = st.linked_color ? st.linked_color : ImGui::GetColorU32(ImGuiCol_ButtonHovered);
    d.dl->AddRect(ImVec2(g0.x - 1, g0.y + r * cell - 1),
                  ImVec2(g0.x + d.mask_limit(r, 1) * cell + 1, g0.y + (r + 1) * cell + 1), lc, 0.0f,
                  0, std::max(1.5f, fs * 0.1f));
  }
  if (st.selected_row >= 0 && st.selected_row < d.rows) {
    const int r = st.selected_row;
    d.dl->AddRect(ImVec2(g0.x - 1, g0.y + r * cell - 1),
                  ImVec2(g0.x + d.mask_limit(r, 1) * cell + 1, g0.y + (r + 1) * cell + 1),
                  d.sel_col, 0.0f, 0, std::max(2.0f, fs * 0.14f));
  }
  if (st.frame_color)
    d.dl->AddRect(ImVec2(g0.x - 2, g0.y - 2), ImVec2(g1.x + 2, g1.y + 2), st.frame_color, 0.0f, 0,
                  std::max(2.0f, fs * 0.12f));
  if (hit.hovered) {
    const float x0 = g0.x + hit.col * cell, y0 = g0.y + hit.row * cell;
    d.dl->AddRect(ImVec2(x0, y0), ImVec2(x0 + cell, y0 + cell), d.text_col, 0.0f, 0, 1.5f);
  }
}

// Row labels: right-aligned, at a size the rows can hold; thinned out when rows are small.
void draw_row_labels(const HeatDraw& d, const HeatmapLayout& L, const HeatmapHit& hit,
                     std::span<const std::string> row_labels) {
  const HeatmapStyle& st = d.st;
  const float cell = d.cell, fs = d.fs;
  const float lfs = std::clamp(cell * 0.95f, fs * kSmallFontRatio, fs);
  const int every = std::max(1, static_cast<int>(std::ceil(lfs * 1.05f / cell)));
  const float max_w = L.left - fs * 0.8f;
  for (int r = 0; r < d.rows; ++r) {
    const bool emphasised = r == st.selected_row || (hit.hovered && r == hit.row);
    // Thinned-out labels give way around the selected row's, so they never overlap it.
    if (!emphasised && (r % every != 0 || (st.selected_row >= 0 &&
                                           std::abs(r - st.selected_row) * cell < lfs * 1.6f)))
      continue;
    const std::string s = abbreviate_to_width(row_labels[r], max_w);
    const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(lfs, 1e9f, 0, s.c_str());
    // Centred on its row, but never below the grid: a label taller than the cells (the
    // newest row's) is not cut by the map's bottom edge. (Above the grid there is room.)
    const float y = std::min(d.g0.y + (r + 0.5f) * cell - ts.y * 0.5f,
                             std::max(d.g0.y, d.g0.y + d.rows * cell - ts.y));
    const ImVec2 p(d.g0.x - fs * 0.5f - ts.x, y);
    if (emphasised)
      d.dl->AddRectFilled(ImVec2(p.x - 2, p.y), ImVec2(p.x + ts.x + 2, p.y + ts.y),
                          with_alpha(r == st.selected_row ? d.sel_col : d.text_col, 0.25f));
    d.dl->AddText(ImGui::GetFont(), lfs, p, d.text_col, s.c_str());
  }
}

// Column labels: rotated, reading upward from just above the grid.
void draw_col_labels(const HeatDraw& d, const HeatmapLayout& L, const HeatmapHit& hit,
                     std::span<const std::string> col_labels) {
  const HeatmapStyle& st = d.st;
  const float cell = d.cell, fs = d.fs;
  const int every = std::max(1, static_cast<int>(std::ceil(fs * 1.05f / cell)));
  const float max_w = L.top - fs * 0.4f;
  for (int c = 0; c < d.cols; ++c) {
    const bool marked = c == st.marked_col;
    const bool emphasised = (hit.hovered && c == hit.col) || marked;
    // Thinned-out labels give way around the marked one, so it never overlaps a neighbour.
    if (!emphasised &&
        (c % every != 0 || (st.marked_col >= 0 && std::abs(c - st.marked_col) < every)))
      continue;
    const std::string s = abbreviate_to_width(col_labels[c], max_w);
    const float cx = d.g0.x + (c + 0.5f) * cell;
    const ImVec2 bl(cx + fs * 0.5f, d.g0.y - fs * 0.2f);
    if (emphasised) {
      const float w = ImGui::CalcTextSize(s.c_str()).x;
      d.dl->AddRectFilled(ImVec2(cx - fs * 0.5f, bl.y - w - 2), ImVec2(cx + fs * 0.5f, bl.y),
                          with_alpha(marked ? d.sel_col : d.text_col, 0.25f));
    }
    add_text_vertical(d.dl, bl, d.text_col, s.c_str());
  }
}

}  // namespace

HeatmapHit draw_heatmap(const char* str_id, std::span<const float> values, int rows, int cols,
                        const HeatmapStyle& st, std::span<const std::string> row_labels,
                        std::span<const std::string> col_labels) {
  if (rows <= 0 || cols <= 0 || values.size() < static_cast<size_t>(rows) * cols) return {};
  if (!st.labels) row_labels = {}, col_labels = {};
  if (static_cast<int>(row_labels.size()) != rows) row_labels = {};
  if (static_cast<int>(col_labels.size()) != cols) col_labels = {};

  ImGui::PushID(str_id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const HeatmapLayout L = heatmap_layout(origin, rows, cols, st, row_labels, col_labels);
  const ImVec2 g0 = L.grid_min;
  const HeatDraw d{
      st,
      values,
      rows,
      cols,
      ImGui::GetFontSize(),
      L.cell,
      g0,
      ImVec2(g0.x + cols * L.cell, g0.y + rows * L.cell),
      st.ramp ? *st.ramp : theme_heat_ramp(ThemeKind::Light),
      ImGui::GetWindowDrawList(),
      ImGui::GetColorU32(ImGuiCol_Text),
      st.selected_color ? st.selected_color : ImGui::GetColorU32(ImGuiCol_CheckMark),
      st.step_color ? st.step_color : ImGui::GetColorU32(ImGuiCol_PlotHistogramHovered)};
  // Interaction: the button covers the labels too (one item), but only cells report hits.
  const bool released = ImGui::InvisibleButton(
      "##heatmap", ImVec2(std::max(L.total.x, 1.0f), std::max(L.total.y, 1.0f)));
  const HeatmapHit hit = hit_test(d, ImGui::IsItemHovered(), released);
  draw_cells(d);
  draw_cell_values(d, L);
  draw_row_highlights(d, hit);
  if (!row_labels.empty()) draw_row_labels(d, L, hit, row_labels);
  if (!col_labels.empty()) draw_col_labels(d, L, hit, col_labels);
  if (hit.hovered && st.tooltip) draw_tooltip(st, hit, row_labels, col_labels);
  ImGui::PopID();
  return hit;
}

}  // namespace ts
