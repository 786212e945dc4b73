// DrawLog (panel_env.h): recording what the panels drew and deciding what the class can see.
// An item is visible when it lies wholly inside the clip rectangle that was in force when it was
// drawn (ImGui's: a scrolling child, the panel's inner region and any PushClipRect, intersected),
// inside the display, and no window drawn above its own covers any part of it. The panels' hidden
// content (below and right of their visible region) is measured in end_panel (panel_window.cpp).
#include <algorithm>

#include "app/panel_env.h"
#include "imgui.h"
#include "imgui_internal.h"

namespace ts {
namespace {

constexpr float kSlack = 1.0f;  // pixels an item may cross an edge by (anti-aliased borders)

bool inside(const PanelRect& r, const PanelRect& box) {
  return r.x >= box.x - kSlack && r.y >= box.y - kSlack && r.x + r.w <= box.x + box.w + kSlack &&
         r.y + r.h <= box.y + box.h + kSlack;
}

bool overlaps(const PanelRect& r, const ImRect& b) {
  return r.x + r.w > b.Min.x + kSlack && b.Max.x > r.x + kSlack && r.y + r.h > b.Min.y + kSlack &&
         b.Max.y > r.y + kSlack;
}

// Windows shown this frame above the root window `id`, in display order (back to front).
std::vector<const ImGuiWindow*> windows_above(unsigned id) {
  std::vector<const ImGuiWindow*> above;
  const ImGuiContext& g = *GImGui;
  bool found = false;
  for (const ImGuiWindow* w : g.Windows) {
    if (w->RootWindow != w || w->IsFallbackWindow) continue;  // children go with their root
    if (w->ID == id) {
      found = true;
      continue;
    }
    if (found && w->Active && !w->Hidden && !w->Collapsed) above.push_back(w);
  }
  return above;
}

}  // namespace

void DrawLog::note_drawn(const char* kind, std::string label, float x, float y, float w, float h,
                         std::string state) {
  if (!record) return;
  DrawnItem d;
  d.kind = kind;
  d.label = std::move(label);
  d.rect = PanelRect{x, y, w, h};
  d.state = std::move(state);
  d.panel = drawing_panel;
  const ImGuiContext* g = GImGui;
  if (g && g->CurrentWindow) {
    const ImGuiWindow* win = g->CurrentWindow;
    const ImVec2 a = win->DrawList->GetClipRectMin();
    const ImVec2 b = win->DrawList->GetClipRectMax();
    d.clip = PanelRect{a.x, a.y, b.x - a.x, b.y - a.y};
    d.window = win->RootWindow ? win->RootWindow->ID : win->ID;
  } else {
    const ImVec2 size = g ? g->IO.DisplaySize : ImVec2(1e9f, 1e9f);
    d.clip = PanelRect{0, 0, size.x, size.y};
  }
  drawn.push_back(std::move(d));
}

void DrawLog::clear() {
  drawn.clear();
  clipped.clear();
  overflow.clear();
  lesson_text_hidden_px = -1;
}

void DrawLog::finish_frame() {
  if (!record || !GImGui) return;
  const ImVec2 size = GImGui->IO.DisplaySize;
  const PanelRect display{0, 0, size.x, size.y};
  unsigned cached_id = 0;
  std::vector<const ImGuiWindow*> above;
  for (DrawnItem& d : drawn) {
    d.visible = d.rect.w >= 0 && d.rect.h >= 0 && inside(d.rect, d.clip) && inside(d.rect, display);
    if (!d.visible || d.window == 0) continue;
    if (d.window != cached_id) {
      above = windows_above(d.window);
      cached_id = d.window;
    }
    d.visible = std::none_of(above.begin(), above.end(),
                             [&](const ImGuiWindow* w) { return overlaps(d.rect, w->Rect()); });
  }
}

}  // namespace ts
