// Status bar: step i of n, the phase being shown, each lane's stop reason, the speed of the last
// pass (tokens per second), KV cache fill, memory held by records, the model's name, and the last
// message (errors in the error colour). One line at the bottom; reads the session only.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/text_fit.h"
#include "base/utf8.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session.h"
#include "session/session_access.h"
#include "trace/trace_json.h"

namespace ts {

// Tokens per second of the pass that produced `st`: prefill positions / seconds, or 1 / seconds.
static double pass_rate(const Step& st) {
  if (!st.forward || st.forward->cost.seconds <= 0) return 0;
  return st.forward->n_positions / st.forward->cost.seconds;
}

void draw_status_panel(const Session& s, const PanelEnv& env, const TraceViewState& trace,
                       Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Status,
                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar))
    return;
  const Palette& pal = palette(env.prefs.theme);
  std::string line;
  char buf[160];
  if (trace.trace) {  // the trace's own position, not the session's
    const Trace& t = *trace.trace;
    const int lane = std::clamp(trace.lane, 0, std::max(0, (int)t.lanes.size() - 1));
    const int n = t.lanes.empty() ? 0 : (int)t.lanes[lane].steps.size();
    std::snprintf(buf, sizeof buf, "read-only trace  ·  lane %d  ·  step %d of %d recorded  ·  ",
                  lane + 1, trace.step, n);
    line =
        buf + display_label(t.config.name.empty() ? t.model_path : t.config.name) + " (not loaded)";
  } else if (!has_model(s)) {
    line = "no model";
  } else if (s.cursor() < 0) {
    std::snprintf(buf, sizeof buf, "before the prefill  ·  %d prompt tokens",
                  (int)prompt_tokens(s).size());
    line = buf;
  } else {
    const int lane = shown_lane(s, env.sel);
    std::snprintf(buf, sizeof buf, "step %d (%s)  ·  %d recorded", s.cursor(),
                  s.cursor() == 0 ? "the prefill" : "decode", max_path_length(s));
    line = buf;
    const std::vector<PhaseItem> phases = ts::phases(s, lane);
    if (stepping_into(s) && s.phase_cursor() < (int)phases.size())
      line += "  ·  phase: " + phases[s.phase_cursor()].label;
    for (int i = 0; i < lane_count(s); ++i) {
      const StopReason r = stop_reason(s, i);
      if (r == StopReason::None) continue;
      line += "  ·  ";
      if (lane_count(s) > 1) line += "lane " + std::to_string(i) + " ";
      line += std::string("stopped: ") + stop_reason_name(r);
    }
    if (const Step* st = shown_step(s, env.sel)) {
      const double rate = pass_rate(*st);
      if (rate > 0) {
        std::snprintf(buf, sizeof buf, "  ·  %.0f tokens/s", rate);
        line += buf;
      }
    }
    std::snprintf(buf, sizeof buf, "  ·  KV %d / %d", kv_length(s, lane),
                  s.lanes()[lane].kv.capacity());
    line += buf;
    std::snprintf(buf, sizeof buf, "  ·  records %.1f MiB", record_bytes(s) / (1024.0 * 1024.0));
    line += buf;
  }
  if (is_playing(s) && !trace.trace) line += "  ·  playing";
  if (has_model(s) && !trace.trace) {
    const std::string& name = config(s).name;
    line += "  ·  " + display_label(name.empty() ? model_info(s).path : name);
  }
  // The message (errors first of all) is right-aligned; the status line gives way before it.
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  // The message takes what it needs, leaving the status line at least its first segment.
  float msg_w = 0;
  if (!env.status.message.empty()) {
    const float total = ImGui::GetContentRegionAvail().x;
    const std::string first = line.substr(0, line.find("  ·  ")) + "  ·  …";
    const float keep = ImGui::CalcTextSize(first.c_str()).x + ImGui::GetFontSize();
    msg_w = std::min(ImGui::CalcTextSize(env.status.message.c_str()).x,
                     std::max(total - keep, total * (env.status.message_is_error ? 0.75f : 0.45f)));
  }
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float line_right = msg_w > 0 ? right - msg_w - ImGui::GetFontSize() : right;
  const float avail = std::max(1.0f, line_right - p0.x);
  // Too long: whole segments go from the end (the most important come first), "  ·  …" says so
  // and the whole line is the tooltip; only a first segment that alone does not fit is cut.
  std::string shown = line;
  static const std::string kSep = "  ·  ";
  if (ImGui::CalcTextSize(line.c_str()).x > avail) {
    size_t cut = line.rfind(kSep);
    while (cut != std::string::npos &&
           ImGui::CalcTextSize((line.substr(0, cut) + kSep + "…").c_str()).x > avail) {
      cut = cut == 0 ? std::string::npos : line.rfind(kSep, cut - 1);
    }
    if (cut != std::string::npos) shown = line.substr(0, cut) + kSep + "…";
  }
  fit_text(env.log, shown, avail);
  if (shown != line && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", line.c_str());
  if (msg_w > 0) {
    ImGui::SetCursorScreenPos(ImVec2(right - msg_w, p0.y));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(
                                             env.status.message_is_error ? pal.error : pal.ok));
    if (!fit_text(env.log, env.status.message, msg_w) && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", env.status.message.c_str());
    ImGui::PopStyleColor();
  }
  end_panel();
}

}  // namespace ts
