// Text that never breaks inside itself: wrapping at spaces only (so "1,024" and "65.1%" stay
// whole, unlike ImGui's TextWrapped, which breaks after '.' and ','), and labels shortened to a
// width with a visible ellipsis and a tooltip. Whatever had to be shortened, broken or cut is
// recorded in DrawLog::clipped (for the screenshot report), under the panel being drawn.
#pragma once
#include <string>
#include <vector>

#include "app/panel_env.h"
#include "imgui.h"

namespace ts {

// `text` wrapped to `width` with `font` at `size`: breaks only at spaces and newlines. A word
// wider than the whole width is broken between characters and *broken is set.
std::vector<std::string> wrap_lines(const ImFont* font, float size, const std::string& text,
                                    float width, bool* broken = nullptr);
// Draws `text` wrapped to the content region's width at the cursor (one item per line, each
// recorded as a "text" item).
void wrapped_text(DrawLog& log, const std::string& text);
// Records the last ImGui item as a "text" item with this text (lesson checks read them).
void note_text_item(DrawLog& log, const std::string& text);
// Draws `text` in at most `max_width` pixels: whole when it fits, else cut at a character
// boundary with "…" and the whole text as a tooltip. Returns true when it was shortened.
bool fit_text(DrawLog& log, const std::string& text, float max_width);
// Drop-in for ImGui::TextWrapped: printf-style, wrapped at spaces like wrapped_text, recording
// into the DrawLog of the panel being drawn (set by begin_panel; none outside a panel).
void text_wrapped(const char* fmt, ...) IM_FMTARGS(1);
// The DrawLog text_wrapped records into (begin_panel sets it, end_panel clears it).
void set_text_record_target(DrawLog* log);
DrawLog* text_record_target();

}  // namespace ts
