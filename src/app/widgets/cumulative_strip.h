// The cumulative strip of the random draw: the final distribution laid end to end on [0, 1)
// (most probable first), each token a segment as wide as its probability, the uniform number u
// marked with a needle, and the segment it fell into (the chosen token) highlighted. Mass of
// tokens that were not recorded is one grey "other" segment. Drawing only.
#pragma once
#include <string>
#include <vector>

#include "app/panel_env.h"
#include "app/theme.h"

namespace ts {

struct StripSegment {
  int id = -1;
  std::string label;
  double lo = 0, hi = 0;  // interval on [0, 1)
  bool chosen = false;
};

// A note for the line under the strip (beside the u label), e.g. what the thin bars are.
struct StripLegend {
  std::string text;  // "" : none
  unsigned color = 0;
};

// Draws a strip `height` pixels high (plus a line for the u label) across the available width.
// u < 0: no needle (greedy). The legend goes on the label line, away from the u label. Returns the
// id of the hovered segment or -1.
int draw_cumulative_strip(const char* id, const std::vector<StripSegment>& segments, double u,
                          float height, const Palette& pal, DrawLog& log,
                          const StripLegend& legend = {});

}  // namespace ts
