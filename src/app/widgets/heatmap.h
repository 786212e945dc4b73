// A heatmap widget drawn with ImDrawList over one InvisibleButton: a rows x cols grid of
// values coloured through a sequential colormap, optional token labels (rows readable on the
// left, columns rotated on top), a causal mask drawn as a hatched region, highlighted rows, and a
// hover report (row, col, value) with a tooltip. It draws values it is given; it does not know
// about models or sessions. Sizes come from the font size, so it scales with the UI.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "app/widgets/colormap.h"
#include "imgui.h"

namespace ts {

struct HeatmapStyle {
  const HeatRamp* ramp = nullptr;  // nullptr: the light theme's ramp
  ColorScale scale;
  // Whole widget size (labels included). x <= 0: the available width; y <= 0: whatever square
  // cells of that width need. Cells stay square and never exceed max_cell_em font sizes.
  ImVec2 size = ImVec2(0, 0);
  float max_cell_em = 2.5f;
  // Causal mask: cell (r, c) is in the future (masked) when c > r + causal_offset.
  bool causal = true;
  int causal_offset = 0;
  bool labels = true;      // token labels on both axes (when given)
  bool cell_values = true; // print the weight inside cells that are large enough
  bool tooltip = true;     // hover tooltip naming query, key and weight
  int selected_row = -1;   // outlined strongly (the token the class selected)
  int linked_row = -1;     // outlined lightly (hovered elsewhere, e.g. a token chip)
  int marked_col = -1;     // always labelled, label highlighted (where the selected row looks most)
  int step_row_begin = -1; // rows computed by the current step: marked at the left edge
  int step_row_end = -1;
  const char* row_title = "query";
  const char* col_title = "key";
  int row_number_base = 0;  // row r is shown as position r + row_number_base
  // Colours; 0 = derive from the current ImGui style.
  ImU32 selected_color = 0;
  ImU32 linked_color = 0;
  ImU32 step_color = 0;
  ImU32 frame_color = 0;  // outline drawn around the whole grid (e.g. the chosen mini map)
};

struct HeatmapHit {
  bool hovered = false;
  bool clicked = false;  // left click released on a cell this frame
  int row = -1;
  int col = -1;
  float value = 0.0f;
  bool masked = false;   // the hovered cell lies in the causal mask
};

// `values` is row-major (rows * cols). NaN marks "not recorded" (drawn as empty, not as zero).
// Labels, when non-empty, must have rows / cols entries. Returns what the mouse is doing.
HeatmapHit draw_heatmap(const char* str_id, std::span<const float> values, int rows, int cols,
                        const HeatmapStyle& style, std::span<const std::string> row_labels = {},
                        std::span<const std::string> col_labels = {});

// The cell area's layout for given inputs, without drawing (tests and callers use it to know
// where a cell is on screen). origin = the screen position where the widget would start.
struct HeatmapLayout {
  ImVec2 grid_min;  // top-left of cell (0, 0)
  float cell = 0;   // square cell side in pixels
  float left = 0;   // width reserved for row labels
  float top = 0;    // height reserved for column labels
  ImVec2 total;     // whole widget size
  ImVec2 cell_center(int r, int c) const {
    return ImVec2(grid_min.x + (c + 0.5f) * cell, grid_min.y + (r + 0.5f) * cell);
  }
};
HeatmapLayout heatmap_layout(ImVec2 origin, int rows, int cols, const HeatmapStyle& style,
                             std::span<const std::string> row_labels,
                             std::span<const std::string> col_labels);

// A small hatched square (the causal mask's look) followed by `text`, as one legend item.
void draw_mask_legend(const char* text);

// Shortens `text` with a trailing "…" so it fits `max_width` pixels at the current font.
std::string abbreviate_to_width(const std::string& text, float max_width);
// Draws `text` rotated 90 degrees counter-clockwise, reading upward from `bottom_left`.
void add_text_vertical(ImDrawList* dl, ImVec2 bottom_left, ImU32 col, const char* text);

}  // namespace ts
