// KV cache panel: the shown lane's cache after the step at the cursor, one strip of cells per
// layer (one cell per cached position: prefill rows, decode rows, this step's new rows marked,
// the next free slot dashed, rows dropped by a rewind fading out to ghosts), length / capacity,
// bytes, the step's reads and writes, and a "no cache" view that puts the FLOPs of recomputing
// everything next to the FLOPs actually spent. Reads the session; changes UI options only.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/flow.h"
#include "app/widgets/heatmap.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

// For each cached position of the path: the step that wrote it and its phase.
struct RowSource {
  const Step* step = nullptr;
  int row = 0;  // row inside step->kv_rows
};

std::vector<RowSource> row_sources(const Session& s, int lane, int n_positions) {
  std::vector<RowSource> out(n_positions);
  for (int k = 0; k < path_length(s, lane); ++k) {
    const Step* st = step_at(s, lane, k);
    if (!st || !st->kv_rows || !st->forward) continue;
    for (int r = 0; r < st->kv_rows->n_rows; ++r) {
      const int pos = st->kv_rows->first_pos + r;
      if (pos >= 0 && pos < n_positions) out[pos] = {st, r};
    }
  }
  return out;
}

// The furthest position the lane's whole current path has K/V rows for (beyond the cursor after
// a rewind: those rows were dropped from the working cache but the timeline keeps them).
int path_end(const Session& s, int lane) {
  const int n = path_length(s, lane);
  const Step* last = n > 0 ? step_at(s, lane, n - 1) : nullptr;
  if (!last || !last->forward) return 0;
  return last->forward->first_pos + last->forward->n_positions;
}

void row_tooltip(const RowSource& src, int layer, int pos, const std::string& label, bool dropped) {
  ImGui::BeginTooltip();
  ImGui::Text("layer %d, position %d  %s", layer, pos, label.c_str());
  if (dropped) ImGui::TextUnformatted("dropped by the rewind (the timeline keeps it)");
  if (src.step) {
    ImGui::Text("written by %s step %d", phase_name(src.step->forward->phase), src.step->index);
    const KvRows& kr = *src.step->kv_rows;
    if (layer < static_cast<int>(kr.k.size()) && kr.k[layer].cols() > 0) {
      const int n = std::min<int>(6, static_cast<int>(kr.k[layer].cols()));
      std::string k = "K:", v = "V:";
      char buf[24];
      for (int i = 0; i < n; ++i) {
        std::snprintf(buf, sizeof buf, " %+.3f", kr.k[layer](src.row, i));
        k += buf;
        std::snprintf(buf, sizeof buf, " %+.3f", kr.v[layer](src.row, i));
        v += buf;
      }
      ImGui::Text("%s ... (%d numbers)", k.c_str(), static_cast<int>(kr.k[layer].cols()));
      ImGui::Text("%s ...", v.c_str());
    }
  }
  ImGui::EndTooltip();
}

// A labelled bar and its value; where the row has no room for the value after the bar (a narrow
// panel, large text) the value goes on a line of its own under the bar.
void comparison_bar(const char* label, double value, double max_value, float label_w, float bar_w,
                    ImU32 color, const std::string& text, DrawLog& log) {
  const float fs = ImGui::GetFontSize();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float text_w = ImGui::CalcTextSize(text.c_str()).x;
  const bool below = label_w + bar_w + fs * 0.4f + text_w > ImGui::GetContentRegionAvail().x;
  ImGui::Dummy(
      ImVec2(below ? label_w + std::max(bar_w, text_w) : label_w + bar_w + fs * 0.4f + text_w,
             fs * (below ? 2.4f : 1.3f)));
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  log.note_drawn("cache_bar", std::string(label) + " " + text, lo.x, lo.y, hi.x - lo.x, hi.y - lo.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText(ImVec2(p.x, p.y + fs * 0.15f), ImGui::GetColorU32(ImGuiCol_Text), label);
  const float w = max_value > 0 ? static_cast<float>(value / max_value) * bar_w : 0.0f;
  dl->AddRectFilled(ImVec2(p.x + label_w, p.y + fs * 0.15f),
                    ImVec2(p.x + label_w + std::max(w, 2.0f), p.y + fs * 1.15f), color);
  const ImVec2 at = below ? ImVec2(p.x + label_w, p.y + fs * 1.25f)
                          : ImVec2(p.x + label_w + std::max(w, 2.0f) + fs * 0.4f, p.y + fs * 0.15f);
  dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
}

void draw_no_cache(const Session& s, int lane, const Step& cur, const Palette& pal, DrawLog& log) {
  const float fs = ImGui::GetFontSize();
  double with = 0, without = 0;
  for (int k = 0; k <= cur.index; ++k)
    if (const Step* st = step_at(s, lane, k); st && st->forward)
      with += st->forward->cost.flops, without += st->forward->cost.flops_no_cache;
  const CostRecord& c = cur.forward->cost;
  text_wrapped(
      "Without a cache, each step reruns the model over all %d positions.",
      cur.forward->first_pos + cur.forward->n_positions);
  // The four values first, so the bars leave room for the widest of them; a narrow panel gets
  // bars of its own width and every value under its bar (comparison_bar).
  const double m1 = std::max(c.flops, c.flops_no_cache);
  const double m2 = std::max(with, without);
  const std::string v[4] = {
      format_si(c.flops, "FLOP"),
      format_si(c.flops_no_cache, "FLOP") + "  (" +
          format_ratio(c.flops > 0 ? c.flops_no_cache / c.flops : 0) + ")",
      format_si(with, "FLOP"),
      format_si(without, "FLOP") + "  (" + format_ratio(with > 0 ? without / with : 0) + ")"};
  float value_w = 0;
  for (const std::string& t : v) value_w = std::max(value_w, ImGui::CalcTextSize(t.c_str()).x);
  value_w += fs * 0.6f;
  const float label_w = ImGui::CalcTextSize("without cache ").x + fs * 0.5f;
  const float room = ImGui::GetContentRegionAvail().x - label_w;
  const float bar_w =
      room - value_w >= fs * 4.0f ? room - value_w : std::max(fs * 3.0f, room - fs * 0.5f);
  ImGui::Text("This step:");
  comparison_bar("with cache", c.flops, m1, label_w, bar_w, pal.decode, v[0], log);
  comparison_bar("without cache", c.flops_no_cache, m1, label_w, bar_w, pal.error, v[1], log);
  ImGui::Text("All %d steps so far:", cur.index + 1);
  comparison_bar("with cache", with, m2, label_w, bar_w, pal.decode, v[2], log);
  comparison_bar("without cache", without, m2, label_w, bar_w, pal.error, v[3], log);
  text_wrapped(
      "Recomputing grows with the square of the length; with the cache each new "
      "token costs about the same.");
}

// What the three parts below share: the shown lane's step and its cache record.
struct CacheView {
  const Session& s;
  const PanelEnv& env;
  const Step& cur;
  const ForwardRecord& fr;
  const KvRecord& kv;
  const ModelConfig& cfg;
  const Palette& pal;
  int lane;
  float fs;
};

// "n / capacity positions: bytes of bytes", and the whole allocation as a bar.
void draw_usage(const CacheView& v) {
  const KvRecord& kv = v.kv;
  const ModelConfig& cfg = v.cfg;
  const Palette& pal = v.pal;
  const float fs = v.fs;
  const double per_pos =
      kv.length_after > 0 ? static_cast<double>(kv.bytes_used) / kv.length_after : 0;
  char figures[128];
  std::snprintf(figures, sizeof figures, "%d / %d positions: %s of %s", kv.length_after,
                kv.capacity, format_bytes(static_cast<double>(kv.bytes_used)).c_str(),
                format_bytes(static_cast<double>(kv.bytes_capacity)).c_str());
  flow_same_line(ImGui::CalcTextSize(figures).x + fs);
  ImGui::AlignTextToFramePadding();
  text_wrapped("%s", figures);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Each position keeps a key row and a value row of %d numbers in each of %d "
        "layers: %s.",
        cfg.kv_dim(), cfg.n_layers, format_bytes(per_pos).c_str());
  {  // The whole allocation as a bar: on the same line when it fits, else a thin strip below.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const bool inline_bar =
        ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + fs * 5.0f <= right;
    if (inline_bar) ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = std::min(ImGui::GetContentRegionAvail().x, fs * 16.0f);
    const float h = inline_bar ? fs * 0.6f : fs * 0.35f;
    ImGui::Dummy(ImVec2(w, inline_bar ? ImGui::GetFrameHeight() : h));
    const float y = inline_bar ? p.y + (ImGui::GetFrameHeight() - h) * 0.5f : p.y;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + w, y + h),
                      mix_color(pal.window_bg, pal.text_dim, 0.2f));
    const float used = kv.capacity > 0 ? static_cast<float>(kv.length_after) / kv.capacity : 0.0f;
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + w * used, y + h), pal.decode);
    dl->AddRect(ImVec2(p.x, y), ImVec2(p.x + w, y + h), pal.grid);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%.1f%% of the allocated context (%d positions) in use", used * 100.0f,
                        kv.capacity);
  }
}

// One cell of layer l's strip at position p, box a..b: a cached row (prefill, decode, or
// written by this step), an empty box for a row a rewind dropped, or the dashed next free slot.
void draw_cell(const CacheView& v, ImDrawList* dl, const std::vector<RowSource>& src, int l, int p,
               int layer_len, bool written, int end, ImVec2 a, ImVec2 b) {
  const KvRecord& kv = v.kv;
  const Palette& pal = v.pal;
  const PanelEnv& env = v.env;
  const float fs = v.fs;
  const ImU32 text = pal.text;
  const ImU32 ghost = pal.text_dim;
  const bool cached = p < layer_len;
  const bool is_new = p >= kv.length_before && p < layer_len;
  const bool is_next =
      written ? p == kv.length_after : p >= kv.length_before && p <= kv.length_after;
  if (is_new) env.log.note_drawn("kv_new", std::to_string(l), a.x, a.y, b.x - a.x, b.y - a.y);
  const bool dropped = !cached && !is_next && p < end;
  if (cached) {
    const bool prefill_row = src[p].step && src[p].step->forward->phase == Phase::Prefill;
    dl->AddRectFilled(a, b, is_new ? pal.accent : (prefill_row ? pal.prefill : pal.decode));
  } else if (dropped) {  // an empty box, as the legend says: the row left the cache
    dl->AddRect(ImVec2(a.x + 1, a.y + 1), ImVec2(b.x - 1, b.y - 1), ghost, 0.0f, 0,
                pal.line_thickness);
    env.log.note_drawn("kv_dropped", std::to_string(l), a.x, a.y, b.x - a.x, b.y - a.y);
  } else if (is_next) {
    // Dashed outline: the next free slot.
    for (float x = a.x; x < b.x; x += fs * 0.3f) {
      const float x1 = std::min(x + fs * 0.15f, b.x);
      dl->AddLine(ImVec2(x, a.y), ImVec2(x1, a.y), text);
      dl->AddLine(ImVec2(x, b.y), ImVec2(x1, b.y), text);
    }
    dl->AddLine(a, ImVec2(a.x, b.y), text);
    dl->AddLine(ImVec2(b.x, a.y), b, text);
  }
}

// One strip of cells per layer, the read bracket under them, the hovered cell's tooltip.
// Returns the path's end (positions past the cache up to it are rows a rewind dropped).
int draw_cells(const CacheView& v) {
  const Session& s = v.s;
  const PanelEnv& env = v.env;
  const Step* cur = &v.cur;
  const KvRecord& kv = v.kv;
  const ModelConfig& cfg = v.cfg;
  const Palette& pal = v.pal;
  const int lane = v.lane;
  const float fs = v.fs;
  // Cells: positions 0 .. the furthest of (cache length + next slot, path end), per layer.
  const int end = path_end(s, lane);
  const int shown = std::max(kv.length_after + 1, end);
  const std::vector<RowSource> src = row_sources(s, lane, shown);
  std::vector<std::string> labels(shown);
  for (const PathToken& t : path_tokens(s, lane, false))
    if (t.position >= 0 && t.position < shown) labels[t.position] = t.display;

  const float label_w = ImGui::CalcTextSize("layer 00").x + fs * 0.5f;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float cell = std::clamp((avail - label_w - fs) / shown, fs * 0.45f, fs * 1.6f);
  const float row_h = fs * 1.1f;
  // Exactly as tall as the strips (plus a sideways scrollbar when they are wider than the
  // panel); the panel itself scrolls vertically.
  const float content_w = label_w + shown * cell + fs;
  const bool scroll_x = content_w > avail;
  const float height = fs * 1.4f + cfg.n_layers * (row_h + 2) + fs * 0.8f +
                       (scroll_x ? ImGui::GetStyle().ScrollbarSize : 0.0f);
  ImGui::BeginChild("cells", ImVec2(0, height), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float grid_x = o.x + label_w;
  const float grid_y = o.y + fs * 1.4f;
  ImGui::Dummy(ImVec2(label_w + shown * cell + fs, fs * 1.4f + cfg.n_layers * (row_h + 2)));
  const bool hovered_area = ImGui::IsItemHovered();
  const ImVec2 m = ImGui::GetIO().MousePos;
  const ImU32 text = pal.text;

  // Position numbers above the strips (every few cells), the token of the hovered column.
  const int every = std::max(1, static_cast<int>(std::ceil(fs * 2.2f / cell)));
  for (int p = 0; p < shown; p += every) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%d", p);
    dl->AddText(ImVec2(grid_x + p * cell, o.y), pal.text_dim, buf);
  }
  int hover_layer = -1, hover_pos = -1;
  for (int l = 0; l < cfg.n_layers; ++l) {
    const float y = grid_y + l * (row_h + 2);
    char buf[24];
    std::snprintf(buf, sizeof buf, "layer %d", l);
    dl->AddText(ImVec2(o.x, y + (row_h - fs) * 0.5f), text, buf);
    // Stepping into the step: a layer's new rows appear once its attention has written them.
    const bool written = !stepping_into(s) || phase_revealed(s, PhaseKind::Attention, l);
    const int layer_len = written ? kv.length_after : kv.length_before;
    for (int p = 0; p < shown; ++p) {
      const ImVec2 a(grid_x + p * cell, y), b(a.x + cell - 1, y + row_h);
      draw_cell(v, dl, src, l, p, layer_len, written, end, a, b);
      if (hovered_area && m.x >= a.x && m.x < a.x + cell && m.y >= a.y && m.y < b.y + 2)
        hover_layer = l, hover_pos = p;
    }
  }
  // The columns this step's attention read: a bracket under the strips.
  const float by = grid_y + cfg.n_layers * (row_h + 2) + fs * 0.2f;
  dl->AddLine(ImVec2(grid_x, by), ImVec2(grid_x + kv.length_after * cell - 1, by), pal.accent,
              std::max(2.0f, pal.line_thickness * 1.5f));
  if (hover_pos >= 0) {
    const float y = grid_y + hover_layer * (row_h + 2);
    dl->AddRect(ImVec2(grid_x + hover_pos * cell - 1, y - 1),
                ImVec2(grid_x + (hover_pos + 1) * cell, y + row_h + 1), text, 0.0f, 0, 2.0f);
    env.sel.hover.position = hover_pos;
    env.sel.hover.layer = hover_layer;
    if (hover_pos == kv.length_after) {
      ImGui::SetTooltip("next free slot: the next step writes the key and value of '%s' here",
                        cur->display.c_str());
    } else {
      row_tooltip(src[hover_pos], hover_layer, hover_pos, labels[hover_pos],
                  hover_pos >= kv.length_after);
    }
  }
  ImGui::EndChild();
  return end;
}

// The sentence on what this step wrote and read, and the legend in words and colours.
void draw_legend(const CacheView& v, int end) {
  const ForwardRecord& fr = v.fr;
  const KvRecord& kv = v.kv;
  const Palette& pal = v.pal;
  const float fs = v.fs;
  const ImU32 ghost = pal.text_dim;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
  text_wrapped(
      "This step wrote %d row%s per layer (marked), then its attention read all "
      "%d rows above the line (%s).",
      fr.n_positions, fr.n_positions == 1 ? "" : "s", kv.length_after,
      format_bytes(fr.cost.kv_bytes_read).c_str());
  ImGui::PopStyleColor();
  // Legend in words and colours.
  bool first_swatch = true;  // spacing goes before a swatch, never after the last one
  auto swatch = [&](ImU32 c, const char* what, bool outline) {
    const float need = fs * 1.5f + ImGui::CalcTextSize(what).x;
    if (!first_swatch &&  // on this line when it fits, else (no SameLine at all) the next
        ImGui::GetItemRectMax().x + fs + need <=
            ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
      ImGui::SameLine(0, fs);
    first_swatch = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(fs * 0.9f, fs));
    if (outline)
      ImGui::GetWindowDrawList()->AddRect(ImVec2(p.x, p.y + fs * 0.1f),
                                          ImVec2(p.x + fs * 0.8f, p.y + fs * 0.9f), c);
    else
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.1f),
                                                ImVec2(p.x + fs * 0.8f, p.y + fs * 0.9f), c);
    ImGui::SameLine();
    ImGui::TextUnformatted(what);
  };
  swatch(pal.prefill, "prefill rows", false);
  swatch(pal.decode, "decode rows", false);
  swatch(pal.accent, "written now", false);
  swatch(ghost, "dropped by rewind", true);
  if (end > kv.length_after + 1)
    text_wrapped("Empty boxes: rows Back dropped from the cache; the timeline keeps them.");
}

}  // namespace

void draw_kv_cache_panel(const Session& s, const PanelEnv& env, KvCachePanelState& own,
                         Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::KvCache)) return;
  const Palette& pal = palette(env.prefs.theme);
  const Step* cur = shown_step(s, env.sel);
  if (!has_model(s)) {
    text_wrapped("Load a model to see its key/value cache fill up as tokens are generated.");
  } else if (!cur || !cur->forward) {
    text_wrapped(
        "The cache is empty. Step once: the prefill writes one key and one value "
        "row per prompt token in every layer, so later tokens need not recompute "
        "them.");
  } else {
    const int lane = shown_lane(s, env.sel);
    const ModelConfig& cfg = config(s);
    const ForwardRecord& fr = *cur->forward;
    const KvRecord& kv = fr.kv;
    const float fs = ImGui::GetFontSize();

    // A view option (UiState, so a lesson's `no-cache on` sets it and the settings keep it).
    ImGui::Checkbox("no cache", &own.no_cache);
    const bool no_cache = own.no_cache;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("What if there were no cache? Compare the work of recomputing everything.");
    const CacheView v{s, env, *cur, fr, kv, cfg, pal, lane, fs};
    draw_usage(v);
    if (no_cache) {
      draw_no_cache(s, lane, *cur, pal, env.log);
    } else {
      draw_legend(v, draw_cells(v));
    }
  }
  end_panel();
}

}  // namespace ts
