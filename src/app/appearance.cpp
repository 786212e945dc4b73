// Text size and theme (appearance.h): the clamp, the font rebuild, the projector preset.
#include "app/appearance.h"

#include <algorithm>

namespace ts {

void set_font_size(UiState& ui, float size) {
  size = std::clamp(size, kMinFontSize, kMaxFontSize);
  if (size != ui.prefs.font_size) {
    ui.prefs.font_size = size;
    ui.status.want_font_rebuild = true;
  }
}

void set_theme(UiState& ui, ThemeKind theme) {
  ui.prefs.theme = theme;
  if (theme == ThemeKind::Projector)
    set_font_size(ui, std::max(ui.prefs.font_size, kProjectorFontSize));
}

}  // namespace ts
