// Cost panel: what each pass of the shown lane's current path cost — FLOPs, bytes moved and
// measured time — as one bar per step (prefill distinct, the cursor's step marked; a click seeks
// there), prefill vs decode totals in words, and a roofline-style chart of arithmetic intensity
// (FLOPs per byte) against achieved FLOP/s, where decode sits far left (memory-bound) and the
// prefill far right. Reads the session; the only command is a seek.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/charts.h"
#include "app/widgets/flow.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "imgui.h"
#include "session/session.h"

namespace ts {
namespace {

// The reference machine of the roofline (the dots are measured; the roofs are assumed): a
// typical laptop CPU using all its cores on fp32, and its main-memory bandwidth.
constexpr double kRefPeakFlops = 100e9;  // FLOP/s
constexpr double kRefBandwidth = 20e9;   // bytes/s

double bytes_moved(const CostRecord& c) {
  return c.weight_bytes + c.kv_bytes_read + c.kv_bytes_written + c.activation_bytes;
}

double metric(const CostRecord& c, int which) {
  switch (which) {
    case 1: return bytes_moved(c);
    case 2: return c.seconds;
  }
  return c.flops;
}

std::string fmt_flops(double v) { return format_si(v, "FLOP"); }
std::string fmt_bytes(double v) { return format_bytes(v); }
std::string fmt_time(double v) { return format_seconds(v); }

void step_tooltip(const Step& st) {
  const ForwardRecord& f = *st.forward;
  const CostRecord& c = f.cost;
  ImGui::BeginTooltip();
  ImGui::Text("step %d: %s of %d position%s", st.index, phase_name(f.phase), f.n_positions,
              f.n_positions == 1 ? "" : "s");
  ImGui::Text("compute   %s", format_si(c.flops, "FLOP").c_str());
  ImGui::Text("weights   %s read", format_bytes(c.weight_bytes).c_str());
  ImGui::Text("KV cache  %s read, %s written", format_bytes(c.kv_bytes_read).c_str(),
              format_bytes(c.kv_bytes_written).c_str());
  ImGui::Text("time      %s", format_seconds(c.seconds).c_str());
  ImGui::Text("intensity %.2f FLOPs per byte", c.arithmetic_intensity());
  ImGui::TextDisabled("click to go to this step");
  ImGui::EndTooltip();
}

}  // namespace

void draw_cost_panel(const Session& s, UiState& ui, Commands& cmd) {
  if (!begin_panel(ui, PanelId::Cost)) return;
  const Palette& pal = palette(ui.theme);
  const Step* cur = shown_step(s, ui);
  const int lane = shown_lane(s, ui);
  if (!s.has_model()) {
    text_wrapped("Load a model to measure what each step costs: arithmetic, memory traffic "
                       "and time.");
  } else if (!cur || !cur->forward) {
    text_wrapped("No step yet. Step once to see the prefill's cost; every decode step after "
                       "it adds a bar, so prefill and decode can be compared.");
  } else {
    const float fs = ImGui::GetFontSize();
    // Steps of the whole current path; those after the cursor (kept after a rewind) are dimmed.
    std::vector<const Step*> steps;
    for (int k = 0; k < s.path_length(lane); ++k)
      if (const Step* st = s.step_at(lane, k); st && st->forward) steps.push_back(st);

    const CostRecord& c = cur->forward->cost;
    // The step at the cursor: each figure one item, so narrow panels wrap between figures.
    const std::string figures[] = {
        format_si(c.flops, "FLOP"), format_bytes(bytes_moved(c)) + " moved", format_seconds(c.seconds),
        [&] {
          char buf[48];
          std::snprintf(buf, sizeof buf, "%.2f FLOPs/byte", c.arithmetic_intensity());
          return std::string(buf);
        }()};
    ImGui::Text("Step %d (%s):", cur->index, phase_name(cur->forward->phase));
    for (const std::string& f : figures) {
      flow_same_line(ImGui::CalcTextSize(f.c_str()).x + fs * 0.5f);
      ImGui::TextUnformatted(f.c_str());
    }
    // View options of this window, kept in its ImGui state storage.
    ImGuiStorage* store = ImGui::GetStateStorage();
    const ImGuiID metric_id = ImGui::GetID("metric"), log_id = ImGui::GetID("log_scale");
    int which = store->GetInt(metric_id, 0);
    bool log_scale = store->GetBool(log_id, false);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Bars:");
    flow_same_line(checkbox_width("FLOPs"));
    ImGui::RadioButton("FLOPs", &which, 0);
    flow_same_line(checkbox_width("bytes moved"));
    ImGui::RadioButton("bytes moved", &which, 1);
    flow_same_line(checkbox_width("time"));
    ImGui::RadioButton("time", &which, 2);
    flow_same_line(checkbox_width("log scale"));
    ImGui::Checkbox("log scale", &log_scale);

    store->SetInt(metric_id, which);
    store->SetBool(log_id, log_scale);
    std::vector<double> values;
    std::vector<ImU32> colors;
    for (const Step* st : steps) {
      values.push_back(metric(st->forward->cost, which));
      ImU32 col = st->forward->phase == Phase::Prefill ? pal.prefill : pal.decode;
      if (st->index > cur->index) col = mix_color(col, pal.window_bg, 0.65f);
      colors.push_back(col);
    }
    BarChartStyle bs;
    bs.log_scale = log_scale;
    bs.highlighted = cur->index;
    bs.highlight_color = pal.accent;
    bs.format = which == 1 ? fmt_bytes : which == 2 ? fmt_time : fmt_flops;
    bs.size = ImVec2(0, std::clamp(ImGui::GetContentRegionAvail().y * 0.35f, fs * 5.0f, fs * 9.0f));
    const ChartHit bh = draw_bar_chart("per_step", values, colors, bs);
    if (bh.hovered && bh.index >= 0 && bh.index < static_cast<int>(steps.size())) {
      step_tooltip(*steps[bh.index]);
      if (bh.clicked) cmd.push(cmd::Seek{steps[bh.index]->index});
    }
    // Legend and the totals, in words.
    double pf_flops = 0, pf_time = 0, dc_flops = 0, dc_time = 0;
    int pf_tokens = 0, dc_steps = 0;
    for (const Step* st : steps) {
      if (st->index > cur->index) break;
      const CostRecord& sc = st->forward->cost;
      if (st->forward->phase == Phase::Prefill) {
        pf_flops += sc.flops, pf_time += sc.seconds, pf_tokens += st->forward->n_positions;
      } else {
        dc_flops += sc.flops, dc_time += sc.seconds, ++dc_steps;
      }
    }
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.prefill), "prefill");
    ImGui::SameLine();
    text_wrapped("%d tokens in one pass: %s, %s (%.0f tokens/s)", pf_tokens,
                format_si(pf_flops, "FLOP").c_str(), format_seconds(pf_time).c_str(),
                pf_time > 0 ? pf_tokens / pf_time : 0.0);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.decode), "decode ");
    ImGui::SameLine();
    if (dc_steps > 0) {
      text_wrapped("%d passes of 1 token: %s each, %s per token (%.0f tokens/s)", dc_steps,
                  format_si(dc_flops / dc_steps, "FLOP").c_str(),
                  format_seconds(dc_time / dc_steps).c_str(), dc_time > 0 ? dc_steps / dc_time : 0.0);
    } else {
      ImGui::TextUnformatted("none yet: step again to generate one token at a time");
    }

    // Roofline: where each pass sits between "waiting for memory" and "waiting for arithmetic".
    ImGui::Spacing();
    text_wrapped("Decode reads every weight to make one token (about 2 FLOPs per 4-byte "
                       "weight), so it waits for memory. The prefill reuses each weight for all "
                       "prompt tokens at once.");
    std::vector<RooflinePoint> pts;
    bool above_roof = false;
    int cur_point = -1;
    for (const Step* st : steps) {
      if (st->index > cur->index) break;
      const CostRecord& sc = st->forward->cost;
      RooflinePoint p;
      p.intensity = sc.arithmetic_intensity();
      p.flops_per_s = sc.seconds > 0 ? sc.flops / sc.seconds : 0;
      p.color = st->forward->phase == Phase::Prefill ? pal.prefill : pal.decode;
      if (p.flops_per_s > std::min(kRefPeakFlops, kRefBandwidth * p.intensity)) above_roof = true;
      if (st == cur) cur_point = static_cast<int>(pts.size());
      pts.push_back(p);
    }
    RooflineStyle rs;
    rs.peak_flops = kRefPeakFlops;
    rs.bandwidth = kRefBandwidth;
    rs.highlighted = cur_point;
    rs.highlight_color = pal.accent;
    rs.roof_color = pal.text;
    rs.size = ImVec2(0, std::max(ImGui::GetContentRegionAvail().y - fs * 2.6f, fs * 11.0f));
    const ChartHit rh = draw_roofline("roofline", pts, rs);
    if (rh.hovered && rh.index >= 0 && rh.index < static_cast<int>(pts.size())) {
      const Step* st = steps[rh.index];
      ImGui::BeginTooltip();
      ImGui::Text("step %d (%s): %.2f FLOPs per byte, %s/s achieved", st->index,
                  phase_name(st->forward->phase), pts[rh.index].intensity,
                  format_si(pts[rh.index].flops_per_s, "FLOP").c_str());
      ImGui::EndTooltip();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
    text_wrapped("Dots: this run, measured. Roofs: a reference laptop CPU (%s/s from memory, "
                       "%s/s of arithmetic).",
                       format_si(kRefBandwidth, "B").c_str(), format_si(kRefPeakFlops, "FLOP").c_str());
    if (above_roof)
      text_wrapped("Dots above the memory roof: this small model fits in the CPU's cache, "
                         "which is faster than main memory.");
    ImGui::PopStyleColor();
  }
  end_panel();
}

}  // namespace ts
