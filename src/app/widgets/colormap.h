// The sequential colour ramp of heatmaps, built from the theme's three heat anchors (lo, mid, hi)
// but interpolated in the OKLab colour space, so equal steps of value look like equal steps of
// colour on a projector; a value scale (linear or logarithmic) and a legend strip with ticks.
// Does not know what the values mean: callers give a scale.
#pragma once
#include <array>
#include <cstdint>

#include "app/ui_state.h"
#include "imgui.h"

namespace ts {

// 256 precomputed colours from t = 0 to t = 1, with their OKLab lightness (for text contrast).
struct HeatRamp {
  std::array<ImU32, 256> rgb{};
  std::array<float, 256> lightness{};
  ImU32 color(float t) const;       // t clamped to [0, 1]; NaN -> 0
  ImU32 text_color(float t) const;  // dark or light text readable on color(t)
};

HeatRamp make_heat_ramp(ImU32 lo, ImU32 mid, ImU32 hi);
// The ramp of a theme's palette (constant tables, built once per theme on first use).
const HeatRamp& theme_heat_ramp(ThemeKind t);

// Value -> [0, 1]. Linear over [0, vmax], or logarithmic over [vmax * 1e-3, vmax] (small
// attention weights become visible; 0 stays at the low end).
struct ColorScale {
  float vmax = 1.0f;
  bool log = false;
  static constexpr float kLogDecades = 3.0f;
  float to_unit(float v) const;
};

// A gradient strip `width` wide with tick values below it, after a caption on the same line.
void draw_colormap_legend(const char* caption, const HeatRamp& ramp, const ColorScale& scale,
                          float width);

}  // namespace ts
