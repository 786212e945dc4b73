// Lesson narration as the class reads it: a small Markdown subset laid out and drawn in the
// panel's width. Paragraphs (blank lines), list items ("- ", "* ", "1. ") with a hanging indent,
// **bold**, *italic* (the regular face slanted), `inline code` (the mono face on a tint). Lines
// wrap at spaces only. Each drawn line is recorded as a "text" item (its plain text), so lesson
// checks can find the words. The layout is one function, so the height the lesson column is
// sized by is exactly the height drawn.
#pragma once
#include <string>

#include "app/panel_env.h"

namespace ts {

// Height of `md` laid out `width` pixels wide in the current fonts.
float markdown_height(const std::string& md, float width);
// Draws `md` at the cursor, `width` pixels wide (<= 0: the content region's), in `color`
// (0: the style's text colour), and advances the cursor past it.
void markdown_text(DrawLog& log, const std::string& md, float width = 0, unsigned color = 0);
// The text without its Markdown marks ("**a** b" -> "a b"; list dashes kept as bullets).
std::string markdown_plain(const std::string& md);

}  // namespace ts
