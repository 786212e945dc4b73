// Cost panel: what each pass of the shown lane's current path cost — FLOPs, bytes moved and
// measured time — as one bar per step (prefill distinct, the cursor's step marked; a click seeks
// there), prefill vs decode totals in words, and a roofline-style chart of arithmetic intensity
// (FLOPs per byte) against achieved FLOP/s under this machine's measured ceilings (bench's
// probes, cached; machine_ceilings.h), with what the dots' places mean in words; and the same
// model as F32, Q8_0 and Q4_K side by side (cost_formats.h). One section at a time under the
// step's figures (per step, roofline, formats), so each gets the panel's height on a projector.
// Reads the session; the commands are a seek, "measure this machine" and "compare formats".
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "app/fonts.h"
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

// The steps of the shown lane's whole current path (those after the cursor, kept after a
// rewind, are drawn dimmed), and where the cursor's step and the last of each kind are.
struct PathSteps {
  std::vector<const Step*> steps;
  const Step* cur = nullptr;
};

// "Step 3 (decode): 1.2 MFLOP  4.0 MiB moved  850 µs  0.30 FLOPs/byte", wrapping between figures.
void step_figures(const Step& cur, DrawLog& log) {
  const float fs = ImGui::GetFontSize();
  const CostRecord& c = cur.forward->cost;
  char intensity[48];
  std::snprintf(intensity, sizeof intensity, "%.2f FLOPs/byte", c.arithmetic_intensity());
  const std::string figures[] = {format_si(c.flops, "FLOP"), format_bytes(bytes_moved(c)) + " moved",
                                 format_seconds(c.seconds), intensity};
  char head[64];
  std::snprintf(head, sizeof head, "Step %d (%s):", cur.index, phase_name(cur.forward->phase));
  ImGui::TextUnformatted(head);
  note_text_item(log, head);
  for (const std::string& f : figures) {
    flow_same_line(ImGui::CalcTextSize(f.c_str()).x + fs * 0.5f);
    ImGui::TextUnformatted(f.c_str());
    note_text_item(log, f);
  }
}

// Per step: a bar per pass (FLOPs, bytes or time; a click seeks there), then the prefill and
// decode totals in words.
// The passes up to the shown step, summed: the prefill's and the decode steps'.
struct PassTotals {
  double pf_flops = 0, pf_time = 0, dc_flops = 0, dc_time = 0;
  int pf_tokens = 0, dc_steps = 0;
};

PassTotals pass_totals(const PathSteps& ps) {
  PassTotals t;
  for (const Step* st : ps.steps) {
    if (st->index > ps.cur->index) break;
    const CostRecord& sc = st->forward->cost;
    if (st->forward->phase == Phase::Prefill) {
      t.pf_flops += sc.flops, t.pf_time += sc.seconds, t.pf_tokens += st->forward->n_positions;
    } else {
      t.dc_flops += sc.flops, t.dc_time += sc.seconds, ++t.dc_steps;
    }
  }
  return t;
}

std::string words(const char* fmt, ...) IM_FMTARGS(1);
std::string words(const char* fmt, ...) {
  char buf[256];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

std::string prefill_words(const PassTotals& t) {
  return words("%s in one pass: %s, %s (%.0f tokens/s)",
               count_text(t.pf_tokens, "token", "tokens").c_str(),
               format_si(t.pf_flops, "FLOP").c_str(), format_seconds(t.pf_time).c_str(),
               t.pf_time > 0 ? t.pf_tokens / t.pf_time : 0.0);
}

std::string decode_words(const PathSteps& ps, const PassTotals& t) {
  if (t.dc_steps > 0)
    return words("%s of 1 token: %s each, %s per token (%.0f tokens/s)",
                 count_text(t.dc_steps, "pass", "passes").c_str(),
                 format_si(t.dc_flops / t.dc_steps, "FLOP").c_str(),
                 format_seconds(t.dc_time / t.dc_steps).c_str(),
                 t.dc_time > 0 ? t.dc_steps / t.dc_time : 0.0);
  const long later = std::count_if(ps.steps.begin(), ps.steps.end(),
                                   [&](const Step* st) { return st->index > ps.cur->index; });
  if (later > 0) return words("none up to this step (%ld recorded after it, dimmed)", later);
  return "none yet: step again to generate one token at a time";
}

// The height `text` takes wrapped beside `label` (as TextColored + SameLine + text_wrapped
// draw them) at the current content width.
float wrapped_height(const char* label, const std::string& text) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const float width = std::max(
      1.0f, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(label).x - st.ItemSpacing.x);
  const size_t lines = wrap_lines(ImGui::GetFont(), ImGui::GetFontSize(), text, width).size();
  return static_cast<float>(std::max<size_t>(1, lines)) * (ImGui::GetFontSize() + st.ItemSpacing.y);
}

void per_step_section(const PathSteps& ps, const PanelEnv& env, CostPanelState& own,
                      Commands& cmd, const Palette& pal) {
  const float fs = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Bars:");
  flow_same_line(checkbox_width("FLOPs"));
  ImGui::RadioButton("FLOPs", &own.metric, 0);
  flow_same_line(checkbox_width("bytes moved"));
  ImGui::RadioButton("bytes moved", &own.metric, 1);
  flow_same_line(checkbox_width("time"));
  ImGui::RadioButton("time", &own.metric, 2);
  flow_same_line(checkbox_width("log scale"));
  ImGui::Checkbox("log scale", &own.log_scale);
  std::vector<double> values;
  std::vector<ImU32> colors;
  for (const Step* st : ps.steps) {
    values.push_back(metric(st->forward->cost, own.metric));
    ImU32 col = st->forward->phase == Phase::Prefill ? pal.prefill : pal.decode;
    if (st->index > ps.cur->index) col = mix_color(col, pal.window_bg, 0.65f);
    colors.push_back(col);
  }
  BarChartStyle bs;
  bs.log_scale = own.log_scale;
  bs.highlighted = ps.cur->index;
  bs.highlight_color = pal.accent;
  bs.format = own.metric == 1 ? fmt_bytes : own.metric == 2 ? fmt_time : fmt_flops;
  const PassTotals t = pass_totals(ps);
  const std::string pf_words = prefill_words(t);
  const std::string dc_words = decode_words(ps, t);
  // The chart takes the height the words under it leave (measured wrapped at this width), at
  // least three lines: the words are the section's numbers, the bars their picture.
  const float words_h = wrapped_height("prefill", pf_words) + wrapped_height("decode ", dc_words);
  bs.size = ImVec2(
      0, std::max(ImGui::GetContentRegionAvail().y - words_h - ImGui::GetStyle().ItemSpacing.y,
                  fs * 3.0f));
  const ChartHit bh = draw_bar_chart("per_step", values, colors, bs);
  note_last_item(env.log, "cost_bars", std::to_string(values.size()));
  if (bh.hovered && bh.index >= 0 && bh.index < static_cast<int>(ps.steps.size())) {
    step_tooltip(*ps.steps[bh.index]);
    if (bh.clicked) cmd.push(cmd::Seek{ps.steps[bh.index]->index});
  }
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.prefill), "prefill");
  ImGui::SameLine();
  text_wrapped("%s", pf_words.c_str());
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.decode), "decode ");
  ImGui::SameLine();
  text_wrapped("%s", dc_words.c_str());
}

// One line of the roofline's words: an optional coloured label ("prefill", "decode") and the
// sentence beside it, wrapped; `kind` names the drawn item lessons check ("" for none).
struct RoofLine {
  ImU32 label_color = 0;
  const char* label = "";
  std::string text;
  const char* kind = "";
  const char* state = "";
  bool dim = false;
};

// What the measured dots say, in words: every statement a comparison of numbers.
std::vector<RoofLine> roofline_lines(const std::vector<RooflinePoint>& pts, int last_prefill,
                                     int decode_point, double working_set,
                                     const MachineCeilings& mc, const Palette& pal) {
  std::vector<RoofLine> out;
  char buf[256];
  for (int which : {last_prefill, decode_point}) {
    if (which < 0 || pts[which].flops_per_s <= 0) continue;
    const RooflinePoint& p = pts[which];
    const RoofPlace pl =
        place_on_roofline(p.intensity, p.flops_per_s, mc.flops_per_s, mc.working_set_bytes_per_s);
    const bool prefill = which == last_prefill;
    // One short line each on a projector: the comparison with the balance point and its verdict.
    std::snprintf(buf, sizeof buf, "%.2f %s %.3g: %s-bound", p.intensity,
                  pl.memory_side ? "<" : ">", pl.ridge, pl.memory_side ? "memory" : "compute");
    out.push_back({prefill ? pal.prefill : pal.decode, prefill ? "prefill" : "decode ", buf,
                   prefill ? "roof_prefill" : "roof_decode", pl.memory_side ? "memory" : "compute"});
  }
  // The same decode step against main memory's slope: where a model too big for the cache
  // reads its weights from (the verdict real models get).
  if (decode_point >= 0 && pts[decode_point].flops_per_s > 0 && mc.dram_bytes_per_s > 0) {
    const RooflinePoint& p = pts[decode_point];
    const RoofPlace pl =
        place_on_roofline(p.intensity, p.flops_per_s, mc.flops_per_s, mc.dram_bytes_per_s);
    std::snprintf(buf, sizeof buf, "%.2f %s %.3g: %s-bound", p.intensity,
                  pl.memory_side ? "<" : ">", pl.ridge, pl.memory_side ? "memory" : "compute");
    out.push_back({pal.text_dim, "dashed ", buf, "roof_decode_dram",
                   pl.memory_side ? "memory" : "compute"});
  }
  if (decode_point >= 0 &&
      pts[decode_point].flops_per_s > mc.dram_bytes_per_s * pts[decode_point].intensity) {
    std::snprintf(buf, sizeof buf,
                  "Decode runs faster than main memory could feed it: this model's %s of weights "
                  "stay in the CPU's cache.",
                  format_bytes(working_set).c_str());
    out.push_back({0, "", buf, "", "", true});
  }
  if (last_prefill >= 0 && decode_point >= 0 &&
      pts[last_prefill].flops_per_s < pts[decode_point].flops_per_s)
    out.push_back({0, "",
                   "Measured here, the prefill reached fewer FLOP/s than decode: its dot sits lower "
                   "although its intensity is higher. A roof is a ceiling, not a promise.",
                   "", "", true});
  return out;
}

// The height the lines take at the current content width, so the chart can leave them room.
float roofline_lines_height(const std::vector<RoofLine>& lines) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const float width = ImGui::GetContentRegionAvail().x;
  float h = 0;
  float label_col = 0;
  for (const RoofLine& l : lines)
    if (*l.label) label_col = std::max(label_col, ImGui::CalcTextSize(l.label).x + st.ItemSpacing.x);
  for (const RoofLine& l : lines) {
    const float label_w = *l.label ? label_col : 0.0f;
    h += ImGui::CalcTextSize(l.text.c_str(), nullptr, false, std::max(1.0f, width - label_w)).y +
         st.ItemSpacing.y;
  }
  return h;
}

void draw_roofline_lines(const std::vector<RoofLine>& lines, const PanelEnv& env,
                         const Palette& pal) {
  // The labels in a column of their own, so the numbers line up.
  float label_col = 0;
  for (const RoofLine& l : lines)
    if (*l.label)
      label_col = std::max(label_col, ImGui::CalcTextSize(l.label).x + ImGui::GetStyle().ItemSpacing.x);
  for (const RoofLine& l : lines) {
    if (*l.label) {
      const float x0 = ImGui::GetCursorPosX();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(l.label_color), "%s", l.label);
      ImGui::SameLine(x0 + label_col);
    }
    if (l.dim) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
    text_wrapped("%s", l.text.c_str());
    if (l.dim) ImGui::PopStyleColor();
    if (*l.kind) {
      const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
      env.log.note_drawn(l.kind, l.state, a.x, a.y, b.x - a.x, b.y - a.y);
    }
  }
}

// Roofline: where each pass sits under this machine's measured ceilings (bench's probes, run
// once on request and cached), and what that means in words.
void roofline_section(const Session& s, const PathSteps& ps, const PanelEnv& env,
                      CostPanelState& own, Commands& cmd, const Palette& pal) {
  const float fs = ImGui::GetFontSize();
  std::vector<RooflinePoint> pts;
  int cur_point = -1, last_prefill = -1, last_decode = -1;
  double working_set = 0;  // the weights one pass reads
  for (const Step* st : ps.steps) {
    if (st->index > ps.cur->index) break;
    const CostRecord& sc = st->forward->cost;
    RooflinePoint p;
    p.intensity = sc.arithmetic_intensity();
    p.flops_per_s = sc.seconds > 0 ? sc.flops / sc.seconds : 0;
    p.color = st->forward->phase == Phase::Prefill ? pal.prefill : pal.decode;
    if (st == ps.cur) cur_point = static_cast<int>(pts.size());
    (st->forward->phase == Phase::Prefill ? last_prefill : last_decode) = static_cast<int>(pts.size());
    working_set = std::max(working_set, sc.weight_bytes);
    pts.push_back(p);
  }
  const int decode_point = cur_point >= 0 && ps.steps[cur_point]->forward->phase != Phase::Prefill
                               ? cur_point
                               : last_decode;
  static const std::string cpu = cpu_model_name();
  const int threads = s.options().n_threads;
  const MachineCeilings& mc = own.ceilings;
  if (!ceilings_fit(mc, cpu, threads, working_set)) {
    text_wrapped("The roofline's roofs are this machine's own ceilings: peak arithmetic and memory "
                 "bandwidth, measured with bench's probes at %d thread%s (about a second, then "
                 "cached).",
                 threads, threads == 1 ? "" : "s");
    if (mc.valid)
      ImGui::TextDisabled("(the cached measurement is for another CPU, thread count or model size)");
    if (ImGui::Button("Measure this machine")) cmd.push(cmd::MeasureMachine{working_set});
    note_last_item(env.log, "button", "measure machine");
    return;
  }
  RooflineStyle rs;
  rs.peak_flops = mc.flops_per_s;
  rs.bandwidth = mc.working_set_bytes_per_s;
  rs.slow_bandwidth = mc.dram_bytes_per_s;
  rs.highlighted = cur_point;
  rs.highlight_color = pal.accent;
  rs.roof_color = pal.text;
  // The chart takes the height the words below it leave, at least eight lines of text; the
  // side notes (dimmed) are left out when they would squeeze it below that.
  std::vector<RoofLine> lines = roofline_lines(pts, last_prefill, decode_point, working_set, mc, pal);
  const float avail = ImGui::GetContentRegionAvail().y;
  const float least = fs * 8.0f;
  if (avail - roofline_lines_height(lines) < least)
    std::erase_if(lines, [](const RoofLine& l) { return l.dim; });
  const float words_h = roofline_lines_height(lines) + ImGui::GetStyle().ItemSpacing.y;
  // (never below five lines; a frame whose scrollbar wraps the words still fits, so the
  // scrollbar goes and the next frame's chart is taller)
  rs.size = ImVec2(0, std::max(avail - words_h, fs * 5.0f));
  const ChartHit rh = draw_roofline("roofline", pts, rs);
  note_last_item(env.log, "roofline", std::to_string(pts.size()));
  if (rh.hovered && rh.index >= 0 && rh.index < static_cast<int>(pts.size())) {
    const Step* st = ps.steps[rh.index];
    ImGui::BeginTooltip();
    ImGui::Text("step %d (%s): %.2f FLOPs per byte, %s/s achieved", st->index,
                phase_name(st->forward->phase), pts[rh.index].intensity,
                format_si(pts[rh.index].flops_per_s, "FLOP").c_str());
    ImGui::Text("Roofs: this CPU (%s, %d thread%s): %s/s of arithmetic, %s/s reading %s, %s/s "
                "from main memory (dashed).",
                mc.cpu.empty() ? "unknown model" : mc.cpu.c_str(), mc.threads,
                mc.threads == 1 ? "" : "s", format_si(mc.flops_per_s, "FLOP").c_str(),
                format_si(mc.working_set_bytes_per_s, "B").c_str(),
                format_bytes(mc.working_set_bytes).c_str(), format_si(mc.dram_bytes_per_s, "B").c_str());
    ImGui::EndTooltip();
  }
  draw_roofline_lines(lines, env, pal);
}

// The section row: per step, roofline, and the three formats once measured (else the button
// that measures them).
void section_row(CostPanelState& own, const PanelEnv& env, Commands& cmd) {
  struct Tab {
    const char* label;
    int section;
  };
  const Tab tabs[] = {{"per step", kCostPerStep}, {"roofline", kCostRoofline}, {"F32 · Q8_0 · Q4_K", kCostFormats}};
  ImGui::PushFont(app_font(FontRole::Small));
  for (const Tab& t : tabs) {
    if (&t != tabs) ImGui::SameLine();
    const bool active = own.section == t.section;
    if (t.section == kCostFormats && !own.formats) {
      if (ImGui::Button("compare F32, Q8_0 and Q4_K")) cmd.push(cmd::CompareFormats{});
      note_last_item(env.log, "button", "compare formats");
      continue;
    }
    if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(t.label)) own.section = t.section;
    if (active) ImGui::PopStyleColor();
    note_last_item(env.log, active ? "view_active" : "view", t.label);
  }
  ImGui::PopFont();
}

}  // namespace

void draw_cost_panel(const Session& s, const PanelEnv& env, CostPanelState& own, Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Cost)) return;
  const Palette& pal = palette(env.prefs.theme);
  PathSteps ps;
  ps.cur = shown_step(s, env.sel);
  const int lane = shown_lane(s, env.sel);
  if (!has_model(s)) {
    text_wrapped("Load a model to measure what each step costs: arithmetic, memory traffic and "
                 "time.");
  } else if (!ps.cur || !ps.cur->forward) {
    text_wrapped("No step yet. Step once to see the prefill's cost; every decode step after it "
                 "adds a bar, so prefill and decode can be compared.");
  } else {
    for (int k = 0; k < path_length(s, lane); ++k)
      if (const Step* st = step_at(s, lane, k); st && st->forward) ps.steps.push_back(st);
    step_figures(*ps.cur, env.log);
    section_row(own, env, cmd);
    if (own.section == kCostFormats && own.formats)
      draw_format_comparison(*own.formats, pal, env, own);
    else if (own.section == kCostRoofline)
      roofline_section(s, ps, env, own, cmd, pal);
    else
      per_step_section(ps, env, own, cmd, pal);
  }
  end_panel();
}

}  // namespace ts
