// The app's colour palette and ImGui style per theme (light, dark, projector: high contrast, thick
// lines). Panels take colours from palette(ui.prefs.theme) instead of hard-coding them, so every
// panel follows the theme. heat_color() is the one sequential colour map (attention, KV,
// histograms). This file does not load fonts (app/fonts.h) or choose sizes of panels
// (app/layout.h).
#pragma once
#include <vector>

#include <cstdint>

#include "app/ui_state.h"
#include "imgui.h"

namespace ts {

struct Palette {
  ImU32 window_bg;
  ImU32 text;
  ImU32 text_dim;        // secondary labels, cut tokens' text
  ImU32 grid;            // thin lines, cell borders
  ImU32 prompt_chip;     // background of a prompt token chip
  ImU32 generated_chip;  // background of a generated token chip
  ImU32 forced_chip;     // a token the teacher forced (a branch point)
  ImU32 chip_text;
  ImU32 selected;   // outline of the selected position / cell
  ImU32 hovered;    // outline of the hovered (linked) item
  ImU32 accent;     // the chosen token, the cursor, the draw marker u
  ImU32 bar;        // a probability bar
  ImU32 bar_cut;    // a bar cut by a filter (greyed)
  ImU32 cut_line;   // the threshold line of a filter
  ImU32 histogram;  // empirical histogram bars ("sample N times")
  ImU32 prefill;    // prefill cells / marks
  ImU32 decode;     // decode cells / marks
  ImU32 heat_lo;    // heat_color(0)
  ImU32 heat_mid;   // heat_color(0.5)
  ImU32 heat_hi;    // heat_color(1)
  ImU32 ok;
  ImU32 warning;
  ImU32 error;
  ImU32 lanes[6];        // one colour per lane (compare panel, lane tabs)
  float line_thickness;  // 1 for light/dark, 2 for the projector
  ImU32 histogram_text;  // the sample counts and the thin bars' legend (readable on window_bg)
  ImU32 mark_text;       // small marks on chips ("6x" repeats)
};

const Palette& palette(ThemeKind t);
// Sequential colour map for t in [0, 1] (clamped): heat_lo -> heat_mid -> heat_hi.
ImU32 heat_color(const Palette& p, float t);
// A colour for lane i (wraps around).
inline ImU32 lane_color(const Palette& p, int lane) { return p.lanes[((lane % 6) + 6) % 6]; }
// Mixes two colours: t = 0 gives a, t = 1 gives b (alpha too).
ImU32 mix_color(ImU32 a, ImU32 b, float t);
// Every pairing of a text colour with the background the app draws it on, named, so a test can
// hold each to 4.5:1 (WCAG AA for body text) in every theme. Disabled controls are exempt.
struct TextOnBackground {
  const char* what;
  ImU32 text, background;
};
std::vector<TextOnBackground> text_pairs(ThemeKind t);
// The contrast ratio of two colours, 1..21 (WCAG 2 relative luminance; alpha ignored).
float contrast_ratio(ImU32 a, ImU32 b);

// The ImGui style of a theme (colours, paddings, roundings), without applying it.
ImGuiStyle theme_style(ThemeKind t, float font_size);
// Sets ImGui's style colours, paddings and roundings for a theme. The scale is font_size / 16 so
// paddings grow with the font (projector). Safe without a window (tests call it).
void apply_theme(ThemeKind t, float font_size);

}  // namespace ts
