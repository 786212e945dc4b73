// What the panels share: the teacher's persisted preferences, the selection (what is selected,
// hovered and revealed), this frame's layout, the app's status line, and the drawn-items log the
// tests read. A panel receives them as a PanelEnv: the preferences, layout and status read-only,
// the selection and the log writable. A change to a preference from inside a panel (close a
// panel, put one in focus) is a command (app/commands.h), applied after the frame.
#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "app/ui_types.h"

namespace ts {

// Persisted between runs (app/settings.cpp); changed by the menu bar, the keys, the splitters,
// lessons and scripts, never by a panel directly.
struct Preferences {
  float font_size = 20.0f;  // pixels; Ctrl +/- changes it, the atlas is rebuilt at this size
  ThemeKind theme = ThemeKind::Light;
  // In PanelId order; the defaults are the panel table's (app/panel_table.cpp).
  std::array<bool, kPanelCount> show = default_panel_visibility();
  // Presentation layout: the panel in focus (-1: the overview of every panel) takes most of the
  // window; the others become tabs. Set by a lesson page, the number keys or a double-click.
  int focus_panel = -1;
  LayoutPrefs layout_prefs;
  bool color_chips_by_p = true;  // tokens panel: tint generated chips by their probability
  bool show_position_numbers = true;
  // Files remembered between runs.
  std::string last_model_path;
  std::string last_tokenizer_path;

  bool visible(PanelId p) const { return show[static_cast<int>(p)]; }
  bool* show_flag(PanelId p) { return &show[static_cast<int>(p)]; }
  // The focus layout is on (a visible panel other than the lesson is in focus).
  bool presenting() const {
    return focus_panel >= 0 && focus_panel < kPanelCount && show[focus_panel] &&
           focus_panel != static_cast<int>(PanelId::Lesson) &&
           focus_panel != static_cast<int>(PanelId::Status);
  }
};

// Shared between panels, written by any: the selection (position -1 = follow the cursor), the
// hover, and predict-then-reveal (the distribution stays hidden until the teacher reveals it).
struct Selection {
  int selected_position = -1;
  int selected_layer = 0;
  int selected_head = 0;
  int selected_lane = 0;             // which lane's distribution / sampler the panels show
  int rival_token = -1;              // the receipt's rival (a right-click on a Next token bar);
                                     // -1: the runner-up
  HoverState hover;                  // written this frame
  HoverState prev_hover;             // last frame's hover: what panels highlight now
  bool predict_then_reveal = false;  // persisted
  // The timeline node (of the shown lane) whose prediction the teacher has revealed; any other
  // step stays hidden while predict_then_reveal is on.
  int revealed_node = -1;
};

// Computed by the layout from the window size every frame (never saved).
struct FrameLayout {
  std::array<PanelRect, kPanelCount> rects{};
  float menu_bar_height = 0;
  // Panels shown only as a tab (a collapsed title bar) this frame: no room, or not in focus.
  std::array<bool, kPanelCount> tabbed{};
  std::vector<int> more_tabs;     // tabs with no room in the row: listed by the "+N more" tab
  PanelRect more_tab;             // where that tab is (w == 0: none)
  bool timeline_compact = false;  // one row, no title (another panel in focus)
  // A lesson's `size PANEL N%` (0 = none): the panel's share of its column's height in the
  // overview; for the lesson panel, the lesson column's share of the width when presenting.
  std::array<float, kPanelCount> size_override{};

  const PanelRect& rect(PanelId p) const { return rects[static_cast<int>(p)]; }
};

// The app's state line: the last message, the worker's busy flag, and why there is no model.
struct AppStatus {
  std::string message;  // last error / notice shown in the window
  bool message_is_error = false;
  bool busy = false;  // a worker is running a command: panels are not drawn
  std::string busy_label;
  std::string no_model_hint;       // why there is no model and what to do (shown in the panels)
  bool want_font_rebuild = false;  // font_size changed; the window code rebuilds the atlas
  // Full screen (F11, View menu, --fullscreen): what the window should be and what it is; the
  // window code applies a change between frames (the web page: the browser's own F11).
  bool want_fullscreen = false;
  bool fullscreen = false;

  void set_message(std::string text, bool is_error) {
    message = std::move(text);
    message_is_error = is_error;
  }
};

// What the panels drew, recorded only while `record` is set (screenshots, the lesson render
// check, the click tests): items with their rectangles and whether the class can see them, how
// much of each panel's content lies beyond its visible region, and text drawn shortened or cut.
// Visibility is decided from ImGui's own clip rectangles and window order (draw_log.cpp).
struct DrawLog {
  bool record = false;
  std::vector<DrawnItem> drawn;
  std::vector<ClippedText> clipped;
  std::vector<PanelOverflow> overflow;  // one per panel drawn (not tabs)
  float lesson_text_hidden_px = -1;     // the lesson page's text below its fold (-1: no page)
  const char* drawing_panel = "";       // title of the panel being drawn (for `clipped`)

  // Records an item at (x, y, w, h) in screen pixels with the clip rectangle in force now.
  // `state` qualifies the kind ("chosen", "cut", a lane's name, ...).
  void note_drawn(const char* kind, std::string label, float x, float y, float w, float h,
                  std::string state = {});
  void note_clipped(const char* panel, std::string text, const char* how) {
    if (record) clipped.push_back(ClippedText{panel, std::move(text), how});
  }
  void clear();
  // After every panel was drawn (before ImGui::Render): marks each item visible when it lies
  // wholly inside its clip rectangle, the display, and no window drawn above it covers it.
  void finish_frame();
};

// What every panel function receives besides its own state: read-only preferences, layout and
// status; the writable selection and drawn-items log.
struct PanelEnv {
  const Preferences& prefs;
  const FrameLayout& frame;
  const AppStatus& status;
  Selection& sel;
  DrawLog& log;
};

}  // namespace ts
