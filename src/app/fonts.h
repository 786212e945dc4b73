// Fonts: DejaVu Sans (text), DejaVu Sans Mono (numbers, ids) and DejaVu Sans Bold, loaded from
// the system at run time at the UI's font size, with the glyphs token chips need (␣ ↵ ⇥ ▁,
// arrows, Greek, Cyrillic, box drawing). Builds the CPU-side atlas only; the window code uploads
// it to the GPU (ImGui_ImplOpenGL3_CreateFontsTexture). Falls back to ImGui's built-in font.
#pragma once
#include <string>

#include "base/font_path.h"  // font_directory(): $TOKENSCOPE_FONT_DIR, then the Debian path
#include "imgui.h"

namespace ts {

enum class FontRole { Regular = 0, Small = 1, Mono = 2, Bold = 3, Large = 4 };

// Clears io.Fonts and adds the five roles at `size_px` (Small = kSmallFontRatio x, Mono 0.92x,
// Large = 1.5x). Returns
// false (and adds ImGui's default font for every role) when the TTF files are missing; then
// `error` names the missing file. Call between frames, never inside NewFrame/Render.
bool build_fonts(float size_px, std::string* error = nullptr);
// The font of a role, or the current default font when the atlas does not have it (tests).
ImFont* app_font(FontRole role);

}  // namespace ts
