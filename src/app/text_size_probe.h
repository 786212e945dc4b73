// How large the drawn text really is: every glyph quad in a frame's draw data measured against its
// glyph in the font atlas (height on screen / height at the font's baked size x that size). Used
// by the lesson render check and the readability test to hold projector text to a minimum size.
// Glyphs cut by a clip rectangle (their texture coordinates trimmed) are not counted.
#pragma once
#include <string>

struct ImDrawData;

namespace ts {

struct TextSizeReport {
  float smallest_px = 0;  // 0: no glyph found
  int glyphs = 0;
  float x = 0, y = 0;     // where the smallest glyph was drawn
};

// Call after ImGui::Render() with ImGui::GetDrawData(), while the font atlas is alive.
TextSizeReport measure_text_sizes(const ImDrawData* dd);

}  // namespace ts
