// Wrapping a lane's text for the Compare panel, as a pure function of the pieces' widths: each
// piece goes after the previous one on its line, or starts the next line when it would cross the
// width (a piece wider than the whole line gets a line of its own). No ImGui here.
#pragma once
#include <vector>

namespace ts {

struct FlowPos {
  float x = 0, y = 0;  // top-left of the piece, relative to the text's top-left
  int line = 0;
};

// Positions of pieces `widths` in a column `width` wide with lines `line_h` apart; *height
// (optional) receives the text's height (lines * line_h, 0 for no pieces).
std::vector<FlowPos> wrap_flow(const std::vector<float>& widths, float width, float line_h,
                               float* height = nullptr);

}  // namespace ts
