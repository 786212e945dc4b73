// Cost panel: what each pass of the shown lane's current path cost — FLOPs, bytes moved and
// measured time — as one bar per step (prefill distinct, the cursor's step marked; a click seeks
// there), prefill vs decode totals in words, and a roofline-style chart of arithmetic intensity
// (FLOPs per byte) against achieved FLOP/s under this machine's measured ceilings (bench's
// probes, cached; machine_ceilings.h), with what the dots' places mean in words; and the same
// model as F32, Q8_0 and Q4_K side by side (cost_formats.h). Reads the session; the commands are
// a seek, "measure this machine" and "compare formats".
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/machine_ceilings.h"
#include "app/panels/cost_formats.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/charts.h"
#include "app/widgets/flow.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

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

void draw_cost_panel(const Session& s, const PanelEnv& env, CostPanelState& own, Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Cost)) return;
  const Palette& pal = palette(env.prefs.theme);
  const Step* cur = shown_step(s, env.sel);
  const int lane = shown_lane(s, env.sel);
  if (!has_model(s)) {
    text_wrapped("Load a model to measure what each step costs: arithmetic, memory traffic "
                       "and time.");
  } else if (!cur || !cur->forward) {
    text_wrapped("No step yet. Step once to see the prefill's cost; every decode step after "
                       "it adds a bar, so prefill and decode can be compared.");
  } else {
    const float fs = ImGui::GetFontSize();
    // Steps of the whole current path; those after the cursor (kept after a rewind) are dimmed.
    std::vector<const Step*> steps;
    for (int k = 0; k < path_length(s, lane); ++k)
      if (const Step* st = step_at(s, lane, k); st && st->forward) steps.push_back(st);

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
    // Once measured, the same model as F32, Q8_0 and Q4_K comes first: bytes per token against
    // tokens per second, what a class was just asked to look at.
    if (own.formats) {
      ImGui::Spacing();
      draw_format_comparison(*own.formats, pal, env, own);
      ImGui::Separator();
    }
    // View options of this window (its own state).
    int& which = own.metric;
    bool& log_scale = own.log_scale;
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
      text_wrapped("none yet: step again to generate one token at a time");
    }

    // Not measured yet: the button that times the model as F32, Q8_0 and Q4_K.
    if (!own.formats) {
      ImGui::Spacing();
      if (ImGui::Button("Compare F32, Q8_0 and Q4_K")) cmd.push(cmd::CompareFormats{});
      note_last_item(env.log, "button", "compare formats");
    }

    // Roofline: where each pass sits under this machine's measured ceilings.
    ImGui::Spacing();
    std::vector<RooflinePoint> pts;
    int cur_point = -1, last_prefill = -1, last_decode = -1;
    double working_set = 0;  // the weights one pass reads
    for (const Step* st : steps) {
      if (st->index > cur->index) break;
      const CostRecord& sc = st->forward->cost;
      RooflinePoint p;
      p.intensity = sc.arithmetic_intensity();
      p.flops_per_s = sc.seconds > 0 ? sc.flops / sc.seconds : 0;
      p.color = st->forward->phase == Phase::Prefill ? pal.prefill : pal.decode;
      if (st == cur) cur_point = static_cast<int>(pts.size());
      (st->forward->phase == Phase::Prefill ? last_prefill : last_decode) =
          static_cast<int>(pts.size());
      working_set = std::max(working_set, sc.weight_bytes);
      pts.push_back(p);
    }
    const int decode_point =
        cur_point >= 0 && steps[cur_point]->forward->phase != Phase::Prefill ? cur_point : last_decode;
    static const std::string cpu = cpu_model_name();
    const int threads = s.options().n_threads;
    const MachineCeilings& mc = own.ceilings;
    if (!ceilings_fit(mc, cpu, threads, working_set)) {
      text_wrapped("The roofline's roofs are this machine's own ceilings: peak arithmetic "
                         "and memory bandwidth, measured with bench's probes at %d thread%s "
                         "(about a second, then cached).",
                         threads, threads == 1 ? "" : "s");
      if (mc.valid)
        ImGui::TextDisabled("(the cached measurement is for another CPU, thread count or model "
                            "size)");
      if (ImGui::Button("Measure this machine")) cmd.push(cmd::MeasureMachine{working_set});
      note_last_item(env.log, "button", "measure machine");
    } else {
      RooflineStyle rs;
      rs.peak_flops = mc.flops_per_s;
      rs.bandwidth = mc.working_set_bytes_per_s;
      rs.slow_bandwidth = mc.dram_bytes_per_s;
      rs.highlighted = cur_point;
      rs.highlight_color = pal.accent;
      rs.roof_color = pal.text;
      rs.size = ImVec2(0, std::max(ImGui::GetContentRegionAvail().y - fs * 6.0f, fs * 11.0f));
      const ChartHit rh = draw_roofline("roofline", pts, rs);
      if (rh.hovered && rh.index >= 0 && rh.index < static_cast<int>(pts.size())) {
        const Step* st = steps[rh.index];
        ImGui::BeginTooltip();
        ImGui::Text("step %d (%s): %.2f FLOPs per byte, %s/s achieved", st->index,
                    phase_name(st->forward->phase), pts[rh.index].intensity,
                    format_si(pts[rh.index].flops_per_s, "FLOP").c_str());
        ImGui::EndTooltip();
      }
      // What the measurements say, in words: every statement is a comparison of numbers.
      for (int which : {last_prefill, decode_point}) {
        if (which < 0 || pts[which].flops_per_s <= 0) continue;
        const RooflinePoint& p = pts[which];
        const RoofPlace pl = place_on_roofline(p.intensity, p.flops_per_s, mc.flops_per_s,
                                               mc.working_set_bytes_per_s);
        const bool prefill = which == last_prefill;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(prefill ? pal.prefill : pal.decode),
                           prefill ? "prefill" : "decode ");
        ImGui::SameLine();
        text_wrapped("%.2f FLOPs/byte, %s of the balance point (%.3g): %s; it reaches "
                           "%.0f%% of its roof (%s/s).",
                           p.intensity, pl.memory_side ? "left" : "right", pl.ridge,
                           pl.memory_side ? "bound by memory" : "bound by arithmetic",
                           100.0 * pl.fraction, format_si(p.flops_per_s, "FLOP").c_str());
        env.log.note_drawn(prefill ? "roof_prefill" : "roof_decode",
                           pl.memory_side ? "memory" : "compute", 0, 0, 0, 0);
      }
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
      if (decode_point >= 0 &&
          pts[decode_point].flops_per_s > mc.dram_bytes_per_s * pts[decode_point].intensity)
        text_wrapped("Decode runs faster than main memory could feed it: this model's %s "
                           "of weights stay in the CPU's cache, read at %s/s (dashed: main "
                           "memory, %s/s).",
                           format_bytes(working_set).c_str(),
                           format_si(mc.working_set_bytes_per_s, "B").c_str(),
                           format_si(mc.dram_bytes_per_s, "B").c_str());
      if (last_prefill >= 0 && decode_point >= 0 &&
          pts[last_prefill].flops_per_s < pts[decode_point].flops_per_s)
        text_wrapped("Measured here, the prefill of %d tokens reached fewer FLOP/s than "
                           "decode (%s/s against %s/s): its dot sits lower although its intensity "
                           "is higher. A roof is a ceiling, not a promise.",
                           steps[last_prefill]->forward->n_positions,
                           format_si(pts[last_prefill].flops_per_s, "FLOP").c_str(),
                           format_si(pts[decode_point].flops_per_s, "FLOP").c_str());
      text_wrapped("Dots: this run. Roofs: this CPU (%s, %d thread%s), measured: %s/s of "
                         "arithmetic, %s/s reading %s, %s/s from main memory.",
                         mc.cpu.empty() ? "unknown model" : mc.cpu.c_str(), mc.threads,
                         mc.threads == 1 ? "" : "s", format_si(mc.flops_per_s, "FLOP").c_str(),
                         format_si(mc.working_set_bytes_per_s, "B").c_str(),
                         format_bytes(mc.working_set_bytes).c_str(),
                         format_si(mc.dram_bytes_per_s, "B").c_str());
      ImGui::PopStyleColor();
    }
  }
  end_panel();
}

}  // namespace ts
