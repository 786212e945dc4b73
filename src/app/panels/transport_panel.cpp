// Transport & timeline panel: first / back / play-pause / step / last and "step into" buttons,
// the play speed, the phases inside the current iteration (embed -> each block's attention and
// MLP -> final norm -> logits -> sampler stages -> draw -> append; click one to show it; shown
// only while stepping into or in focus), and the scrubber: one cell per iteration (the prefill one
// wide cell, then one per decode; click or drag to seek). It only emits commands; play/step
// logic lives in the session.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/flow.h"
#include "app/widgets/icon_button.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "sampling/stage.h"
#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

std::string short_phase_label(const PhaseItem& p) {
  switch (p.kind) {
    case PhaseKind::Embed:
      return "embed";
    case PhaseKind::Attention:
      return "attn " + std::to_string(p.layer);
    case PhaseKind::Mlp:
      return "mlp " + std::to_string(p.layer);
    case PhaseKind::FinalNorm:
      return "norm";
    case PhaseKind::Logits:
      return "logits";
    case PhaseKind::SamplerStage: {  // "top-p 0.90" -> "top-p"; "temperature" -> "temp"
      const std::string word = p.label.substr(0, p.label.find(' '));
      return word == stage_name(StageKind::Temperature) ? "temp" : word;
    }
    case PhaseKind::Draw:
      return "draw";
    case PhaseKind::Append:
      return "append";
  }
  return p.label;
}

ImU32 phase_color(const Palette& pal, PhaseKind k) {
  switch (k) {
    case PhaseKind::Attention:
      return pal.prefill;
    case PhaseKind::Mlp:
      return pal.decode;
    case PhaseKind::SamplerStage:
      return pal.bar;
    case PhaseKind::Draw:
    case PhaseKind::Append:
      return pal.accent;
    default:
      return pal.text_dim;
  }
}

// An icon button whose rectangle is recorded as "button:<name>" for tests and the smoke test.
// `size` 0: 1.3 frame heights.
bool transport_button(const PanelEnv& env, TimelinePanelState& own, const char* id, Icon icon,
                      const char* tip, bool enabled, float size = 0) {
  const bool clicked = icon_button(id, icon, tip, size, enabled);
  note_last_item(env.log, "button", id + 2);  // id is "##name"
  return clicked;
}

// First, back, play/pause, step, last and step into, on one row.
void button_row(const Session& s, const PanelEnv& env, TimelinePanelState& own, Commands& cmd,
                float size = 0) {
  const int cursor = s.cursor();
  const int last = max_path_length(s) - 1;
  const bool ready = has_model(s) && !prompt_tokens(s).empty();
  const bool can_forward = ready && (can_step(s) || cursor < last);
  if (transport_button(env, own, "##first", Icon::First, "First: before the prefill (Home)",
                       ready && cursor > -1, size))
    cmd.push(cmd::First{});
  ImGui::SameLine();
  if (transport_button(env, own, "##back", Icon::Back, "Back one step (Left arrow)",
                       ready && cursor > -1, size))
    cmd.push(cmd::Back{1});
  ImGui::SameLine();
  if (is_playing(s)) {
    if (transport_button(env, own, "##pause", Icon::Pause, "Pause (Space)", true, size))
      cmd.push(cmd::Pause{});
  } else if (transport_button(env, own, "##play", Icon::Play, "Play (Space)", ready && can_step(s),
                              size)) {
    cmd.push(cmd::Play{});
  }
  ImGui::SameLine();
  if (transport_button(env, own, "##step", Icon::Step, "Step: one whole iteration (Right arrow)",
                       can_forward, size))
    cmd.push(cmd::Step{1});
  ImGui::SameLine();
  if (transport_button(env, own, "##last", Icon::Last, "Last recorded step (End)",
                       ready && cursor < last, size))
    cmd.push(cmd::Last{});
  ImGui::SameLine(0, ImGui::GetFontSize() * 1.2f);
  if (transport_button(env, own, "##into", Icon::StepInto,
                       "Step into: reveal the next phase inside the iteration (Shift+Right)",
                       can_forward || stepping_into(s), size))
    cmd.push(cmd::StepInto{});
}

// The button row, then the play speed and where the cursor is.
void draw_buttons(const Session& s, const PanelEnv& env, TimelinePanelState& own, Commands& cmd) {
  const int cursor = s.cursor();
  const int last = max_path_length(s) - 1;
  const bool ready = has_model(s) && !prompt_tokens(s).empty();
  button_row(s, env, own, cmd);
  // In focus the row wraps its slider and text to the next line when narrow; as a strip the
  // text is shortened (with a tooltip) so the strip keeps its height.
  const bool roomy = env.prefs.focus_panel == static_cast<int>(PanelId::Transport);
  const float fs = ImGui::GetFontSize();
  float slider_w = fs * 9.0f;
  bool slider = true;
  if (roomy) {
    flow_same_line(slider_w + fs * 1.2f);
  } else {  // the strip: a narrower slider, or none, rather than one past the edge
    const float room = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x -
                       ImGui::GetItemRectMax().x - fs * 1.2f;
    slider_w = std::min(slider_w, room);
    slider = slider_w >= fs * 4.0f;
    if (slider) ImGui::SameLine(0, fs * 1.2f);
  }
  if (slider) {
    const float slider_y = ImGui::GetCursorPosY();
    ImGui::SetCursorPosY(slider_y +
                         (ImGui::GetFrameHeight() * 1.3f - ImGui::GetFrameHeight()) * 0.5f);
    ImGui::SetNextItemWidth(slider_w);
    if (ImGui::SliderFloat("##speed", &own.play_speed, 0.25f, 30.0f, "%.2g steps/s",
                           ImGuiSliderFlags_Logarithmic)) {
      own.play_speed = std::clamp(own.play_speed, 0.25f, 30.0f);
      if (is_playing(s)) cmd.push(cmd::SetSpeed{own.play_speed});
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play speed");
  }
  char where[96];
  if (!ready)
    std::snprintf(where, sizeof where, "load a model and a prompt first");
  else if (cursor < 0)
    std::snprintf(where, sizeof where, "before the prefill");
  else
    std::snprintf(where, sizeof where, "step %d: %s  ·  %d recorded", cursor,
                  cursor == 0 ? "the prefill" : "decode", last + 1);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ready && cursor >= 0
                                                                     ? ImGuiCol_Text
                                                                     : ImGuiCol_TextDisabled));
  if (roomy) {
    flow_same_line(ImGui::CalcTextSize(where).x);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(where);
  } else {
    const float room = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x -
                       ImGui::GetItemRectMax().x - ImGui::GetStyle().ItemSpacing.x;
    if (room > ImGui::GetFontSize() * 2.0f) {
      ImGui::SameLine();
      fit_text(env.log, where, room);
    }
  }
  ImGui::PopStyleColor();
}

void draw_phase_strip(const Session& s, const PanelEnv& env, TimelinePanelState& own,
                      Commands& cmd) {
  const Palette& pal = palette(env.prefs.theme);
  const float h = app_font(FontRole::Small)->FontSize * 1.6f;
  if (s.cursor() < 0 || !has_model(s)) {
    ImGui::Dummy(ImVec2(1, h));
    return;
  }
  const std::vector<PhaseItem> phases = ts::phases(s, shown_lane(s, env.sel));
  if (phases.empty()) {
    ImGui::Dummy(ImVec2(1, h));
    return;
  }
  ImFont* small = app_font(FontRole::Small);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const int n = static_cast<int>(phases.size());
  const float seg = w / static_cast<float>(n);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int cur = s.phase_cursor();
  for (int i = 0; i < n; ++i) {
    const ImVec2 a(p0.x + seg * i + 1, p0.y);
    const ImVec2 b(p0.x + seg * (i + 1) - 1, p0.y + h);
    ImGui::PushID(i);
    ImGui::SetCursorScreenPos(a);
    ImGui::InvisibleButton("phase", ImVec2(std::max(1.0f, b.x - a.x), h));
    if (ImGui::IsItemClicked()) cmd.push(cmd::SetPhase{i});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", phases[i].label.c_str());
    ImGui::PopID();
    const ImU32 col = phase_color(pal, phases[i].kind);
    if (i < cur)
      dl->AddRectFilled(a, b, mix_color(col, pal.window_bg, 0.7f), 3.0f);
    else if (i == cur)
      dl->AddRectFilled(a, b, col, 3.0f);
    dl->AddRect(a, b, mix_color(col, pal.window_bg, 0.3f), 3.0f, 0, pal.line_thickness);
    const std::string label = short_phase_label(phases[i]);
    const ImVec2 ts = small->CalcTextSizeA(small->FontSize, 1e9f, 0, label.c_str());
    if (ts.x + 4 < b.x - a.x) {
      const ImU32 tc = i == cur ? pal.window_bg : pal.text;
      dl->AddText(small, small->FontSize,
                  ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f), tc, label.c_str());
    }
    env.log.note_drawn(i == cur ? "phase_current" : "phase", std::to_string(i), a.x, a.y, b.x - a.x,
                       h);
  }
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p0.y + h + ImGui::GetStyle().ItemSpacing.y));
}

// The scrubber's cells: the prefill one wide cell (it computes every prompt position at once),
// then one per decode step, and an empty cell for the step that can still come.
struct ScrubCells {
  ImVec2 p0;
  float w = 0, h = 0, unit = 0, prefill_units = 0;
  int n_steps = 0, cursor = -1;
  bool can_more = false;
  float x(int step) const {
    return step == 0 ? p0.x : p0.x + unit * (prefill_units + static_cast<float>(step - 1));
  }
  float width(int step) const { return step == 0 ? unit * prefill_units : unit; }
};

ScrubCells scrub_cells(const Session& s, int lane, float w, float h) {
  ScrubCells c;
  c.p0 = ImGui::GetCursorScreenPos();
  c.h = h > 0 ? h : ImGui::GetFontSize() * 1.4f;
  c.w = std::max(10.0f, w > 0 ? w : ImGui::GetContentRegionAvail().x);
  c.n_steps = has_model(s) ? path_length(s, lane) : 0;
  c.cursor = s.cursor();
  const int n_prompt = static_cast<int>(has_model(s) ? prompt_tokens(s).size() : 0);
  c.prefill_units = static_cast<float>(std::clamp(n_prompt, 3, 12));
  c.can_more = has_model(s) && can_step(s) && c.cursor == c.n_steps - 1;
  const float units =
      c.prefill_units + std::max(0, c.n_steps - 1) + (c.can_more && c.n_steps > 0 ? 1 : 0);
  c.unit = std::min(ImGui::GetFontSize() * 2.0f, c.w / std::max(units, c.prefill_units));
  return c;
}

// One cell per computed step: dimmed after the cursor, a triangle on a forced token, a bar at
// a stop, a line where the lanes part, "prefill" in its cell where it fits. Returns the step
// under the mouse (-1: none) when `mouse_on` (hovered or dragged).
int draw_scrub_steps(const Session& s, const PanelEnv& env, const ScrubCells& c, int lane,
                     bool mouse_on) {
  const Palette& pal = palette(env.prefs.theme);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float mx = ImGui::GetIO().MousePos.x, h = c.h;
  const int divergence = has_model(s) && lane_count(s) > 1 ? first_divergence(s) : -1;
  int hovered_step = -1;
  for (int k = 0; k < c.n_steps; ++k) {
    const Step* st = step_at(s, lane, k);
    const ImVec2 a(c.x(k) + 1, c.p0.y);
    const ImVec2 b(c.x(k) + c.width(k) - 1, c.p0.y + h);
    ImU32 col = k == 0 ? pal.prefill : pal.decode;
    if (k > c.cursor) col = mix_color(col, pal.window_bg, 0.65f);
    dl->AddRectFilled(a, ImVec2(std::max(a.x + 1, b.x), b.y), col, 2.0f);
    if (st && st->forced)
      dl->AddTriangleFilled(ImVec2(a.x, a.y), ImVec2(std::max(a.x + 1, b.x), a.y),
                            ImVec2((a.x + b.x) * 0.5f, a.y + h * 0.35f), pal.forced_chip);
    if (st && st->stop != StopReason::None)
      dl->AddRectFilled(ImVec2(b.x - std::max(2.0f, c.unit * 0.25f), a.y), b, pal.warning);
    if (k == divergence)
      dl->AddLine(ImVec2(a.x, a.y - 3), ImVec2(a.x, b.y + 3), lane_color(pal, 1), 2.0f);
    if (k == 0 && b.x - a.x > ImGui::CalcTextSize("prefill").x + 6)
      dl->AddText(ImVec2(a.x + 4, a.y + (h - ImGui::GetFontSize()) * 0.5f),
                  k > c.cursor ? pal.text_dim : pal.window_bg, "prefill");
    env.log.note_drawn(k == c.cursor ? "scrub_cursor" : "scrub_cell", std::to_string(k), a.x, a.y,
                       b.x - a.x, h);
    if (mouse_on && mx >= c.x(k) && mx < c.x(k) + c.width(k)) hovered_step = k;
  }
  return hovered_step;
}

// The cell still to come (outlined), the cursor's frame (or a line before the first cell when
// nothing is computed yet), and in an empty scrubber a hint, the longest wording that fits.
void draw_scrub_marks(const Session& s, const Palette& pal, const ScrubCells& c) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = c.p0;
  const float h = c.h;
  if (c.can_more) {
    const float x = c.x(c.n_steps);
    dl->AddRect(ImVec2(x + 1, p0.y), ImVec2(x + c.width(c.n_steps) - 1, p0.y + h), pal.text_dim,
                2.0f, 0, pal.line_thickness);
  }
  if (c.cursor >= 0 && c.cursor < c.n_steps) {
    const float x = c.x(c.cursor);
    dl->AddRect(ImVec2(x, p0.y - 2), ImVec2(x + c.width(c.cursor), p0.y + h + 2), pal.accent, 3.0f,
                0, pal.line_thickness * 2.5f);
  } else if (c.cursor < 0) {
    dl->AddLine(ImVec2(p0.x, p0.y - 2), ImVec2(p0.x, p0.y + h + 2), pal.accent,
                pal.line_thickness * 3.0f);
  }
  if (c.n_steps > 0) return;
  const float room = c.w - c.width(0) - 16.0f;
  const char* hints[] = {has_model(s)
                             ? "nothing computed yet: press Step (Right arrow) to run the prefill"
                             : "no model loaded",
                         has_model(s) ? "press Step (→) to run the prefill" : "no model"};
  for (const char* hint : hints) {
    if (ImGui::CalcTextSize(hint).x > room) continue;
    dl->AddText(ImVec2(p0.x + c.width(0) + 8, p0.y + (h - ImGui::GetFontSize()) * 0.5f),
                pal.text_dim, hint);
    break;
  }
}

// The hovered step's tooltip: its kind, the token it chose and why it stopped.
void scrub_tooltip(const Session& s, int lane, int step) {
  const Step* st = step_at(s, lane, step);
  ImGui::BeginTooltip();
  ImGui::Text("step %d: %s", step, step == 0 ? "prefill" : "decode");
  if (st) {
    ImGui::Text("chose %s (%.1f%%)%s", s.tokenizer().display_piece(st->token).c_str(),
                100.0 * st->chosen_p, st->forced ? ", forced" : "");
    if (st->stop != StopReason::None) ImGui::Text("stopped: %s", stop_reason_name(st->stop));
  }
  ImGui::TextDisabled("click or drag to go there");
  ImGui::EndTooltip();
}

// The scrubber, `w` wide (0: the rest of the row) and `h` high (0: 1.4 lines).
void draw_scrubber(const Session& s, const PanelEnv& env, TimelinePanelState& own, Commands& cmd,
                   float w = 0, float h = 0) {
  const int lane = shown_lane(s, env.sel);
  const ScrubCells c = scrub_cells(s, lane, w, h);
  ImGui::InvisibleButton("scrubber", ImVec2(c.w, c.h));
  const bool active = ImGui::IsItemActive();
  const bool hovered = ImGui::IsItemHovered();
  const int hovered_step = draw_scrub_steps(s, env, c, lane, hovered || active);
  draw_scrub_marks(s, palette(env.prefs.theme), c);
  if (hovered_step < 0) return;
  if (hovered) scrub_tooltip(s, lane, hovered_step);
  if (active && hovered_step != c.cursor) cmd.push(cmd::Seek{hovered_step});
}

// The compact timeline (presentation layout, another panel in focus): the five transport buttons
// and step into, the scrubber filling the rest of the row, and where the cursor is ("step 4/12")
// at its end. The speed is on the timeline's own view (key 0).
void draw_compact(const Session& s, const PanelEnv& env, TimelinePanelState& own, Commands& cmd) {
  const ImVec2 row = ImGui::GetCursorScreenPos();
  const float bh = ImGui::GetFrameHeight();
  ImGuiStyle& st = ImGui::GetStyle();
  const int cursor = s.cursor();
  const int last = max_path_length(s) - 1;
  const bool ready = has_model(s) && !prompt_tokens(s).empty();
  button_row(s, env, own, cmd, bh);
  ImGui::SameLine(0, ImGui::GetFontSize() * 0.8f);
  char where[48] = "";
  // The prefill cell is labelled already; after it, the decode step and the last one recorded.
  if (ready && cursor > 0) std::snprintf(where, sizeof where, "step %d/%d", cursor, last);
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float tw = where[0] ? ImGui::CalcTextSize(where).x + st.ItemSpacing.x * 2.0f : 0.0f;
  const float x0 = ImGui::GetCursorScreenPos().x;
  const float sh = bh;
  const bool text = right - x0 - tw > ImGui::GetFontSize() * 6.0f;
  ImGui::SetCursorScreenPos(ImVec2(x0, row.y + (bh - sh) * 0.5f));
  draw_scrubber(s, env, own, cmd, right - x0 - (text ? tw : 0.0f), sh);
  if (text && where[0]) {
    ImGui::SameLine(0, st.ItemSpacing.x * 2.0f);
    ImGui::TextUnformatted(where);
    note_last_item(env.log, "text", where);
  }
}

}  // namespace

void draw_transport_panel(const Session& s, const PanelEnv& env, TimelinePanelState& own,
                          Commands& cmd) {
  if (env.frame.timeline_compact) {
    if (!begin_panel(env, cmd, PanelId::Transport,
                     ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar))
      return;
    draw_compact(s, env, own, cmd);
    end_panel();
    return;
  }
  if (!begin_panel(env, cmd, PanelId::Transport)) return;
  draw_buttons(s, env, own, cmd);
  // The phase strip is collapsed except during step into (or while the timeline is in focus).
  if (own.phases || stepping_into(s) ||
      env.prefs.focus_panel == static_cast<int>(PanelId::Transport))
    draw_phase_strip(s, env, own, cmd);
  draw_scrubber(s, env, own, cmd);
  end_panel();
}

}  // namespace ts
