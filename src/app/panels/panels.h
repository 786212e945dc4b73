// Every panel of the app, one free function each, one file each (src/app/panels/<name>_panel.cpp).
// A panel reads the Session (const), may change UI-only state in UiState, and asks for changes to
// the session by pushing Commands. Panels never include each other; app/switchboard.cpp draws
// them all, then applies the commands. begin_panel/end_panel own the window: the fixed layout
// rectangle, the title, the early-out when hidden or collapsed.
#pragma once
#include <string>

#include "app/commands.h"
#include "app/ui_state.h"

namespace ts {

class Session;
class LessonRunner;

// --- the window helper (every panel uses it) ---------------------------------------------------
// if (!begin_panel(ui, PanelId::Attention)) return;   ...draw contents...   end_panel();
// begin_panel returns false (having already called ImGui::End if needed) when the panel is
// hidden or collapsed; end_panel() must be called exactly when begin_panel returned true.
// The window is placed at ui.frame.rect(id), cannot be moved or resized, and its close button
// clears ui.prefs.show for that panel.
bool begin_panel(UiState& ui, PanelId id, int extra_window_flags = 0);
void end_panel();
// The "+N more" tab of the presentation layout (ui.frame.more_tabs): a list that puts one in focus.
void draw_more_tabs(UiState& ui);
// Records the last ImGui item's rectangle as a DrawnItem (only when ui.log.record): lets the
// smoke test and the click tests find buttons and cells without knowing the layout.
void note_last_item(UiState& ui, const char* kind, const std::string& label);

// --- app engineer's panels ---------------------------------------------------------------------
void draw_prompt_panel(const Session& s, UiState& ui, Commands& cmd);     // prompt_panel.cpp
void draw_tokens_panel(const Session& s, UiState& ui, Commands& cmd);     // tokens_panel.cpp
void draw_transport_panel(const Session& s, UiState& ui, Commands& cmd);  // transport_panel.cpp
void draw_distribution_panel(const Session& s, UiState& ui,
                             Commands& cmd);                           // distribution_panel.cpp
void draw_status_panel(const Session& s, UiState& ui, Commands& cmd);  // status_panel.cpp
void draw_menu_bar(const Session& s, UiState& ui, Commands& cmd);      // menu_bar.cpp
// A trace opened without its model (ui.trace_view.trace), over the panels.  trace_view_panel.cpp
void draw_read_only_trace(UiState& ui, Commands& cmd);
// The open lesson (owned by App; nullptr when none): page text, question, Back / Next, checks.
void draw_lesson_panel(const Session& s, const LessonRunner* lesson, UiState& ui,
                       Commands& cmd);  // lesson_panel.cpp
// The lesson panel's whole height (title bar to buttons) at `width` for the open page, so that
// the layout can size it to its text; 0 without a page.
float lesson_panel_height(const LessonRunner* lesson, float width);

// --- visual panels engineer's panels -----------------------------------------------------------
void draw_attention_panel(const Session& s, UiState& ui, Commands& cmd);  // attention_panel.cpp
void draw_kv_cache_panel(const Session& s, UiState& ui, Commands& cmd);   // kv_cache_panel.cpp
void draw_cost_panel(const Session& s, UiState& ui, Commands& cmd);       // cost_panel.cpp
void draw_compare_panel(const Session& s, UiState& ui, Commands& cmd);    // compare_panel.cpp
void draw_branches_panel(const Session& s, UiState& ui, Commands& cmd);   // branches_panel.cpp
void draw_model_panel(const Session& s, UiState& ui, Commands& cmd);      // model_panel.cpp

}  // namespace ts
