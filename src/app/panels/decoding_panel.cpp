// The Beam & speculative panel: decoding beyond one sampled token per step. A row picks the
// view (beam search, speculative); each has its settings and a Run button that sends the
// session's own command (`beam`, `speculate`: session/command.h), which runs on the worker and
// keeps its result in the session (session/side_runs.h); decoding_views.h draws it.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/panels/decoding_views.h"
#include "app/panels/panels.h"
#include "app/view.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/command.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

namespace {

void view_row(const PanelEnv& env, DecodingPanelState& own) {
  const struct {
    const char* label;
    int view;
  } tabs[] = {{"beam search", kDecodingBeam}, {"speculative", kDecodingSpeculative}};
  ImGui::PushFont(app_font(FontRole::Small));
  for (const auto& t : tabs) {
    if (&t != tabs) ImGui::SameLine();
    const bool active = own.view == t.view;
    if (active)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(t.label)) own.view = t.view;
    if (active) ImGui::PopStyleColor();
    note_last_item(env.log, active ? "view_active" : "view", t.label);
  }
  ImGui::PopFont();
}

// ImGui::SameLine when an item `w` wide still fits on this row, else a new row.
void same_line_if_fits(float w) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
}

// A slider with its label, `w` wide before the label.
float labelled_w(float w, const char* label) {
  return w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

void beam_controls(const PanelEnv& env, DecodingPanelState& own, Commands& cmd) {
  const float fs = ImGui::GetFontSize();
  if (ImGui::Button("Run")) cmd.push(cmd::Beam{own.beam_width, own.length_penalty, own.beam_tokens});
  note_last_item(env.log, "button", "run beam");
  same_line_if_fits(labelled_w(fs * 3.5f, "width"));
  ImGui::SetNextItemWidth(fs * 3.5f);
  ImGui::SliderInt("width", &own.beam_width, 1, 8);
  same_line_if_fits(labelled_w(fs * 3.5f, "tokens"));
  ImGui::SetNextItemWidth(fs * 3.5f);
  ImGui::SliderInt("tokens", &own.beam_tokens, 1, 32);
  same_line_if_fits(labelled_w(fs * 3.5f, "penalty"));
  ImGui::SetNextItemWidth(fs * 3.5f);
  ImGui::SliderFloat("penalty", &own.length_penalty, 0.0f, 2.0f, "%.1f");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("length penalty alpha: a text's score is Σ log p / length^alpha");
}

void spec_controls(const PanelEnv& env, DecodingPanelState& own, Commands& cmd) {
  const float fs = ImGui::GetFontSize();
  if (ImGui::Button("Run")) cmd.push(cmd::Speculate{own.draft_path, own.spec_k, own.spec_tokens});
  note_last_item(env.log, "button", "run speculative");
  same_line_if_fits(labelled_w(fs * 3.0f, "k"));
  ImGui::SetNextItemWidth(fs * 3.0f);
  ImGui::SliderInt("k", &own.spec_k, 1, kMaxSpeculative);
  same_line_if_fits(labelled_w(fs * 3.0f, "tokens"));
  ImGui::SetNextItemWidth(fs * 3.0f);
  ImGui::SliderInt("tokens", &own.spec_tokens, 4, 64);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s", own.draft_path.c_str());
  // The file field takes what the row has left (at least four letters' room), else a row.
  same_line_if_fits(labelled_w(fs * 4.0f, "draft"));
  ImGui::SetNextItemWidth(
      std::min(fs * 9.0f, ImGui::GetContentRegionAvail().x - labelled_w(0, "draft")));
  if (ImGui::InputText("draft", buf, sizeof buf)) own.draft_path = buf;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", own.draft_path.c_str());
}

}  // namespace

void draw_decoding_panel(const Session& s, const PanelEnv& env, DecodingPanelState& own,
                         Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Decoding)) return;
  const Palette& pal = palette(env.prefs.theme);
  const SideRuns& side = s.side_runs();
  if (side.serial != own.seen_serial) {  // a new run (a button, a lesson, a script): show it
    own.seen_serial = side.serial;
    if (side.newest == 0 && side.beam) {  // and its settings into the controls
      own.view = kDecodingBeam;
      own.beam_width = side.beam->settings.width;
      own.length_penalty = static_cast<float>(side.beam->settings.length_penalty);
      own.beam_tokens = side.beam->settings.limits.max_tokens;
    } else if (side.newest == 1 && side.spec) {
      own.view = kDecodingSpeculative;
      own.draft_path = side.spec->draft_path;
      own.spec_k = side.spec->settings.k;
      own.spec_tokens = side.spec->settings.limits.max_tokens;
    }
  }
  view_row(env, own);
  if (!has_model(s)) {
    text_wrapped("Load a model to search beams or decode speculatively with a draft.");
  } else if (own.view == kDecodingBeam) {
    beam_controls(env, own, cmd);
    if (!side.beam) {
      text_wrapped("Beam search keeps the %d most probable texts so far at every step, not one. "
                   "Press Run to search from the prompt.",
                   own.beam_width);
    } else {
      if (!side_run_current(s, side.beam->prompt))
        ImGui::TextDisabled("(made for an earlier prompt: Run again)");
      decoding::draw_beam_tree(s, *side.beam, env, pal);
    }
  } else {
    spec_controls(env, own, cmd);
    if (!side.spec) {
      text_wrapped("A small draft model guesses %d tokens; the big one checks them all in one "
                   "pass. Press Run.",
                   own.spec_k);
    } else {
      if (!side_run_current(s, side.spec->prompt))
        ImGui::TextDisabled("(made for an earlier prompt: Run again)");
      decoding::draw_spec_rounds(s, *side.spec, env, pal);
    }
  }
  end_panel();
}

}  // namespace ts
