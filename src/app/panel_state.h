// One small struct per panel: the panel's own edit buffers, view options and memory between
// frames (nothing is kept in ImGui's state storage). A panel function takes its own struct and
// the shared PanelEnv (panel_env.h), nothing else of the UI state. Fields marked "persisted" are
// saved by app/settings.cpp.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/machine_ceilings.h"
#include "app/ui_types.h"
#include "bench/format_compare.h"

namespace ts {

// Prompt & model: the texts as typed (never lost, even when applying them fails) and the model
// files found.
struct PromptPanelState {
  std::string prompt_edit;
  std::string model_path_edit;  // "Open..." path field
  std::string tokenizer_path_edit;
  std::vector<SamplerDraft> sampler_drafts;  // one per lane
  int max_tokens_edit = 0;                   // max new tokens as typed
  bool max_tokens_dirty = false;
  std::string stops_edit;  // stop strings as typed, one per line
  bool stops_dirty = false;
  std::vector<std::string> model_files;  // .gguf files found in the models folders
  // Per model_files entry, read from its header before loading: architecture, size, tensor
  // types and the memory it will take (or why it cannot be read).
  std::vector<std::string> model_notes;
  std::string models_dir;  // where they were looked for
  bool want_rescan_models = true;
  bool open_model_popup = false;  // File > Open model... asks the panel to open its dialog
};

struct TokensPanelState {
  int autoscroll_len = -1;  // sequence length the panel last scrolled to
  int scroll_frames = 0;    // frames left that keep scrolling to the newest chip
  float wanted_height = 0;  // the content height last frame (an input of the layout)
};

// The timeline and transport.
struct TimelinePanelState {
  float play_speed = 2.0f;  // persisted; steps per second while playing
  bool phases = false;      // the phase strip shows (only during step into)
};

struct DistributionPanelState {
  DistStage stage = DistStage::Final;  // persisted, like the next four
  int stage_index = 0;                 // chain index when stage == Stage
  int top_n = 12;                      // bars shown
  bool log_scale = false;              // bar lengths by log10(p): the tail becomes visible
  int histogram_samples = 1000;        // "sample this step N times"
  HistogramView histogram;
  std::string ask_text;  // a lesson's question shown while the outcome is hidden ("" = default)
  float spare_px = 0;    // height the last frame left below the strip: the bars take it next frame
  // The bar count that last overflowed the panel with this height and the same lines above the
  // bars: the bars do not grow back
  // to it, so the layout settles instead of alternating between two counts frame by frame.
  int overflow_rows = 0;
  float overflow_height = 0, overflow_top = 0;  // the panel's height and the bars' top then
  bool grew = false;  // the last frame gave the bars more height (an overflow now is its doing)
  float budget_height = -1;  // the panel's height spare_px was measured at (another: start over)
  float list_extra_px = 0;   // what the bar list took beyond its rows last frame (gap, cut line)
};

struct AttentionPanelState {
  bool all_heads = false;  // persisted: a grid of every head vs one selected head
  bool log_scale = false;  // persisted
  bool average = false;    // the mean of the heads instead of the selected head
};

struct KvCachePanelState {
  bool no_cache = false;  // persisted: compare with recomputing everything
};

// The Cost panel's sections (one shown at a time; a lesson's `view roofline` picks one).
constexpr int kCostPerStep = 0, kCostRoofline = 1, kCostFormats = 2;

struct CostPanelState {
  int section = kCostPerStep;  // per step, roofline, or the three formats
  int metric = 0;              // bars of FLOPs (0), bytes moved (1) or time (2)
  bool log_scale = false;
  // The model as F32, Q8_0 and Q4_K (the panel's button, or a lesson's compare-formats);
  // cleared when another model loads.
  std::optional<FormatComparison> formats;
  MachineCeilings ceilings;  // this machine's roofline ceilings (measured or read from the cache)
};

// The Beam & speculative panel (decoding_panel.cpp): which run it shows and the settings its
// Run buttons send (session/side_runs.h keeps the results; the view turns to a run newer than it has shown).
constexpr int kDecodingBeam = 0, kDecodingSpeculative = 1;
// The shipped draft for the shipped story model (found beside the model's file: side_runs.cpp).
inline constexpr const char* kDefaultDraftPath = "models/tales-draft.gguf";
struct DecodingPanelState {
  int view = kDecodingBeam;
  int beam_width = 3;
  float length_penalty = 1.0f;
  int beam_tokens = 8;
  std::string draft_path = kDefaultDraftPath;
  int spec_k = 4;
  int spec_tokens = 32;
  unsigned seen_serial = 0;  // SideRuns::serial last shown: a newer run turns the view to it
};

// The Why this token panel's sections (one shown at a time; a lesson's `view map` picks one).
constexpr int kWhyReceipt = 0, kWhyIntervention = 1, kWhyMap = 2;

struct TokenReceipt;            // session/receipt.h
struct DecisionMap;             // session/decision_map.h
struct InterventionComparison;  // session/intervention_compare.h

// The panel computes its queries when what they depend on changes, never every frame: each
// result is kept with the key it was computed for (lane, timeline node, the step's forward
// record, the rival; for the map, the path's forward records).
struct ReceiptPanelState {
  int section = kWhyReceipt;
  std::string rival_edit;  // the rival as typed: a piece or #ID
  // The receipt and its key.
  int receipt_lane = -1, receipt_node = -1, receipt_rival = -1;
  const void* receipt_pass = nullptr;
  std::shared_ptr<const TokenReceipt> receipt;
  std::string receipt_error;
  float receipt_below = 0;  // the height under the bars last frame (the bars take the rest)
  // The intervention to try (the section's controls; a click on a receipt part fills them).
  int ablate_what = 0;  // 0 a head, 1 an attention block, 2 an MLP
  int ablate_layer = 0, ablate_head = 0;
  float ablate_scale = 0.0f;  // 0: switched off
  bool ablate_from = true;    // from this step on (else at this step only)
  // The comparison with the parent of the intervention branch the shown step is on.
  int compare_lane = -1, compare_fork = -1, compare_nodes = -1;
  const void* compare_model = nullptr;
  std::shared_ptr<const InterventionComparison> compare;
  std::string compare_error;
  // The decision map and the path it was computed for; the path a map was asked of the worker
  // for (a large one: cmd::ComputeDecisionMap), so it is asked once.
  int map_lane = -1;
  std::vector<const void*> map_passes;
  std::shared_ptr<const DecisionMap> map;
  std::string map_error;
  int map_asked_lane = -1;
  std::vector<const void*> map_asked_passes;
};

// The Compare panel: each lane's row always follows its newest token; the rows share the panel's
// height in whole lines, corrected frame by frame by the lines left unused below them.
struct ComparePanelState {
  int extra_lines = 0;
};

struct LessonPanelState {
  std::string path_edit;           // File > Open lesson... path field
  std::vector<std::string> files;  // lessons/*.md found next to the program
  bool more_below = false;         // the page scrolls and is not at its end (the cue shows)
};

struct Trace;  // trace/trace_json.h

// A trace opened without its model file: shown read-only (trace_view.h) over the panels until
// closed; `step` is the step shown in `lane`.
struct TraceViewState {
  std::shared_ptr<const Trace> trace;
  std::string path;
  int lane = 0;
  int step = 0;
};

// The Class poll panel: what App read from the poll host (app/poll_host.h) when its revision
// moved, ready to draw (students' text is drawn as plain text only), and the Poll menu's fields.
struct PollBarRow {
  std::string piece;    // the model's token, as the panels show pieces
  std::string example;  // one guess as typed (plain text)
  int count = 0;
  float p = 0.0f;  // the model's probability of it (0: not among its top candidates)
  int rank = 0;    // its rank there (0: not among them)
};

struct PollPanelState {
  bool available = false;  // this build can host a poll (false on the web page)
  bool running = false;
  std::string url, listen, code;
  int qr_size = 0;
  std::vector<bool> qr;  // (qr_size, qr_size) row-major, true = dark
  bool open = false;     // a question is open for guesses
  int step = -1;         // the step (cursor index) the question is about, -1 none
  int answered = 0, counted = 0, like_model = 0;
  std::string model_top;  // the model's most likely token at that step
  std::vector<PollBarRow> bars;
  std::string notice;  // why nothing runs (a start error, a lesson's poll-open without a server)
  // The Poll menu: the addresses it offers (this machine's LAN addresses), the port and code.
  std::vector<std::string> addresses;
  int port_edit = 8080;
  std::string code_edit;
};

// The menu bar's own.
struct MenuState {
  std::string trace_path_edit;  // File > Open trace... path field
  bool show_about = false;
};

}  // namespace ts
