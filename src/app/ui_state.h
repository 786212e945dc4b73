// UiState: every UI-only option of the app (persisted between runs: font size, theme, visible
// panels, selections, distribution view, reveal flags) plus the transient per-frame state (hover,
// layout rectangles, the prompt being edited). It holds no model data: that lives in the Session,
// which panels read through const access. Saved/loaded by app/settings.h.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/machine_ceilings.h"
#include "sampling/sampler.h"
#include "session/format_compare.h"

namespace ts {

struct Trace;  // session/trace_json.h

enum class ThemeKind { Light, Dark, Projector };

// Every panel of the app, in switchboard order. The layout and the View menu iterate over these.
enum class PanelId {
  Prompt,        // prompt text, model picker, sampler settings per lane, record level
  Tokens,        // the sequence as chips
  Transport,     // first / back / play / step / last, speed, timeline scrubber, step into
  Distribution,  // next-token distribution, stages, cumulative strip and draw, histogram
  Attention,     // (visual panels) attention maps per layer / head
  KvCache,       // (visual panels) KV cache rows, bytes
  Cost,          // (visual panels) FLOPs, bytes, time per step: prefill vs decode
  Compare,       // (visual panels) lanes side by side, divergence marks
  Branches,      // (visual panels) the timeline tree of forced branches
  Model,         // (visual panels) model card, residual norms, logit lens
  Lesson,        // the open lesson's page: text, question, Back / Next, checks
  Status,        // the status bar at the bottom
  Count
};
constexpr int kPanelCount = static_cast<int>(PanelId::Count);

// Which stage of the sampling pipeline the distribution panel shows.
enum class DistStage {
  Raw,    // softmax(raw logits)
  Stage,  // after chain stage `UiState::dist_stage_index` (penalties, temperature, top-k, ...)
  Final   // renormalised final distribution that the draw uses
};

// A window rectangle in screen pixels, computed by the layout each frame.
struct PanelRect {
  float x = 0, y = 0, w = 0, h = 0;
};

// Transient: what the mouse is over this frame; written by panels while drawing, read by other
// panels on the next frame (linked highlighting: hover a chip -> its attention row lights up).
struct HoverState {
  int position = -1;  // a sequence position (token chip, attention row/column, KV row)
  int token_id = -1;  // a vocabulary id (distribution bar, logit-lens cell)
  int layer = -1;
  int head = -1;
  int lane = -1;
  void clear() { *this = HoverState{}; }
};

// "Sample this step N times": the empirical counts the distribution panel shows next to the
// probabilities. Filled from Session::histogram() when the teacher asks; valid only while the
// step (lane, node) it was drawn for is the one on screen.
struct HistogramView {
  int lane = -1;
  int node = -1;  // timeline node id of the step it was drawn for
  int n_samples = 0;
  std::vector<int> ids;
  std::vector<int> counts;
  std::vector<float> p;  // the distribution's probability of each id
};

// A lane's sampler settings as being edited in the prompt panel. While `dirty`, the panel shows
// the draft (so a rejected value stays visible with its error); otherwise it mirrors the session.
struct SamplerDraft {
  SamplerSettings settings;
  bool dirty = false;
  std::string error;
};

// Text the app drew shortened (ellipsis), wrapped inside a number, or cut by its panel's edge:
// recorded while record_drawn is set, listed as "clipped" in the screenshot's JSON report.
struct ClippedText {
  std::string panel;  // the panel's title
  std::string text;   // the text as it should have read
  std::string how;    // "shortened" (ellipsis + tooltip), "broken" (a word split), "cut" (edge)
};

// The teacher's layout, remembered in the settings file: the overview's column widths and panel
// heights and the presentation layout's lesson column, all dragged with the splitters.
struct LayoutPrefs {
  std::array<float, 3> columns = {0.25f, 0.42f, 0.33f};  // left / centre / right, fractions
  float lesson_width = 0.30f;  // presentation: the lesson column's share of the window width
  // Per panel: its weight in its column of the overview, set by dragging a row border (0: the
  // layout's default weight).
  std::array<float, kPanelCount> weight{};
};

// Something a panel drew, recorded only when UiState::record_drawn is set: the window smoke test
// reads these rectangles from a JSON file and checks the screenshot's pixels there.
struct DrawnItem {
  std::string kind;   // "chip", "bar", "chosen_bar", "strip_chosen", "scrub_cell", ...
  std::string label;  // token display text, step number, ...
  PanelRect rect;     // screen pixels
};

struct UiState {
  // --- persisted ---------------------------------------------------------------------------
  float font_size = 20.0f;  // pixels; Ctrl +/- changes it, the atlas is rebuilt at this size
  ThemeKind theme = ThemeKind::Light;
  // In PanelId order: prompt, tokens, timeline, distribution, attention, KV cache, cost,
  // compare, branches, model, lesson, status.
  std::array<bool, kPanelCount> show = {true,  true,  true,  true,  true,  true,
                                        false, false, false, false, false, true};
  static_assert(kPanelCount == 12, "update the default panel visibility above");
  float play_speed = 2.0f;  // steps per second while playing

  // Selection shared by panels. position -1 = follow the cursor (the newest token).
  int selected_position = -1;
  int selected_layer = 0;
  int selected_head = 0;
  int selected_lane = 0;  // which lane's distribution / sampler the panels show

  // Distribution panel.
  DistStage dist_stage = DistStage::Final;
  int dist_stage_index = 0;      // chain index when dist_stage == Stage
  int dist_top_n = 12;           // bars shown
  bool dist_log_scale = false;   // bar lengths by log10(p): the tail becomes visible
  bool color_chips_by_p = true;  // tokens panel: tint generated chips by their probability
  bool show_position_numbers = true;
  bool predict_then_reveal = false;  // hide the distribution until the teacher reveals it
  int histogram_samples = 1000;      // "sample this step N times"

  // Attention / heatmap options (visual panels).
  bool attention_all_heads = false;  // grid of every head vs one selected head
  bool attention_log_scale = false;
  bool kv_no_cache = false;  // KV cache panel: compare with recomputing everything

  // Presentation layout: the panel in focus (-1: the overview of every panel) takes most of the
  // window; the others become tabs. Set by a lesson page, the number keys or a double-click.
  int focus_panel = -1;
  LayoutPrefs layout_prefs;

  // Files remembered between runs.
  std::string last_model_path;
  std::string last_tokenizer_path;
  std::string last_prompt;

  // --- transient (never saved) --------------------------------------------------------------
  HoverState hover;                             // written this frame
  HoverState prev_hover;                        // last frame's hover: what panels highlight now
  std::array<PanelRect, kPanelCount> layout{};  // computed from the window size every frame
  float menu_bar_height = 0;
  int tokens_autoscroll_len = -1;  // sequence length the tokens panel last scrolled to
  float tokens_wanted_height = 0;  // the tokens panel's content height last frame (layout input)
  // Panels shown only as a tab (a collapsed title bar) this frame: no room, or not in focus.
  std::array<bool, kPanelCount> tabbed{};
  std::vector<int> more_tabs;  // tabs with no room in the row: listed by the "+N more" tab
  PanelRect more_tab;          // where that tab is (w == 0: none)
  bool timeline_phases = false;  // the timeline shows its phase strip (only during step into)
  bool timeline_compact = false;  // set by the layout: one row, no title (another panel in focus)
  // A lesson's `size PANEL N%` (0 = none): the panel's share of its column's height in the
  // overview; for the lesson panel, the lesson column's share of the width when presenting.
  std::array<float, kPanelCount> size_override{};
  bool lesson_more_below = false;  // the lesson page scrolls and is not at its end (the cue shows)
  std::vector<ClippedText> clipped;  // recorded with `drawn`
  const char* drawing_panel = "";    // title of the panel being drawn (for `clipped`)
  // Predict-then-reveal: the timeline node (of the shown lane) whose prediction the teacher has
  // revealed; any other step stays hidden while predict_then_reveal is on.
  int revealed_node = -1;
  std::string lesson_path_edit;  // File > Open lesson... path field
  bool open_lesson_popup = false;
  std::string trace_path_edit;  // File > Open trace... path field
  // A trace opened without its model file: shown read-only (trace_view.h) over the panels until
  // closed; read_only_step is the step shown in read_only_lane.
  std::shared_ptr<const Trace> read_only_trace;
  std::string read_only_trace_path;
  int read_only_lane = 0;
  int read_only_step = 0;
  std::vector<std::string> lesson_files;  // lessons/*.md found next to the program
  std::string ask_text;  // a lesson's question shown while the outcome is hidden ("" = default)
  HistogramView histogram;
  // The model as F32, Q8_0 and Q4_K (the Cost panel's button, or a lesson's compare-formats);
  // cleared when another model loads.
  std::optional<FormatComparison> formats;
  MachineCeilings ceilings;  // this machine's roofline ceilings (measured or read from the cache)
  std::string prompt_edit;      // the prompt as typed (never lost, even if applying it fails)
  std::string model_path_edit;  // "Open..." path field
  std::string tokenizer_path_edit;
  std::string export_path_edit;
  std::vector<SamplerDraft> sampler_drafts;  // one per lane (prompt panel)
  int max_tokens_edit = 0;                   // max new tokens as typed
  bool max_tokens_dirty = false;
  std::string stops_edit;  // stop strings as typed, one per line
  bool stops_dirty = false;
  std::vector<std::string> model_files;  // .gguf files found in the models folders
  // Per model_files entry, read from its header before loading: architecture, size, tensor
  // types and the memory it will take (or why it cannot be read).
  std::vector<std::string> model_notes;
  std::string models_dir;                // where they were looked for
  bool want_rescan_models = true;
  std::string no_model_hint;  // why there is no model and what to do (shown in the panels)
  bool busy = false;          // a worker is running a command: panels are not drawn
  std::string busy_label;
  bool record_drawn = false;  // collect DrawnItems this frame (screenshots for the smoke test)
  std::vector<DrawnItem> drawn;
  std::string message;  // last error / notice shown in the window
  bool message_is_error = false;
  bool want_font_rebuild = false;  // set when font_size changed; the window code rebuilds
  bool open_model_popup = false;
  bool show_about = false;

  bool visible(PanelId p) const { return show[static_cast<int>(p)]; }
  bool* show_flag(PanelId p) { return &show[static_cast<int>(p)]; }
  const PanelRect& rect(PanelId p) const { return layout[static_cast<int>(p)]; }
  void note_drawn(const char* kind, std::string label, float x, float y, float w, float h) {
    if (record_drawn) drawn.push_back(DrawnItem{kind, std::move(label), PanelRect{x, y, w, h}});
  }
  void note_clipped(const char* panel, std::string text, const char* how) {
    if (record_drawn) clipped.push_back(ClippedText{panel, std::move(text), how});
  }
  // The focus layout is on (a visible panel other than the lesson is in focus).
  bool presenting() const {
    return focus_panel >= 0 && focus_panel < kPanelCount && show[focus_panel] &&
           focus_panel != static_cast<int>(PanelId::Lesson) &&
           focus_panel != static_cast<int>(PanelId::Status);
  }
  void set_message(std::string text, bool is_error) {
    message = std::move(text);
    message_is_error = is_error;
  }
};

const char* panel_title(PanelId p);   // window title shown to the class ("Attention", ...)
const char* theme_name(ThemeKind t);  // "light", "dark", "projector"
// The panel's name in lessons (`focus kv-cache`) and its key: "prompt", ..., "next-token", ...
const char* panel_lesson_name(PanelId p);
// A lesson panel name (or an older alias such as "distribution") to a PanelId index; -1 if none.
int panel_from_lesson_name(const std::string& name);
// The key that puts the panel in focus ("1" ... "9", "0"; "" for the lesson and status bar).
const char* panel_key_name(PanelId p);

}  // namespace ts
