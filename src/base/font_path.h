// Where the DejaVu fonts (Debian's fonts-dejavu-core) are looked up: $TOKENSCOPE_FONT_DIR, then
// the Debian path. Shared by the app's font atlas and the CLI's chart renderer (plot-loss), so
// both find the same files; no font loading here.
#pragma once
#include <string>

namespace ts {

// The folder holding DejaVuSans.ttf and friends.
std::string font_directory();

}  // namespace ts
