// Status bar: step i of n, the phase being shown, each lane's stop reason, the speed of the last
// pass (tokens per second), KV cache fill, memory held by records, the model's name, and the last
// message (errors in the error colour). One line at the bottom; reads the session only.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

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

namespace {

// The line as segments, most important first; a segment's `keep` says it is never dropped for
// room (the step and why generation stopped).
struct Segment {
  std::string text;
  bool keep = false;
};

// A read-only trace's own position, not the session's.
void trace_segments(const TraceViewState& trace, std::vector<Segment>& segs) {
  char buf[160];
  const Trace& t = *trace.trace;
  const int lane = std::clamp(trace.lane, 0, std::max(0, (int)t.lanes.size() - 1));
  const int n = t.lanes.empty() ? 0 : (int)t.lanes[lane].steps.size();
  std::snprintf(buf, sizeof buf, "read-only trace, lane %d", lane + 1);
  segs.push_back({buf, true});
  std::snprintf(buf, sizeof buf, "step %d of %d recorded", trace.step, n);
  segs.push_back({buf, true});
  segs.push_back(
      {display_label(t.config.name.empty() ? t.model_path : t.config.name) + " (not loaded)"});
}

// The session at a step: the step, stops, the phase, recorded steps, speed, KV, records.
void step_segments(const Session& s, const PanelEnv& env, std::vector<Segment>& segs) {
  char buf[160];
  const int lane = shown_lane(s, env.sel);
  std::snprintf(buf, sizeof buf, "step %d (%s)", s.cursor(),
                s.cursor() == 0 ? "the prefill" : "decode");
  segs.push_back({buf, true});
  for (int i = 0; i < lane_count(s); ++i) {
    const StopReason r = stop_reason(s, i);
    if (r == StopReason::None) continue;
    segs.push_back({(lane_count(s) > 1 ? "lane " + std::to_string(i) + " " : std::string()) +
                        "stopped: " + stop_reason_name(r),
                    true});
  }
  const std::vector<PhaseItem> phases = ts::phases(s, lane);
  if (stepping_into(s) && s.phase_cursor() < (int)phases.size())
    segs.push_back({"phase: " + phases[s.phase_cursor()].label, true});
  std::snprintf(buf, sizeof buf, "%d recorded", max_path_length(s));
  segs.push_back({buf});
  if (const Step* st = shown_step(s, env.sel)) {
    const double rate = pass_rate(*st);
    if (rate > 0) {
      std::snprintf(buf, sizeof buf, "%.0f tokens/s", rate);
      segs.push_back({buf});
    }
  }
  std::snprintf(buf, sizeof buf, "KV %d / %d", kv_length(s, lane), s.lanes()[lane].kv.capacity());
  segs.push_back({buf});
  std::snprintf(buf, sizeof buf, "records %.1f MiB", record_bytes(s) / (1024.0 * 1024.0));
  segs.push_back({buf});
}

std::vector<Segment> status_segments(const Session& s, const PanelEnv& env,
                                     const TraceViewState& trace) {
  std::vector<Segment> segs;
  if (trace.trace) {
    trace_segments(trace, segs);
  } else if (!has_model(s)) {
    segs.push_back({"no model", true});
  } else if (s.cursor() < 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "before the prefill  ·  %d prompt tokens",
                  (int)prompt_tokens(s).size());
    segs.push_back({buf, true});
  } else {
    step_segments(s, env, segs);
  }
  if (is_playing(s) && !trace.trace) segs.push_back({"playing", true});
  if (has_model(s) && !trace.trace) {
    const std::string& name = config(s).name;
    segs.push_back({display_label(name.empty() ? model_info(s).path : name)});
  }
  return segs;
}

std::string join_segments(const std::vector<Segment>& v, bool more) {
  static const std::string kSep = "  ·  ";
  std::string out;
  for (const Segment& g : v) out += (out.empty() ? "" : kSep) + g.text;
  return more ? out + kSep + "…" : out;
}

// The message's width at the right: the status line gives way before it, but never the
// segments it must keep (an error gets at least half the line, a note a quarter).
float message_width(const std::vector<Segment>& segs, const PanelEnv& env) {
  if (env.status.message.empty()) return 0;
  const float total = ImGui::GetContentRegionAvail().x;
  std::vector<Segment> kept;
  for (const Segment& g : segs)
    if (g.keep) kept.push_back(g);
  const float keep =
      ImGui::CalcTextSize(join_segments(kept, true).c_str()).x + ImGui::GetFontSize();
  return std::min(ImGui::CalcTextSize(env.status.message.c_str()).x,
                  std::max(total - keep, total * (env.status.message_is_error ? 0.5f : 0.25f)));
}

}  // namespace

void draw_status_panel(const Session& s, const PanelEnv& env, const TraceViewState& trace,
                       Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Status,
                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar))
    return;
  const Palette& pal = palette(env.prefs.theme);
  const std::vector<Segment> segs = status_segments(s, env, trace);
  const std::string line = join_segments(segs, false);
  // The message (errors first of all) is right-aligned.
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float msg_w = message_width(segs, env);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float line_right = msg_w > 0 ? right - msg_w - ImGui::GetFontSize() : right;
  const float avail = std::max(1.0f, line_right - p0.x);
  // Too long: the segments that may go are dropped from the end (the most important come
  // first), "  ·  …" says so and the whole line is the tooltip.
  std::vector<Segment> shown = segs;
  bool dropped = false;
  while (ImGui::CalcTextSize(join_segments(shown, dropped).c_str()).x > avail) {
    auto it = std::find_if(shown.rbegin(), shown.rend(), [](const Segment& g) { return !g.keep; });
    if (it == shown.rend()) break;
    shown.erase(std::next(it).base());
    dropped = true;
  }
  const std::string text = join_segments(shown, dropped);
  fit_text(env.log, text, avail);
  const ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
  for (const Segment& g : shown) env.log.note_drawn("status", g.text, a.x, a.y, z.x - a.x, z.y - a.y);
  if (text != line && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", line.c_str());
  if (msg_w > 0) {
    ImGui::SetCursorScreenPos(ImVec2(right - msg_w, p0.y));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(
                                             env.status.message_is_error ? pal.error : pal.ok));
    if (!fit_text(env.log, env.status.message, msg_w) && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", env.status.message.c_str());
    ImGui::PopStyleColor();
    note_last_item(env.log, "status_message", env.status.message);
  }
  end_panel();
}

}  // namespace ts
