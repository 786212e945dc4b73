// Small charts drawn with ImDrawList over one InvisibleButton each: a bar chart (one bar per
// step, coloured per bar, hover / click report), a log-log roofline chart (arithmetic intensity
// vs achieved FLOP/s under a memory roof and a compute roof), and a probability bar row.
// They draw numbers they are given; the panels decide what the numbers mean. Sizes follow
// the font size.
#pragma once
#include <span>
#include <string>

#include "imgui.h"

namespace ts {

struct ChartHit {
  bool hovered = false;
  bool clicked = false;
  int index = -1;  // bar or point under the mouse
};

using ValueFormat = std::string (*)(double);

struct BarChartStyle {
  ImVec2 size = ImVec2(0, 0);  // x <= 0: available width; y <= 0: 7 font sizes
  bool log_scale = false;
  int highlighted = -1;        // outlined bar (the step at the cursor)
  ImU32 highlight_color = 0;   // 0: the style's text colour
  ValueFormat format = nullptr;  // y-axis values; nullptr: "%.3g"
  int index_base = 0;          // bar i is labelled i + index_base on the x axis
};

// values: bar heights (>= 0); colors: one per bar (or empty: the style's histogram colour).
ChartHit draw_bar_chart(const char* str_id, std::span<const double> values,
                        std::span<const ImU32> colors, const BarChartStyle& style);

struct RooflinePoint {
  double intensity = 0;    // FLOPs per byte moved
  double flops_per_s = 0;  // measured; <= 0 when the pass was not timed
  ImU32 color = 0;
};

struct RooflineStyle {
  ImVec2 size = ImVec2(0, 0);  // x <= 0: available width; y <= 0: 12 font sizes
  double peak_flops = 1e11;    // compute roof, FLOP/s
  double bandwidth = 2e10;     // memory roof slope, bytes/s
  double slow_bandwidth = 0;   // > 0: a second, dashed memory roof (main memory), labelled
  int highlighted = -1;        // point drawn larger with an outline
  ImU32 roof_color = 0;
  ImU32 highlight_color = 0;
};

// Log-log axes; the ridge (peak / bandwidth = machine balance) splits the plot into a
// "memory-bound" left and a "compute-bound" right, both labelled in plain words.
ChartHit draw_roofline(const char* str_id, std::span<const RooflinePoint> points,
                       const RooflineStyle& style);

// One row: `label` in a column label_width wide, a bar of length p * bar_width, and "12.3%".
void draw_prob_bar_row(const char* label, float label_width, float p, float bar_width, ImU32 color,
                       bool emphasised = false);

}  // namespace ts
