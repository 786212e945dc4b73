// Compare panel: the session's lanes (2-4 samplers over one model, prompt and seed) side by side,
// each with its generated text up to the cursor and the top of its current final distribution
// as mini bars; the first step where the lanes' choices differ is marked in every text. Buttons
// add a lane from presets or remove one (as commands). Reads the session only.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/charts.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/session.h"

namespace ts {
namespace {

struct Preset {
  const char* label;
  float temperature;
  int top_k;
  float top_p;
  float min_p;
};

constexpr Preset kPresets[] = {
    {"greedy", 0.0f, 0, 1.0f, 0.0f},         {"temperature 0.8", 0.8f, 0, 1.0f, 0.0f},
    {"temperature 1.5", 1.5f, 0, 1.0f, 0.0f}, {"top-k 40", 1.0f, 40, 1.0f, 0.0f},
    {"top-p 0.9", 1.0f, 0, 0.9f, 0.0f},       {"min-p 0.1", 1.0f, 0, 1.0f, 0.1f},
};

SamplerSettings preset_settings(const Preset& p, uint64_t seed) {
  SamplerSettings s;
  s.label = p.label;
  s.temperature = p.temperature;
  s.top_k = p.top_k;
  s.top_p = p.top_p;
  s.min_p = p.min_p;
  s.seed = seed;
  return s;
}

// Flowing text made of token pieces, wrapped at the column width; tokens chosen at or after step
// `diverge` get a tint, the one at `diverge` an outline (the fork in the road).
void token_flow(const std::vector<PathToken>& toks, int diverge, ImU32 tint, ImU32 mark,
                const Palette& pal) {
  const float fs = ImGui::GetFontSize();
  const float width = std::max(ImGui::GetContentRegionAvail().x, fs * 4.0f);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float x = 0, y = 0;
  const float line_h = fs * 1.3f;
  // The prompt's last few tokens, dimmed, so the continuation reads as text.
  constexpr int kContext = 4;
  int n_prompt = 0;
  for (const PathToken& t : toks) n_prompt += t.is_prompt ? 1 : 0;
  const int first_context = std::max(0, n_prompt - kContext);
  int prompt_index = 0;
  for (const PathToken& t : toks) {
    std::string s = t.display;
    for (size_t i; (i = s.find("\xE2\x90\xA3")) != std::string::npos;) s.replace(i, 3, " ");
    if (t.is_prompt) {
      const int i = prompt_index++;
      if (i < first_context) continue;
      if (i == first_context && first_context > 0) s = "\xE2\x80\xA6" + s;
      const float w = ImGui::CalcTextSize(s.c_str()).x;
      if (x > 0 && x + w > width) x = 0, y += line_h;
      dl->AddText(ImVec2(o.x + x, o.y + y + fs * 0.07f), pal.text_dim, s.c_str());
      x += w;
      continue;
    }
    const float w = ImGui::CalcTextSize(s.c_str()).x;
    if (x > 0 && x + w > width) x = 0, y += line_h;
    const ImVec2 a(o.x + x, o.y + y), b(o.x + x + w, o.y + y + fs * 1.15f);
    if (diverge >= 0 && t.step >= diverge) dl->AddRectFilled(a, b, tint);
    if (t.step == diverge) dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), mark, 0.0f, 0, 2.0f);
    if (t.forced) dl->AddRectFilled(a, b, pal.forced_chip);
    dl->AddText(ImVec2(a.x, a.y + fs * 0.07f), pal.text, s.c_str());
    x += w;
  }
  ImGui::Dummy(ImVec2(width, y + line_h));
}

void lane_column(const Session& s, int lane, int diverge, UiState& ui, Commands& cmd,
                 const Palette& pal) {
  const float fs = ImGui::GetFontSize();
  const ImU32 col = lane_color(pal, lane);
  const SamplerSettings& set = s.settings(lane);
  // Header: colour swatch, label, remove button.
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(fs * 0.8f, fs));
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.15f),
                                            ImVec2(p.x + fs * 0.7f, p.y + fs * 0.85f), col);
  ImGui::SameLine();
  ImGui::TextUnformatted(set.label.empty() ? "lane" : set.label.c_str());
  if (s.lane_count() > 1) {
    ImGui::SameLine();
    if (ImGui::SmallButton("\xC3\x97")) cmd.push(cmd::RemoveLane{lane});  // "×"
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove this lane");
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ui.note_drawn("lane_remove", std::to_string(lane), a.x, a.y, b.x - a.x, b.y - a.y);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
  text_wrapped("%s", describe(set).c_str());
  ImGui::PopStyleColor();

  const Step* cur = s.current_step(lane);
  if (!cur) {
    ImGui::TextDisabled("(nothing generated yet)");
    return;
  }
  token_flow(s.path_tokens(lane, true), diverge, mix_color(col, pal.window_bg, 0.78f), col, pal);
  if (cur->stop != StopReason::None) ImGui::TextDisabled("stopped: %s", stop_reason_name(cur->stop));

  // The top of the distribution this lane drew from at the cursor.
  const std::vector<Candidate>& dist = cur->sampling.final_dist;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float label_w = std::clamp(avail * 0.32f, fs * 3.0f, fs * 8.0f);
  const float bar_w = std::clamp(avail - label_w - ImGui::CalcTextSize("100.0%").x - fs * 1.2f,
                                 fs * 2.0f, fs * 12.0f);
  const int n = std::min<int>(5, static_cast<int>(dist.size()));
  for (int i = 0; i < n; ++i) {
    ImGui::PushID(i);
    const std::string label = s.tokenizer().display_piece(dist[i].id);
    draw_prob_bar_row(label.c_str(), label_w, dist[i].p, bar_w, col, dist[i].id == cur->token);
    if (ImGui::IsItemHovered()) ui.hover.token_id = dist[i].id, ui.hover.lane = lane;
    ImGui::PopID();
  }
  // How many tokens the final distribution kept (the record holds only its top).
  const int kept = cur->sampling.stages.empty() ? static_cast<int>(dist.size())
                                                 : cur->sampling.stages.back().n_kept;
  if (kept > n) ImGui::TextDisabled("... and %d more possible tokens", kept - n);
  const DrawRecord& d = cur->sampling.draw;
  if (cur->forced)
    ImGui::Text("forced: %s", cur->display.c_str());
  else if (d.greedy)
    ImGui::Text("greedy: %s (p %.2f)", cur->display.c_str(), cur->chosen_p);
  else
    ImGui::Text("u = %.3f drew %s (p %.2f)", d.u, cur->display.c_str(), cur->chosen_p);
}

}  // namespace

void draw_compare_panel(const Session& s, UiState& ui, Commands& cmd) {
  if (!begin_panel(ui, PanelId::Compare)) return;
  const Palette& pal = palette(ui.theme);
  const float fs = ImGui::GetFontSize();
  if (!s.has_model()) {
    text_wrapped("Load a model, then add lanes to run several samplers side by side on the "
                       "same prompt and seed.");
    end_panel();
    return;
  }
  // Add-lane presets (same seed as lane 0: common random numbers, so differences come from the
  // sampler alone).
  const bool full = s.lane_count() >= kMaxLanes;
  if (full) ImGui::BeginDisabled();
  if (ImGui::Button("add lane...")) ImGui::OpenPopup("presets");
  if (full) ImGui::EndDisabled();
  if (ImGui::BeginPopup("presets")) {
    for (const Preset& p : kPresets)
      if (ImGui::Selectable(p.label)) cmd.push(cmd::AddLane{preset_settings(p, s.settings(0).seed)});
    ImGui::EndPopup();
  }
  ImGui::SameLine();
  const int diverge = s.lane_count() > 1 ? s.first_divergence() : -1;
  if (s.lane_count() < 2) {
    text_wrapped("One lane only. Add a lane (e.g. greedy next to temperature 0.8) to see "
                       "where sampling choices make the texts part ways.");
  } else if (s.cursor() < 0) {
    text_wrapped("Press Step: all lanes share the prefill, then step together.");
  } else if (diverge >= 0) {
    text_wrapped("The lanes first choose differently at step %d (outlined).", diverge);
  } else {
    text_wrapped("So far every lane chose the same tokens.");
  }

  // One column per lane; below ~11 font sizes per column the table scrolls sideways instead.
  const int n = s.lane_count();
  const float min_col = fs * 11.0f;
  const bool scroll_x = ImGui::GetContentRegionAvail().x < n * (min_col + fs);
  ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY;
  flags |= scroll_x ? ImGuiTableFlags_ScrollX : ImGuiTableFlags_SizingStretchSame;
  const ImVec2 size(0, std::max(ImGui::GetContentRegionAvail().y, fs * 6.0f));
  if (ImGui::BeginTable("lanes", n, flags, size)) {
    for (int i = 0; i < n; ++i) {
      ImGui::PushID(i);
      if (scroll_x)
        ImGui::TableSetupColumn("##lane", ImGuiTableColumnFlags_WidthFixed, min_col);
      else
        ImGui::TableSetupColumn("##lane", ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::PopID();
    }
    ImGui::TableNextRow();
    for (int i = 0; i < n; ++i) {
      ImGui::TableSetColumnIndex(i);
      ImGui::PushID(i);
      lane_column(s, i, diverge, ui, cmd, pal);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  end_panel();
}

}  // namespace ts
