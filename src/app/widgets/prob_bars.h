// Horizontal probability bars with token labels: one row per candidate (label, bar, percentage,
// optionally the logit), cut candidates greyed below a labelled cut line, the chosen token
// outlined, and an optional empirical-frequency bar under each probability bar ("sampled N
// times"). Reports the clicked and hovered ids; knows nothing about sessions or commands.
#pragma once
#include <string>
#include <vector>

#include "app/theme.h"
#include "app/ui_state.h"
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
};

struct BarListResult {
  int clicked_id = -1;
  int hovered_id = -1;
};

// Draws at the cursor, using the available width; height = rows * row height. Rows' tooltips
// name id, piece, probability, logit and whether they were cut. `ui` receives DrawnItems.
BarListResult draw_prob_bars(const char* id, const std::vector<BarRow>& rows,
                             const BarListStyle& style, const Palette& pal, UiState& ui);
float prob_bar_row_height();  // the default row height for the current font

}  // namespace ts
