// The two appearance settings every path changes the same way: the text size (menu, Ctrl +/-,
// a script's or lesson's `font`) and the theme with the projector preset (menu, --theme, a
// script's `theme`). One writer each, so the limits and the preset live in one place.
#pragma once
#include "app/ui_state.h"

namespace ts {

constexpr float kMinFontSize = 10.0f, kMaxFontSize = 64.0f;
constexpr float kProjectorFontSize = 28.0f;  // the projector preset's least text size

// The text size clamped to [kMinFontSize, kMaxFontSize]; the fonts are rebuilt when it changed.
void set_font_size(UiState& ui, float size);
// The theme; the projector one also raises the text to kProjectorFontSize (never lowers it).
void set_theme(UiState& ui, ThemeKind theme);

}  // namespace ts
