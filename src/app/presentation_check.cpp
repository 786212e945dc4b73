// The presentation layout's check (see presentation_check.h).
#include "app/presentation_check.h"

#include <cstdio>

#include "app/ui_types.h"

namespace ts {

std::string presentation_problems(const Preferences& prefs, const FrameLayout& frame,
                                  const DrawLog& log, float w, float h) {
  if (!prefs.presenting()) return "no panel in focus";
  const PanelRect& r = frame.rects[prefs.focus_panel];
  const float share = w > 0 && h > 0 ? r.w * r.h / (w * h) : 0.0f;
  std::string out;
  if (share < kFocusShareAtLeast) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "the focus panel covers %.0f%% of the window (at least %.0f%%)",
                  100.0f * share, 100.0f * kFocusShareAtLeast);
    out += buf;
  }
  const std::string focus = panel_title(static_cast<PanelId>(prefs.focus_panel));
  const std::string lesson = panel_title(PanelId::Lesson);
  for (const ClippedText& c : log.clipped) {
    if (c.panel != lesson && (c.panel != focus || c.how == "shortened")) continue;
    if (!out.empty()) out += "; ";
    out += c.how + " in " + c.panel + ": \"" + c.text + "\"";
  }
  // The focus panel shows all it drew: nothing below its fold or past its right edge (a
  // scrolled-away line is a line the class cannot read).
  for (const PanelOverflow& o : log.overflow) {
    if (o.panel != focus || (o.below <= 1.0f && o.right <= 1.0f)) continue;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s hides %.0f px below its fold and %.0f px past its edge",
                  focus.c_str(), o.below, o.right);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out;
}

}  // namespace ts
