// The decision map section of Why this token (receipt_sections.h): one column per step of the
// lane's path, one row per layer (L0 at the top, as the pass runs), each cell the logit-lens
// probability of the token that step finally chose; outlined, the layer from which it stays
// on top; under the columns, the step numbers and the chosen tokens. The shown step's column
// is framed; a click on a cell seeks its step and selects its layer. The map
// (session/decision_map.h) is computed once per path (its forward records).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/panels/receipt_sections.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/colormap.h"
#include "app/widgets/heatmap.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "imgui.h"
#include "session/decision_map.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts::why {

namespace {

// What a map was computed for: the path's steps and their forward records, in order.
std::vector<const void*> path_key(const Session& s, int lane) {
  std::vector<const void*> passes;
  for (int k = 0; k < path_length(s, lane); ++k) {
    const Step* st = step_at(s, lane, k);
    passes.push_back(st ? static_cast<const void*>(st) : nullptr);
    passes.push_back(st ? st->forward.get() : nullptr);
  }
  return passes;
}

// Multiply-adds the map takes: per step the last position again through every block (about
// the parameters once) and every block's residual through the unembedding.
double map_cost(const Session& s, int lane) {
  const ModelConfig& c = config(s);
  const double per_step = static_cast<double>(c.n_layers) * c.vocab_size * c.d_model +
                          static_cast<double>(c.n_layers) * 12.0 * c.d_model * c.d_model;
  return per_step * path_length(s, lane);
}

// Up to this many multiply-adds (some tens of milliseconds) the map is computed in the frame;
// beyond, on the worker, while the panel says so.
constexpr double kMapInFrame = 2e8;

void keep_map(ReceiptPanelState& own, int lane, std::vector<const void*> key,
              Result<DecisionMap> m) {
  own.map_lane = lane;
  own.map_passes = std::move(key);
  own.map = m.ok() ? std::make_shared<const DecisionMap>(std::move(m.value())) : nullptr;
  own.map_error = m.ok() ? "" : m.error().message;
}

// The map of the path as it is, or null while the worker computes it (*computing set).
const DecisionMap* map_for(const Session& s, int lane, ReceiptPanelState& own, Commands& cmd,
                           bool* computing) {
  std::vector<const void*> passes = path_key(s, lane);
  if (own.map_lane == lane && own.map_passes == passes) return own.map.get();
  if (map_cost(s, lane) <= kMapInFrame) {
    keep_map(own, lane, std::move(passes), decision_map(s, lane));
    return own.map.get();
  }
  if (own.map_asked_lane != lane || own.map_asked_passes != passes) {
    own.map_asked_lane = lane;
    own.map_asked_passes = passes;
    cmd.push(cmd::ComputeDecisionMap{lane});
  }
  *computing = true;
  return nullptr;
}

// The grid's geometry: `first`..`first + cols` of the map's steps, cells cw x ch; the layer
// labels in `label_font`, one every `label_every` layers (rows lower than a line of text, as
// 24 or 30 layers get on a projector, are labelled in the small font, and every other one or
// less often when even that does not fit).
struct Grid {
  ImVec2 origin;  // top-left of cell (layer 0, column 0)
  float cw = 0, ch = 0, label_w = 0;
  int first = 0, cols = 0;
  ImFont* label_font = nullptr;
  int label_every = 1;
};

Grid layout_grid(const DecisionMap& m, int shown_offset, float below) {
  Grid g;
  const float fs = ImGui::GetFontSize();
  g.label_w = ImGui::CalcTextSize("L00 ").x;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int fit = std::max(1, static_cast<int>((avail.x - g.label_w) / (fs * 0.8f)));
  g.cols = std::min(m.n_steps(), fit);
  g.first = std::clamp(shown_offset - g.cols / 2, 0, m.n_steps() - g.cols);
  g.cw = std::min(fs * 2.0f, (avail.x - g.label_w) / static_cast<float>(g.cols));
  // (the whole depth on screen: rows as low as 4 px rather than a scrolled map)
  g.ch = std::clamp((avail.y - below) / static_cast<float>(m.n_layers), 4.0f, fs * 2.0f);
  ImFont* small = app_font(FontRole::Small);
  g.label_font = g.ch >= fs * 0.9f ? ImGui::GetFont() : small;
  const float label_px = g.label_font->FontSize;
  g.label_every = std::max(1, static_cast<int>(std::ceil(label_px * 0.95f / g.ch)));
  g.origin = ImGui::GetCursorScreenPos();
  g.origin.x += g.label_w;
  return g;
}

void cell_tooltip(const Session& s, const DecisionMap& m, int col, int layer) {
  const LensCell& c = m.at(col, layer);
  ImGui::SetTooltip("step %d chose %s\nafter L%d: p %s, rank %d\nclick: go to this step and layer",
                    m.first_step + col, quoted_piece(s, m.tokens[col]).c_str(), layer,
                    percent_text(c.p).c_str(), c.rank + 1);
}

// The cells, the markers, the shown step's frame; returns the clicked (column, layer) or -1.
std::pair<int, int> draw_grid(const Session& s, const DecisionMap& m, const Grid& g,
                              int shown_offset, const PanelEnv& env) {
  const Palette& pal = palette(env.prefs.theme);
  const HeatRamp& ramp = theme_heat_ramp(env.prefs.theme);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  std::pair<int, int> clicked{-1, -1};
  for (int l = 0; l < m.n_layers; ++l) {
    const std::string name = "L" + std::to_string(l);
    const float y = g.origin.y + l * g.ch;
    // (the selected layer always labelled, its neighbours' labels then left out)
    const int sel = env.sel.selected_layer;
    const bool near_sel =
        sel >= 0 && sel < m.n_layers && l != sel && std::abs(l - sel) < g.label_every;
    if ((l % g.label_every == 0 && !near_sel) || l == sel) {
      const float lh = g.label_font->FontSize;
      dl->AddText(g.label_font, lh, ImVec2(g.origin.x - g.label_w, y + (g.ch - lh) * 0.5f),
                  l == env.sel.selected_layer ? pal.accent : pal.text, name.c_str());
      env.log.note_drawn("map_layer", name, g.origin.x - g.label_w, y + (g.ch - lh) * 0.5f,
                         g.label_w, lh);
    }
    for (int c = 0; c < g.cols; ++c) {
      const int col = g.first + c;
      const ImVec2 a(g.origin.x + c * g.cw, y), b(a.x + g.cw - 1.0f, y + g.ch - 1.0f);
      dl->AddRectFilled(a, b, ramp.color(m.at(col, l).p));
      dl->AddRect(a, ImVec2(b.x + 1.0f, b.y + 1.0f), pal.grid);  // the grid reads on a flat map
      const std::string label = "step " + std::to_string(m.first_step + col) + " " + name;
      env.log.note_drawn("map_cell", label, a.x, a.y, g.cw, g.ch,
                         m.at(col, l).rank == 0 ? "top" : "");
      if (m.decided_at[col] == l) {
        dl->AddRect(ImVec2(a.x + 1, a.y + 1), ImVec2(b.x - 1, b.y - 1), pal.accent, 0, 0, 3.0f);
        env.log.note_drawn("map_decided", label, a.x, a.y, g.cw, g.ch);
      }
      ImGui::SetCursorScreenPos(a);
      ImGui::PushID(col * 1024 + l);
      ImGui::InvisibleButton("cell", ImVec2(g.cw, g.ch));
      if (ImGui::IsItemHovered()) cell_tooltip(s, m, col, l);
      if (ImGui::IsItemClicked()) clicked = {col, l};
      ImGui::PopID();
    }
  }
  const int sc = shown_offset - g.first;
  if (sc >= 0 && sc < g.cols) {
    const ImVec2 a(g.origin.x + sc * g.cw - 1.0f, g.origin.y - 1.0f);
    dl->AddRect(a, ImVec2(a.x + g.cw + 1.0f, a.y + m.n_layers * g.ch + 1.0f), pal.selected, 0, 0,
                2.0f);
    env.log.note_drawn("map_shown", std::to_string(m.first_step + shown_offset), a.x, a.y, g.cw,
                       m.n_layers * g.ch);
  }
  return clicked;
}

// Step numbers under the columns, as many as fit without touching, and under them each step's
// chosen token, written upwards (shortened to `label_h`).
void step_axis(const Session& s, const DecisionMap& m, const Grid& g, float label_h,
               const PanelEnv& env) {
  const Palette& pal = palette(env.prefs.theme);
  ImFont* small = app_font(FontRole::Small);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float y = g.origin.y + m.n_layers * g.ch + 2.0f;
  const float wide = small->CalcTextSizeA(small->FontSize, 1e9f, 0, "000").x * 1.4f;
  const int every = std::max(1, static_cast<int>(wide / g.cw) + 1);
  for (int c = 0; c < g.cols; c += every) {
    const std::string n = std::to_string(m.first_step + g.first + c);
    dl->AddText(small, small->FontSize, ImVec2(g.origin.x + c * g.cw + 2.0f, y), pal.text_dim,
                n.c_str());
  }
  const float ty = y + small->FontSize + 4.0f;
  const float fs = ImGui::GetFontSize();
  // As much height as the panel has left, up to label_h; none when too little for a word.
  label_h =
      std::min(label_h, ImGui::GetWindowPos().y + ImGui::GetWindowContentRegionMax().y - ty - 4.0f);
  if (label_h < fs * 1.5f) label_h = 0;
  if (label_h > 0 && g.cw >= fs * 1.1f) {  // one upright line of text per column
    for (int c = 0; c < g.cols; ++c) {
      const std::string piece =
          abbreviate_to_width(s.tokenizer().display_piece(m.tokens[g.first + c]), label_h - 4.0f);
      const float w = ImGui::CalcTextSize(piece.c_str()).x;
      const float x = g.origin.x + c * g.cw + (g.cw - fs) * 0.5f;
      add_text_vertical(dl, ImVec2(x, ty + label_h), pal.text, piece.c_str());
      env.log.note_drawn("map_token", piece, x, ty + label_h - w, fs, w);
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(
      g.origin.x - g.label_w, ty + (label_h > 0 && g.cw >= fs * 1.1f ? label_h + 4.0f : 0.0f)));
}

// What the shown step's column says, in words.
std::string shown_words(const Session& s, const DecisionMap& m, int col) {
  const std::string head =
      "Step " + std::to_string(m.first_step + col) + " chose " + quoted_piece(s, m.tokens[col]);
  const int at = m.decided_at[col];
  if (at < 0) return head + ": not the top token after the last layer.";
  return head + ": on top from L" + std::to_string(at) + " on (" + percent_text(m.at(col, at).p) +
         " there, " + percent_text(m.at(col, m.n_layers - 1).p) + " after the last layer).";
}

}  // namespace

void draw_decision_map(const Session& s, int lane, const PanelEnv& env, ReceiptPanelState& own,
                       Commands& cmd) {
  bool computing = false;
  const DecisionMap* m = map_for(s, lane, own, cmd, &computing);
  if (computing) {
    const ModelConfig& c = config(s);
    text_wrapped("Computing the decision map: %d steps x %d layers, each layer's guess over %s…",
                 path_length(s, lane), c.n_layers,
                 count_text(c.vocab_size, "token", "tokens").c_str());
    return;
  }
  if (!m || m->n_steps() == 0 || m->n_layers == 0) {
    text_wrapped("No map: %s", m ? "no steps" : own.map_error.c_str());
    return;
  }
  wrapped_text(env.log,
               "Each cell: how likely each step's word looks after that layer (logit "
               "lens; darker: likelier). Outlined: on top from there on.");
  const Step* st = shown_step(s, env.sel);
  const int shown = std::clamp((st ? st->index : 0) - m->first_step, 0, m->n_steps() - 1);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  wrapped_text(env.log, shown_words(s, *m, shown));  // above the grid: the grid takes the rest
  const float label_h = ImGui::GetFontSize() * 4.0f;
  const Grid g =
      layout_grid(*m, shown, app_font(FontRole::Small)->FontSize + label_h + line * 0.5f + 12.0f);
  const auto [col, layer] = draw_grid(s, *m, g, shown, env);
  step_axis(s, *m, g, label_h, env);
  if (col >= 0) {
    cmd.push(cmd::Seek{m->first_step + col});
    env.sel.selected_layer = layer;
  }
}

}  // namespace ts::why

namespace ts {

void take_decision_map(const Session& s, int lane, Result<DecisionMap> m, ReceiptPanelState& own) {
  why::keep_map(own, lane, why::path_key(s, lane), std::move(m));
}

}  // namespace ts
