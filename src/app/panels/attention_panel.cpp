// Attention panel: for the shown lane's current path up to the cursor, the attention weights of
// every recorded step put together into one causal map per (layer, head): the prefill's lower
// triangle plus one row per decode step, the current step's rows marked. A layers x heads grid
// of small maps picks the layer and head; one large map has token labels, hover (query, key,
// weight), a head average, the selected token's row (its strongest key always labelled) and the
// hatched causal mask. Reads only.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/colormap.h"
#include "app/widgets/flow.h"
#include "app/widgets/heatmap.h"
#include "app/widgets/text_fit.h"
#include "base/f16.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
// Key of the "average of heads" option in the Attention window's ImGui state storage.

// The records of steps 0..last of a lane's current path (the rows of the accumulated map).
std::vector<const ForwardRecord*> path_records(const Session& s, int lane, int last) {
  std::vector<const ForwardRecord*> out;
  for (int k = 0; k <= last; ++k) {
    const Step* st = step_at(s, lane, k);
    if (!st || !st->forward) break;
    out.push_back(st->forward.get());
  }
  return out;
}

// (n, n) row-major: query row q, key column c. Rows no record covers, whose attention is not
// recorded, or (hide_last) that the step-into cursor has not reached yet, stay NaN.
// head < 0: the mean over heads.
void fill_map(const std::vector<const ForwardRecord*>& recs, int layer, int head, int n,
              bool hide_last, std::vector<float>& out) {
  out.assign(static_cast<size_t>(n) * n, kNaN);
  for (size_t i = 0; i < recs.size(); ++i) {
    if (hide_last && i + 1 == recs.size()) break;
    const ForwardRecord& r = *recs[i];
    if (layer < 0 || layer >= static_cast<int>(r.attention.size())) continue;
    const AttentionMap& a = r.attention[layer];
    if (head >= a.n_heads) continue;
    const int h0 = head >= 0 ? head : 0, h1 = head >= 0 ? head + 1 : a.n_heads;
    for (int row = 0; row < a.n_rows; ++row) {
      const int q = a.first_pos + row;
      if (q < 0 || q >= n) continue;
      float* dst = &out[static_cast<size_t>(q) * n];
      const int len = std::min(a.row_length(row), n);
      std::fill(dst, dst + len, 0.0f);
      for (int h = h0; h < h1; ++h) {
        const uint16_t* src = &a.probs_f16[a.row_offset(h, row)];  // (row_length) fp16
        for (int c = 0; c < len; ++c) dst[c] += f16_to_f32(src[c]);
      }
      if (h1 - h0 > 1)
        for (int c = 0; c < len; ++c) dst[c] /= static_cast<float>(h1 - h0);
    }
  }
}

// Max-pools an (n, n) map to (m, m) for the small overview maps (NaN where a block has no data).
void downsample(const std::vector<float>& in, int n, int m, std::vector<float>& out) {
  out.assign(static_cast<size_t>(m) * m, kNaN);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c <= r; ++c) {
      const float v = in[static_cast<size_t>(r) * n + c];
      if (std::isnan(v)) continue;
      float& d = out[static_cast<size_t>(r * m / n) * m + c * m / n];
      d = std::isnan(d) ? v : std::max(d, v);
    }
}

bool any_attention(const std::vector<const ForwardRecord*>& recs) {
  for (const ForwardRecord* r : recs)
    if (!r->attention.empty()) return true;
  return false;
}

float index_stepper_width(const char* label) {
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::CalcTextSize(label).x + ImGui::CalcTextSize("mean").x + 2 * ImGui::GetFrameHeight() +
         3 * st.ItemSpacing.x;
}

// A "<  value  >" stepper for an index in [lowest, n); -1 (when lowest is -1) reads "mean".
// Returns true when it changed.
bool index_stepper(const char* label, int* value, int n, int lowest = 0) {
  bool changed = false;
  ImGui::PushID(label);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##less", ImGuiDir_Left) && *value > lowest) --*value, changed = true;
  ImGui::SameLine();
  if (*value < 0)
    ImGui::TextUnformatted("mean");
  else
    ImGui::Text("%d", *value);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##more", ImGuiDir_Right) && *value + 1 < n) ++*value, changed = true;
  ImGui::PopID();
  return changed;
}

struct MapContext {
  std::vector<const ForwardRecord*> recs;
  int n = 0;               // positions with a query row (keys too)
  int step_first = 0;      // rows computed by the step at the cursor
  int step_end = 0;
  std::vector<char> hide_current;  // per layer: step into has not reached its attention yet
  bool average = false;            // the large map shows the mean over heads (own.average)
  std::vector<std::string> labels;  // display pieces (a space as ␣)
  std::vector<std::string> pieces;  // the pieces as text
};

// Overview: one small map per (layer, head); a click selects it for the large map.
void draw_overview(const MapContext& mc, const ModelConfig& cfg, const PanelEnv& env,
                   AttentionPanelState& own, const Palette& pal, const HeatRamp& ramp,
                   ImVec2 area) {
  const float fs = ImGui::GetFontSize();
  const float head_w = ImGui::CalcTextSize("L00").x + fs * 0.4f;
  const float gap = fs * 0.25f;
  float side = std::min((area.x - head_w) / cfg.n_heads - gap, (area.y - fs * 1.4f) / cfg.n_layers - gap);
  side = std::clamp(side, fs * 1.4f, fs * 6.0f);
  const int m = std::max(1, std::min(mc.n, static_cast<int>(side / 2)));
  std::vector<float> full, small;

  ImGui::BeginGroup();
  ImGui::Dummy(ImVec2(head_w, fs));
  for (int h = 0; h < cfg.n_heads; ++h) {
    ImGui::SameLine(0, 0);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    char buf[24];
    std::snprintf(buf, sizeof buf, "h%d", h);
    ImGui::Dummy(ImVec2(side + gap, fs));
    ImGui::GetWindowDrawList()->AddText(
        ImVec2(p.x + (side - ImGui::CalcTextSize(buf).x) * 0.5f, p.y),
        h == env.sel.selected_head && !mc.average ? pal.selected : pal.text_dim, buf);
  }
  HeatmapStyle st;
  st.ramp = &ramp;
  st.scale.log = own.log_scale;
  st.labels = false;
  st.cell_values = false;
  st.tooltip = false;
  st.max_cell_em = 100.0f;
  st.size = ImVec2(side, side);
  for (int l = 0; l < cfg.n_layers; ++l) {
    ImGui::PushID(l);
    char buf[24];
    std::snprintf(buf, sizeof buf, "L%d", l);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(head_w, side));
    ImGui::GetWindowDrawList()->AddText(ImVec2(p.x, p.y + (side - fs) * 0.5f),
                                        l == env.sel.selected_layer ? pal.selected : pal.text_dim,
                                        buf);
    for (int h = 0; h < cfg.n_heads; ++h) {
      ImGui::PushID(h);
      ImGui::SameLine(0, gap);
      fill_map(mc.recs, l, h, mc.n, mc.hide_current[l] != 0, full);
      downsample(full, mc.n, m, small);
      const bool chosen = l == env.sel.selected_layer && (mc.average || h == env.sel.selected_head);
      st.frame_color = chosen ? pal.selected : 0;
      const HeatmapHit hit = draw_heatmap("mini", small, m, m, st);
      env.log.note_drawn("attention_mini", std::to_string(l) + " " + std::to_string(h),
                         ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, side, side);
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("layer %d, head %d: click to show it large", l, h);
        env.sel.hover.layer = l;
        env.sel.hover.head = h;
      }
      if (hit.clicked) {
        env.sel.selected_layer = l;
        env.sel.selected_head = h;
        own.average = false;
      }
      ImGui::PopID();
    }
    ImGui::PopID();
  }
  ImGui::EndGroup();
}

void draw_large_map(const MapContext& mc, const Session& s, const PanelEnv& env,
                    AttentionPanelState& own, const Palette& pal, const HeatRamp& ramp,
                    ImVec2 area) {
  const float fs = ImGui::GetFontSize();
  const int head = mc.average ? -1 : env.sel.selected_head;
  std::vector<float> values;
  fill_map(mc.recs, env.sel.selected_layer, head, mc.n,
           mc.hide_current[env.sel.selected_layer] != 0, values);

  HeatmapStyle st;
  st.ramp = &ramp;
  st.scale.log = own.log_scale;
  st.causal = true;
  st.selected_row = shown_position(s, env.sel);
  st.step_row_begin = mc.step_first;
  st.step_row_end = mc.step_end;
  st.linked_row = env.sel.prev_hover.position;
  st.selected_color = pal.selected;
  st.linked_color = pal.hovered;
  st.step_color = pal.accent;
  st.max_cell_em = 2.6f;
  // Where the selected row looks most: its strongest key's column label is always shown.
  const int row = st.selected_row;
  if (row >= 0 && row < mc.n) {
    float best = 0.0f;
    for (int c = 0; c <= row; ++c) {
      const float w = values[static_cast<size_t>(row) * mc.n + c];
      if (w > best) best = w, st.marked_col = c;  // NaN (not computed yet) never wins
    }
  }
  // Fit the area, but never below a size where cells vanish: the map's region scrolls instead.
  const float min_side = fs * 2.0f + mc.n * fs * 0.1f;
  const ImVec2 region(std::max(area.x, fs * 8.0f), std::max(area.y, fs * 8.0f));
  ImGui::BeginChild("large_map", region, false, ImGuiWindowFlags_HorizontalScrollbar);
  const ImVec2 inner = ImGui::GetContentRegionAvail();
  st.size = ImVec2(std::max(inner.x, min_side), std::max(inner.y, min_side));
  const HeatmapLayout L =
      heatmap_layout(ImGui::GetCursorScreenPos(), mc.n, mc.n, st, mc.labels, mc.labels);
  env.log.note_drawn("attention_grid", std::to_string(mc.n), L.grid_min.x, L.grid_min.y,
                     mc.n * L.cell, mc.n * L.cell);
  // Which head the large map shows, for lessons' see lines ("layer 2 head 0", "layer 2 average").
  env.log.note_drawn("attention_shown",
                     "layer " + std::to_string(env.sel.selected_layer) +
                         (mc.average ? std::string(" average")
                                     : " head " + std::to_string(env.sel.selected_head)),
                     L.grid_min.x, L.grid_min.y, mc.n * L.cell, mc.n * L.cell);
  if (st.marked_col >= 0)  // lessons' see line: item attention_strongest " Lily"
    env.log.note_drawn("attention_strongest", mc.pieces[st.marked_col],
                       L.grid_min.x + st.marked_col * L.cell, L.grid_min.y - L.top, L.cell, L.top);
  const HeatmapHit hit = draw_heatmap("large", values, mc.n, mc.n, st, mc.labels, mc.labels);
  if (hit.hovered) {
    env.sel.hover.position = hit.row;
    env.sel.hover.layer = env.sel.selected_layer;
    env.sel.hover.head = head;
    // For tests and the smoke run: "query key layer head weight masked".
    char buf[96];
    std::snprintf(buf, sizeof buf, "%d %d %d %d %.9g %d", hit.row, hit.col, env.sel.selected_layer,
                  head, hit.value, hit.masked ? 1 : 0);
    env.log.note_drawn("attention_hover", buf, L.grid_min.x + hit.col * L.cell,
                       L.grid_min.y + hit.row * L.cell, L.cell, L.cell);
  }
  if (hit.clicked) env.sel.selected_position = hit.row;
  ImGui::EndChild();
}

// The colour scale, the causal mask's hatching and the log switch (after the controls, so the
// maps below keep the panel's height).
void draw_legend(AttentionPanelState& own, const HeatRamp& ramp, float width) {
  const float fs = ImGui::GetFontSize();
  ColorScale scale;
  scale.log = own.log_scale;
  flow_same_line(std::clamp(width * 0.25f, fs * 6.0f, fs * 10.0f) + ImGui::CalcTextSize("weight").x);
  draw_colormap_legend("weight", ramp, scale, std::clamp(width * 0.25f, fs * 6.0f, fs * 10.0f));
  flow_same_line(fs * 1.5f + ImGui::CalcTextSize("future").x);
  draw_mask_legend("future");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("hatched cells: later positions, hidden by the causal mask");
  flow_same_line(checkbox_width("log"));
  ImGui::Checkbox("log", &own.log_scale);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("colour by orders of magnitude: small weights show");
}

// The maps' context for the shown step: its records, rows, labels, the layers not yet computed.
MapContext map_context(const Session& s, const Step& cur, int lane,
                       std::vector<const ForwardRecord*> recs) {
  const ModelConfig& cfg = config(s);
  const ForwardRecord& fr = *cur.forward;
  MapContext mc;
  mc.recs = std::move(recs);
  mc.n = fr.first_pos + fr.n_positions;
  mc.step_first = fr.first_pos;
  mc.step_end = fr.first_pos + fr.n_positions;
  for (int l = 0; l < cfg.n_layers; ++l)
    mc.hide_current.push_back(phase_revealed(s, PhaseKind::Attention, l) ? 0 : 1);
  for (const PathToken& t : path_tokens(s, lane, true)) {
    if (static_cast<int>(mc.labels.size()) >= mc.n) break;
    mc.labels.push_back(t.display);
    mc.pieces.push_back(t.piece);
  }
  mc.labels.resize(mc.n);
  mc.pieces.resize(mc.n);
  return mc;
}

// Controls (wrapping on narrow panels) and a one-line reading guide. The head stepper goes one
// below head 0 to "mean": the average of the heads, a view option of this window (its own state).
void map_controls(const Session& s, const PanelEnv& env, AttentionPanelState& own, MapContext& mc,
                  const Step& cur, const Palette& pal, const HeatRamp& ramp) {
  const ModelConfig& cfg = config(s);
  const ForwardRecord& fr = *cur.forward;
  index_stepper("layer", &env.sel.selected_layer, cfg.n_layers);
  mc.average = own.average;
  int head = mc.average ? -1 : env.sel.selected_head;
  flow_same_line(index_stepper_width("head"));
  if (index_stepper("head", &head, cfg.n_heads, -1)) {
    mc.average = head < 0;
    own.average = mc.average;
    if (head >= 0) env.sel.selected_head = head;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("step below head 0 for the mean of all heads");
  flow_same_line(checkbox_width("all heads"));
  ImGui::Checkbox("all heads", &own.all_heads);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("a small map for every layer and head: click one to show it large");
  draw_legend(own, ramp, ImGui::GetContentRegionAvail().x);
  if (fr.phase == Phase::Prefill)
    text_wrapped("Prefill: %d prompt rows at once.", fr.n_positions);
  else
    text_wrapped("Decode step %d: one new row (marked) reads %d keys.", cur.index,
                 fr.first_pos + 1);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Row = the token looking back (query). Column = the token it looks at "
        "(key). Each row sums to 1. Hatched = the future, hidden by the causal "
        "mask.");
  if (mc.hide_current[env.sel.selected_layer])
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warning),
                       "Step into: layer %d's attention of this step is not computed yet.",
                       env.sel.selected_layer);
}

// With "all heads" the grid of small maps is always drawn: beside the large map when the panel
// is wide enough for both, above it when tall enough, else alone (a click on a small map shows
// it large once "all heads" is off).
void draw_maps(const MapContext& mc, const Session& s, const PanelEnv& env,
               AttentionPanelState& own, const Palette& pal, const HeatRamp& ramp) {
  const ModelConfig& cfg = config(s);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const float min_map = fs * 8.0f;
  if (!own.all_heads) {
    draw_large_map(mc, s, env, own, pal, ramp, avail);
    return;
  }
  const float head_w = ImGui::CalcTextSize("L00").x + fs * 0.4f;
  // The grid's width when its maps are as tall as the panel allows, and narrow enough to leave
  // the large map about half the width (a projector's panel is seldom wide).
  const float big = std::max(min_map, std::min(avail.y, avail.x * 0.45f));
  const float gap = fs * 0.25f;
  const float side = std::clamp(std::min((avail.y - fs * 1.4f) / cfg.n_layers - gap,
                                         (avail.x - big - fs - head_w) / cfg.n_heads - gap),
                                fs * 1.4f, fs * 6.0f);
  const float grid_w = head_w + cfg.n_heads * (side + fs * 0.25f);
  if (avail.x - grid_w - fs >= min_map) {
    draw_overview(mc, cfg, env, own, pal, ramp, ImVec2(grid_w, avail.y));
    ImGui::SameLine(0, fs);
    ImGui::BeginGroup();
    draw_large_map(mc, s, env, own, pal, ramp, ImVec2(avail.x - grid_w - fs, avail.y));
    ImGui::EndGroup();
    return;
  }
  const float grid_h = fs * 1.5f + cfg.n_layers * std::min(side, avail.x / cfg.n_heads);
  if (avail.y - grid_h >= min_map) {
    draw_overview(mc, cfg, env, own, pal, ramp, ImVec2(avail.x, grid_h));
    draw_large_map(mc, s, env, own, pal, ramp, ImGui::GetContentRegionAvail());
  } else {
    draw_overview(mc, cfg, env, own, pal, ramp, avail);
  }
}

}  // namespace

void draw_attention_panel(const Session& s, const PanelEnv& env, AttentionPanelState& own,
                          Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Attention)) return;
  const Palette& pal = palette(env.prefs.theme);
  const HeatRamp& ramp = theme_heat_ramp(env.prefs.theme);
  const Step* cur = shown_step(s, env.sel);
  if (!has_model(s)) {
    text_wrapped("Load a model to see how each token looks back at the tokens before it.");
    end_panel();
    return;
  }
  if (!cur) {
    text_wrapped(
        "Nothing computed yet. Press Step to run the prefill: every prompt token then gets a row "
        "showing how much it looks at each earlier token, in every layer and head.");
    end_panel();
    return;
  }
  const int lane = shown_lane(s, env.sel);
  std::vector<const ForwardRecord*> recs = path_records(s, lane, cur->index);
  if (!any_attention(recs)) {
    text_wrapped(
        "Attention weights are kept only at record level \"full\" (now \"%s\"). "
        "Switch the record level to full to see them.",
        record_level_name(record_level(s)));
    end_panel();
    return;
  }
  const ModelConfig& cfg = config(s);
  MapContext mc = map_context(s, *cur, lane, std::move(recs));
  env.sel.selected_layer = std::clamp(env.sel.selected_layer, 0, cfg.n_layers - 1);
  env.sel.selected_head = std::clamp(env.sel.selected_head, 0, cfg.n_heads - 1);
  map_controls(s, env, own, mc, *cur, pal, ramp);
  draw_maps(mc, s, env, own, pal, ramp);
  end_panel();
}

}  // namespace ts
