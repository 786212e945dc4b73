// Horizontal probability bars with token labels: one row per candidate (label, bar, percentage,
// optionally the logit), cut candidates greyed below a labelled cut line, the chosen token
// outlined, an optional empirical-frequency bar under each probability bar with its count ("sampled
// N times"), an optional outline of a reference probability (the raw model's, under a sampler
// view), linear or log bar lengths. The cut label gets its own strip under the cut line, so it
// never covers a percentage. Reports the clicked and hovered ids; knows nothing about sessions.
#pragma once
#include <string>
#include <vector>

#include "app/panel_env.h"
#include "app/theme.h"
#include "imgui.h"

namespace ts {

struct BarRow {
  int id = -1;
  std::string label;  // visible piece
  float p = 0;        // bar length (probability in [0, 1])
  float logit = 0;
  bool kept = true;      // false: greyed (cut by the stage being shown)
  bool chosen = false;   // the token the draw picked
  float empirical = -1;  // sampled frequency in [0, 1]; < 0: no histogram
  int count = -1;        // how many of the samples drew it; < 0: no histogram
  float ref_p = -1;      // drawn as an outline behind the bar (another view's p); < 0: none
};

struct BarListStyle {
  float scale_max = 1.0f;  // the probability drawn as a full-width bar
  bool show_logits = false;
  int cut_after = -1;     // draw the cut line after this row (-1: none)
  std::string cut_label;  // "cut by top-k = 40"
  float row_height = 0;   // <= 0: from the font size
  const char* chosen_note = "the token that was chosen";  // tooltip of the highlighted row
  int gap_before = -1;    // a dotted line above this row: rows were skipped before it
  bool clickable = true;  // rows can be clicked (force); false: no "click to force" hint
  bool log_scale = false;  // bar length by log10(p) from kLogFloor up to scale_max
  const char* ref_note = "the raw model gave it";  // tooltip words before the outline's p
  std::string scale_note;  // a dimmed line above the rows ("" : none), e.g. that they are magnified
};

// A full bar is at least kScaleFloor, so a low top reads low (a 2% bar is 40% long); below
// kMagnifyBelow that would leave the bars a few pixels long, so the list is magnified instead
// (its top bar full width) and says so.
constexpr float kScaleFloor = 0.05f, kMagnifyBelow = 0.01f;
// The linear scale for rows whose largest probability (bars, outlines, frequencies) is `top`:
// max(top, kScaleFloor) at full width; when top < kMagnifyBelow (a nearly flat distribution, as
// a random or 150k-token model gives) top itself, and `scale_note` says what a full bar is
// ("bars magnified: a full bar is 0.0029%").
void set_linear_scale(BarListStyle& style, float top);

constexpr float kLogFloor = 1e-4f;  // the smallest probability a log-scale bar shows (0.01%)

// Fraction of the full bar width for probability p: p / scale_max (linear) or the position of
// log10(p) between log10(kLogFloor) and log10(scale_max) (log); clamped to [0, 1].
float bar_fraction(float p, float scale_max, bool log_scale);
// Top of row i relative to the list's top: rows below the cut line are pushed down by `cut_gap`
// (the strip that holds the cut label).
float bar_row_top(int i, float row_h, int cut_after, float cut_gap);

struct BarListResult {
  int clicked_id = -1;
  int hovered_id = -1;
  int right_clicked_id = -1;  // a right-click: the token to ask "why not this one?" about
};

// Draws at the cursor, using the available width; height = rows * row height (+ the cut strip).
// Rows' tooltips name id, piece, probability, logit and whether they were cut. `log` receives
// DrawnItems.
BarListResult draw_prob_bars(const char* id, const std::vector<BarRow>& rows,
                             const BarListStyle& style, const Palette& pal, DrawLog& log);
float prob_bar_row_height();  // the default row height for the current font

}  // namespace ts
