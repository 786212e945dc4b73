// Every panel of the app, one free function each, one file each (src/app/panels/<name>_panel.cpp).
// A panel reads the Session (const) and the shared PanelEnv (preferences, layout and status
// read-only; selection, hover and the drawn-items log writable), changes its own state struct
// (panel_state.h) and asks for everything else by pushing Commands: changes to the session, and
// to the teacher's preferences (close, focus). Each signature names exactly the state the panel
// may write. Panels never include each other; app/switchboard.cpp draws them all, then the app
// applies the commands. begin_panel/end_panel own the window: the fixed layout rectangle, the
// title, the early-out when hidden or collapsed.
#pragma once
#include <string>

#include "app/commands.h"
#include "app/panel_env.h"
#include "app/panel_state.h"

namespace ts {

class Session;
class LessonRunner;

// --- the window helper (every panel uses it) ---------------------------------------------------
// if (!begin_panel(env, cmd, PanelId::Attention)) return;   ...draw contents...   end_panel();
// begin_panel returns false (having already called ImGui::End if needed) when the panel is
// hidden or collapsed; end_panel() must be called exactly when begin_panel returned true.
// The window is placed at env.frame.rect(id), cannot be moved or resized; its close button and
// title-bar clicks push ShowPanel / FocusPanel.
bool begin_panel(const PanelEnv& env, Commands& cmd, PanelId id, int extra_window_flags = 0);
void end_panel();
// The "+N more" tab of the presentation layout (frame.more_tabs): a list that puts one in focus.
void draw_more_tabs(const PanelEnv& env, Commands& cmd);
// Records the last ImGui item's rectangle as a DrawnItem (only while log.record): lets the
// smoke test and the click tests find buttons and cells without knowing the layout.
void note_last_item(DrawLog& log, const char* kind, const std::string& label);

// --- the panels ------------------------------------------------------------------------------
void draw_prompt_panel(const Session& s, const PanelEnv& env, PromptPanelState& own,
                       Commands& cmd);  // prompt_panel.cpp
void draw_tokens_panel(const Session& s, const PanelEnv& env, TokensPanelState& own,
                       Commands& cmd);  // tokens_panel.cpp
void draw_transport_panel(const Session& s, const PanelEnv& env, TimelinePanelState& own,
                          Commands& cmd);  // transport_panel.cpp
void draw_distribution_panel(const Session& s, const PanelEnv& env, DistributionPanelState& own,
                             Commands& cmd);  // distribution_panel.cpp
// The status bar; it shows where a read-only trace is (trace may be empty).
void draw_status_panel(const Session& s, const PanelEnv& env, const TraceViewState& trace,
                       Commands& cmd);  // status_panel.cpp
// A trace opened without its model (own.trace), over the panels.  trace_view_panel.cpp
void draw_read_only_trace(const PanelEnv& env, TraceViewState& own, Commands& cmd);
// The open lesson (owned by App; nullptr when none): page text, question, Back / Next, checks.
void draw_lesson_panel(const Session& s, const LessonRunner* lesson, const PanelEnv& env,
                       LessonPanelState& own, Commands& cmd);  // lesson_panel.cpp
// The lesson panel's whole height (title bar to buttons) at `width` for the tallest page of the
// open lesson, so that the layout can give the lesson one column width that fits every page; 0
// without a page.
float lesson_panel_height(const LessonRunner* lesson, float width);

void draw_attention_panel(const Session& s, const PanelEnv& env, AttentionPanelState& own,
                          Commands& cmd);  // attention_panel.cpp
void draw_kv_cache_panel(const Session& s, const PanelEnv& env, KvCachePanelState& own,
                         Commands& cmd);  // kv_cache_panel.cpp
void draw_cost_panel(const Session& s, const PanelEnv& env, CostPanelState& own,
                     Commands& cmd);  // cost_panel.cpp
void draw_compare_panel(const Session& s, const PanelEnv& env, ComparePanelState& own,
                        Commands& cmd);  // compare_panel.cpp
void draw_branches_panel(const Session& s, const PanelEnv& env,
                         Commands& cmd);                                      // branches_panel.cpp
// Why this token: the receipt of the shown step against a rival, an intervention as a branch
// beside its parent, the decision map of the whole run (one section at a time).
void draw_receipt_panel(const Session& s, const PanelEnv& env, ReceiptPanelState& own,
                        Commands& cmd);  // receipt_panel.cpp
// A decision map the worker computed for `lane`'s path as it is now (cmd::ComputeDecisionMap),
// kept for the panel (decision_map_view.cpp).
void take_decision_map(const Session& s, int lane, Result<DecisionMap> m, ReceiptPanelState& own);
void draw_model_panel(const Session& s, const PanelEnv& env, Commands& cmd);  // model_panel.cpp
// The class poll: its address, code and QR code, the question's state and the class's guesses
// beside the model's probabilities (own: what App read from the poll).  poll_panel.cpp
void draw_poll_panel(const Session& s, const PanelEnv& env, PollPanelState& own, Commands& cmd);
// Beyond sampling: beam search's tree (kept, finished, pruned beams) beside greedy, and
// speculative decoding's rounds (drafts with q and p, the accept tests, the target's token).
void draw_decoding_panel(const Session& s, const PanelEnv& env, DecodingPanelState& own,
                         Commands& cmd);

// The menu bar is the app's own chrome, not a panel: it edits the preferences (font, theme,
// the View menu's panels and toggles), opens dialogs and lessons.  menu_bar.cpp
struct UiState;
void draw_menu_bar(const Session& s, UiState& ui, Commands& cmd);

}  // namespace ts
