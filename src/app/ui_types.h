// The small value types of the app's UI state: themes, the panels, a layout rectangle, hover, the
// histogram shown, a sampler draft, the drawn-items log's entries, the layout preferences; and the
// panels' and themes' names. No drawing here.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "sampling/sampler.h"

namespace ts {

enum class ThemeKind { Light, Dark, Projector };

// The small font (tabs, the u label, position numbers) as a share of the text size: 0.8 keeps it
// at 22 px and more in the projector theme's 28 px.
constexpr float kSmallFontRatio = 0.8f;

// Every panel of the app. Its names, key, place and drawing are its row in app/panel_table.cpp.
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
  Why,           // why this token: the receipt against a rival, intervention branches, the decision map
  Lesson,        // the open lesson's page: text, question, Back / Next, checks
  Status,        // the status bar at the bottom
  Poll,          // the class poll: address, QR code, the class's guesses beside the model's
  Decoding,      // beyond sampling: the beam search tree, speculative decoding's rounds
  Count
};
constexpr int kPanelCount = static_cast<int>(PanelId::Count);

// Which stage of the sampling pipeline the distribution panel shows.
enum class DistStage {
  Raw,    // softmax(raw logits)
  Stage,  // after chain stage `DistributionPanelState::stage_index` (penalties, temperature, top-k,
          // ...)
  Final   // renormalised final distribution that the draw uses
};

// A window rectangle in screen pixels, computed by the layout each frame.
struct PanelRect {
  float x = 0, y = 0, w = 0, h = 0;
};

// What the mouse is over this frame; written by panels while drawing, read by other panels on
// the next frame (linked highlighting: hover a chip -> its attention row lights up).
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

// Something a panel drew, recorded only when DrawLog::record is set: the window smoke test
// reads these rectangles from a JSON file and checks the screenshot's pixels there; the lesson
// render check reads which are visible.
struct DrawnItem {
  std::string kind;   // "chip", "bar", "strip_chosen", "scrub_cell", "panel", ...
  std::string label;  // token display text, step number, ...
  PanelRect rect;     // screen pixels
  std::string state;  // what kind of one: a bar "chosen" / "kept" / "cut", a lane's name, ...
  std::string panel;  // title of the panel it was drawn in ("" outside panels)
  PanelRect clip;     // the clip rectangle in force when it was drawn (screen pixels)
  unsigned window = 0;  // ImGui id of its root window (for windows drawn above it)
  bool visible = true;  // wholly inside its clip rectangle and the display, and not covered
};

// Content of a panel that lies beyond its visible region this frame, in pixels (the panel's
// own window and the scrolling regions inside it, whichever hides most).
struct PanelOverflow {
  std::string panel;  // title
  float below = 0, right = 0;
};

const char* panel_title(PanelId p);   // window title shown to the class ("Attention", ...)
const char* theme_name(ThemeKind t);  // "light", "dark", "projector"
// The panel's name in lessons (`focus kv-cache`) and its key, from the panel table.
const char* panel_lesson_name(PanelId p);
// A lesson panel name (or an older alias such as "distribution") to a PanelId index; -1 if none.
int panel_from_lesson_name(const std::string& name);
// The key that puts the panel in focus ("1" ... "9", "0"; "" for the lesson and status bar).
const char* panel_key_name(PanelId p);
// Which panels a first start shows (the table's defaults), in PanelId order.
std::array<bool, kPanelCount> default_panel_visibility();

}  // namespace ts
