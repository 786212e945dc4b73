// UiState: every UI-only option of the app (persisted between runs: font size, theme, visible
// panels, selections, distribution view, reveal flags) plus the transient per-frame state (hover,
// layout rectangles, the prompt being edited). It holds no model data: that lives in the Session,
// which panels read through const access. Saved/loaded by app/settings.h.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ts {

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
  int node = -1;       // timeline node id of the step it was drawn for
  int n_samples = 0;
  std::vector<int> ids;
  std::vector<int> counts;
  std::vector<float> p;  // the distribution's probability of each id
};

struct UiState {
  // --- persisted ---------------------------------------------------------------------------
  float font_size = 20.0f;  // pixels; Ctrl +/- changes it, the atlas is rebuilt at this size
  ThemeKind theme = ThemeKind::Light;
  std::array<bool, kPanelCount> show = {true, true, true, true, true, true,
                                         false, false, false, false, true};
  float play_speed = 2.0f;  // steps per second while playing

  // Selection shared by panels. position -1 = follow the cursor (the newest token).
  int selected_position = -1;
  int selected_layer = 0;
  int selected_head = 0;
  int selected_lane = 0;  // which lane's distribution / sampler the panels show

  // Distribution panel.
  DistStage dist_stage = DistStage::Final;
  int dist_stage_index = 0;    // chain index when dist_stage == Stage
  int dist_top_n = 12;         // bars shown
  bool color_chips_by_p = true;   // tokens panel: tint generated chips by their probability
  bool show_position_numbers = true;
  bool predict_then_reveal = false;  // hide the distribution until the teacher reveals it
  int histogram_samples = 1000;      // "sample this step N times"

  // Attention / heatmap options (visual panels).
  bool attention_all_heads = false;  // grid of every head vs one selected head
  bool attention_log_scale = false;

  // Files remembered between runs.
  std::string last_model_path;
  std::string last_tokenizer_path;
  std::string last_prompt;

  // --- transient (never saved) --------------------------------------------------------------
  HoverState hover;       // written this frame
  HoverState prev_hover;  // last frame's hover: what panels highlight now
  std::array<PanelRect, kPanelCount> layout{};  // computed from the window size every frame
  float menu_bar_height = 0;
  // Predict-then-reveal: revealed for this step index; -1 = hidden. Reset when the step changes.
  int64_t revealed_step = -1;
  HistogramView histogram;
  std::string prompt_edit;      // the prompt as typed (never lost, even if applying it fails)
  std::string model_path_edit;  // "Open..." path field
  std::string tokenizer_path_edit;
  std::string export_path_edit;
  std::string message;          // last error / notice shown in the window
  bool message_is_error = false;
  bool want_font_rebuild = false;  // set when font_size changed; the window code rebuilds
  bool open_model_popup = false;
  bool show_about = false;
  bool show_imgui_demo = false;   // Help > ImGui demo (debug)
  bool show_imgui_metrics = false;

  bool visible(PanelId p) const { return show[static_cast<int>(p)]; }
  bool* show_flag(PanelId p) { return &show[static_cast<int>(p)]; }
  const PanelRect& rect(PanelId p) const { return layout[static_cast<int>(p)]; }
  void set_message(std::string text, bool is_error) {
    message = std::move(text);
    message_is_error = is_error;
  }
};

const char* panel_title(PanelId p);   // window title shown to the class ("Attention", ...)
const char* theme_name(ThemeKind t);  // "light", "dark", "projector"

}  // namespace ts
