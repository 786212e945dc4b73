// The font folder (see font_path.h).
#include "base/font_path.h"

#include <cstdlib>

namespace ts {

std::string font_directory() {
  if (const char* d = std::getenv("TOKENSCOPE_FONT_DIR"); d && *d) return d;
  return "/usr/share/fonts/truetype/dejavu";
}

}  // namespace ts
