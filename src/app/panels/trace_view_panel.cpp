// The read-only trace view (own.trace): a trace opened without its model file, shown
// over the panels between the menu bar and the status bar. Step buttons, a slider and the arrow
// keys move through the recorded steps (as commands the app handles: nothing is computed); per
// step the text so far, the chosen token with its probability, rank and random draw, the raw
// and final distributions side by side (top 10, from the trace's records) and the sampler stages.
// The data comes from session/trace_view.h.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/widgets/charts.h"
#include "app/widgets/icon_button.h"
#include "app/widgets/text_fit.h"
#include "base/utf8.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "trace/trace_view.h"

namespace ts {

namespace {

void bar_column(const char* title, const std::vector<TraceBar>& bars, const Palette& pal,
                const PanelEnv& env, TraceViewState& own) {
  ImGui::TextUnformatted(title);
  const float fs = ImGui::GetFontSize();
  float label_w = fs * 3.0f;
  for (const TraceBar& b : bars)
    label_w = std::max(label_w, ImGui::CalcTextSize(b.label.c_str()).x);
  label_w = std::min(label_w + fs * 0.5f, ImGui::GetContentRegionAvail().x * 0.4f);
  const float bar_w = std::max(fs * 3.0f, ImGui::GetContentRegionAvail().x - label_w - fs * 4.0f);
  for (size_t i = 0; i < bars.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    draw_prob_bar_row(bars[i].label.c_str(), label_w, bars[i].p, bar_w,
                      bars[i].chosen ? pal.accent : pal.bar, bars[i].chosen);
    note_last_item(env.log, "trace_bar", bars[i].label);
    ImGui::PopID();
  }
  if (bars.empty()) ImGui::TextDisabled("(not recorded)");
}

// One radio button per lane (a trace of one lane has none).
void lane_choice(const Trace& t, TraceViewState& own) {
  if (t.lanes.size() <= 1) return;
  for (int i = 0; i < static_cast<int>(t.lanes.size()); ++i) {
    if (i > 0) ImGui::SameLine();
    char label[96];
    std::snprintf(label, sizeof label, "lane %d: %s", i + 1,
                  display_label(t.lanes[i].settings.label, 40).c_str());
    if (ImGui::RadioButton(label, own.lane == i)) {
      own.lane = i;
      own.step = std::min(own.step, std::max(0, static_cast<int>(t.lanes[i].steps.size()) - 1));
    }
  }
}

// Moving through the steps: commands, so the keyboard and scripts do the same.
void step_controls(const TraceStepView& v, Commands& cmd) {
  const float b = ImGui::GetFrameHeight() * 1.2f;
  if (icon_button("##ro_first", Icon::First, "First step (Home)", b, v.step > 0))
    cmd.push(cmd::First{});
  ImGui::SameLine();
  if (icon_button("##ro_back", Icon::Back, "Back one step (Left arrow)", b, v.step > 0))
    cmd.push(cmd::Back{1});
  ImGui::SameLine();
  if (icon_button("##ro_step", Icon::Step, "Next recorded step (Right arrow)", b,
                  v.step + 1 < v.n_steps))
    cmd.push(cmd::Step{1});
  ImGui::SameLine();
  if (icon_button("##ro_last", Icon::Last, "Last recorded step (End)", b, v.step + 1 < v.n_steps))
    cmd.push(cmd::Last{});
  ImGui::SameLine();
  if (v.n_steps > 1) {
    int k = v.step;
    ImGui::SetNextItemWidth(
        std::max(ImGui::GetFontSize() * 6.0f, ImGui::GetContentRegionAvail().x * 0.5f));
    if (ImGui::SliderInt("##ro_slider", &k, 0, v.n_steps - 1, "step %d")) cmd.push(cmd::Seek{k});
    ImGui::SameLine();
  }
  ImGui::AlignTextToFramePadding();
  ImGui::Text("%d steps recorded", v.n_steps);
}

// The step's choice: the token, its p and rank, the draw and the entropies (and a stop).
void choice_lines(const TraceStepView& v) {
  ImGui::PushFont(app_font(FontRole::Bold));
  text_wrapped("step %d (%s): chose %s%s", v.step, v.prefill ? "the prefill" : "decode",
               v.chosen.c_str(), v.forced ? " (forced)" : "");
  ImGui::PopFont();
  char draw[32];
  if (v.greedy)
    std::snprintf(draw, sizeof draw, "greedy");
  else
    std::snprintf(draw, sizeof draw, "u = %.3f", v.u);
  text_wrapped("p %.1f%% · rank %d · %s · raw model %.2f bits, after the sampler %.2f bits%s%s",
               100.0 * v.chosen_p, v.chosen_rank, draw, v.raw_entropy, v.entropy,
               v.stop.empty() ? "" : " · stopped: ", v.stop.c_str());
}

// The text so far, at most about three lines high (scrolled to its end), so the bars stay on
// screen at projector sizes; the chosen token after it in the accent colour.
void text_so_far(const TraceStepView& v, const Palette& pal) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float wrap = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  const float text_h = ImGui::CalcTextSize(v.text_before.c_str(), nullptr, false, wrap).y + line;
  ImGui::BeginChild("ro_text", ImVec2(0, std::min(text_h, line * 3.2f) + 4.0f));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(v.text_before.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), "→ %s", v.chosen.c_str());
  ImGui::SetScrollHereY(1.0f);
  ImGui::EndChild();
}

// A recorded step: the choice, the text, the raw and final bars side by side, the stages.
void recorded_step(const TraceStepView& v, const Palette& pal, const PanelEnv& env,
                   TraceViewState& own) {
  choice_lines(v);
  text_so_far(v, pal);
  ImGui::Separator();
  if (ImGui::BeginTable("ro_bars", 2, ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableNextColumn();
    bar_column("raw model (softmax of the logits)", v.raw, pal, env, own);
    ImGui::TableNextColumn();
    bar_column("drawn from (after the sampler)", v.final_dist, pal, env, own);
    ImGui::EndTable();
  }
  if (v.stages.empty()) return;
  std::string chain;
  for (const std::string& st : v.stages)
    chain += (chain.empty() ? "" : "  →  ") + display_label(st, 60);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("sampler stages: %s", chain.c_str());
  ImGui::PopStyleColor();
}

}  // namespace

void draw_read_only_trace(const PanelEnv& env, TraceViewState& own, Commands& cmd) {
  if (!own.trace) return;
  const Trace& t = *own.trace;
  const Palette& pal = palette(env.prefs.theme);
  const ImGuiIO& io = ImGui::GetIO();
  const float top = env.frame.menu_bar_height;
  const PanelRect& status = env.frame.rect(PanelId::Status);
  const float bottom = status.h > 0 ? status.y : io.DisplaySize.y;
  ImGui::SetNextWindowPos(ImVec2(0, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, std::max(1.0f, bottom - top)),
                           ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  bool open = true;
  const std::string title =
      "Trace (read-only): " + display_label(own.path, 80) + "###read_only_trace";
  if (ImGui::Begin(title.c_str(), &open, flags)) {
    ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    set_text_record_target(&env.log);
    env.log.drawing_panel = "Trace (read-only)";
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.warning));
    text_wrapped(
        "The model file '%s' is not here: everything below is what the trace recorded, "
        "step by step; nothing is computed. Copy the model to that path to replay the "
        "run with every panel.",
        display_label(t.model_path, 120).c_str());
    ImGui::PopStyleColor();
    lane_choice(t, own);
    const TraceStepView v = trace_step_view(t, own.lane, own.step);
    step_controls(v, cmd);
    ImGui::Separator();
    if (v.n_steps == 0)
      text_wrapped("This lane has no recorded steps. The prompt: %s", v.text_before.c_str());
    else
      recorded_step(v, pal, env, own);
    set_text_record_target(nullptr);
    env.log.drawing_panel = "";
  }
  ImGui::End();
  if (!open) own.trace.reset();
}

}  // namespace ts
