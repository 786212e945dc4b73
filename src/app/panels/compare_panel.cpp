// Compare panel: the session's lanes (2-4 samplers over one model, prompt and seed) side by side,
// each with its whole text up to the cursor, wrapped, the first step where the lanes' choices
// differ outlined in every text, and below, side by side, the distribution each lane drew from at
// that step (at the cursor while they agree). Buttons add a lane from presets or remove one (as
// commands). Reads the session only.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panels/dist_stats.h"
#include "app/panels/panels.h"
#include "app/panels/text_flow.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/charts.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

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
  stage<Temperature>(s).t = p.temperature;
  stage<TopK>(s).k = p.top_k;
  stage<TopP>(s).p = p.top_p;
  stage<MinP>(s).p = p.min_p;
  s.seed = seed;
  return s;
}

// A token's text as it reads in running text (the visible-space mark back to a space).
std::string running_text(const PathToken& t) {
  std::string s = t.display;
  for (size_t i; (i = s.find("\xE2\x90\xA3")) != std::string::npos;) s.replace(i, 3, " ");
  return s;
}

// The lane's whole text (the prompt dimmed, then the generated tokens up to the cursor), wrapped
// at the column width (text_flow.h) in a box at most max_h tall that scrolls; tokens chosen at or
// after step `diverge` get a tint, the one at `diverge` an outline (the fork in the road), and
// the box scrolls to show it.
void token_flow(const std::vector<PathToken>& toks, int lane, int diverge, ImU32 tint, ImU32 mark,
                float max_h, const PanelEnv& env, ComparePanelState& own, const Palette& pal) {
  const float fs = ImGui::GetFontSize();
  const float width = std::max(ImGui::GetContentRegionAvail().x - fs * 0.8f, fs * 4.0f);
  const float line_h = fs * 1.3f;
  std::vector<std::string> texts;
  std::vector<float> widths;
  for (const PathToken& t : toks) {
    texts.push_back(running_text(t));
    widths.push_back(ImGui::CalcTextSize(texts.back().c_str()).x);
  }
  float text_h = 0;
  const std::vector<FlowPos> pos = wrap_flow(widths, width, line_h, &text_h);
  const float box_h = std::min(text_h + fs * 0.3f, std::max(max_h, line_h * 2));
  ImGui::BeginChild("text", ImVec2(0, box_h), false);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t i = 0; i < toks.size(); ++i) {
    const PathToken& t = toks[i];
    const ImVec2 a(o.x + pos[i].x, o.y + pos[i].y), b(a.x + widths[i], a.y + fs * 1.15f);
    if (t.is_prompt) {
      dl->AddText(ImVec2(a.x, a.y + fs * 0.07f), pal.text_dim, texts[i].c_str());
      continue;
    }
    if (diverge >= 0 && t.step >= diverge) dl->AddRectFilled(a, b, tint);
    if (t.forced) dl->AddRectFilled(a, b, pal.forced_chip);
    if (t.step == diverge) {
      dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), mark, 0.0f, 0, 2.0f);
      env.log.note_drawn("diverge_token", std::to_string(lane) + " " + t.display, a.x, a.y,
                         b.x - a.x, b.y - a.y);
      if (own.scrolled_to != diverge) {  // scroll to the fork once per divergence
        own.scrolled_to = diverge;
        ImGui::SetScrollFromPosY(a.y - ImGui::GetWindowPos().y, 0.3f);
      }
    }
    dl->AddText(ImVec2(a.x, a.y + fs * 0.07f), pal.text, texts[i].c_str());
  }
  ImGui::Dummy(ImVec2(width, text_h));
  ImGui::EndChild();
}

// The distribution lane `lane` drew from at step `step` (a greedy lane: the raw model's, its
// final one being 100% on one token), its top as mini bars with the chosen token marked.
void step_distribution(const Session& s, int lane, int step, const PanelEnv& env,
                       ComparePanelState& own, const Palette& pal) {
  const float fs = ImGui::GetFontSize();
  const ImU32 col = lane_color(pal, lane);
  const Step* st = step_at(s, lane, step);
  if (!st) {
    ImGui::TextDisabled("(stopped before step %d)", step);
    return;
  }
  const SamplingRecord& rec = st->sampling;
  const bool raw = rec.draw.greedy;
  const std::vector<Candidate>& dist = raw ? rec.raw : rec.final_dist;
  const ViewStats vs = raw ? raw_stats(rec, st->token) : final_stats(*st);
  if (st->forced)
    text_wrapped("forced %s", st->display.c_str());
  else if (vs.p_known)
    text_wrapped("chose %s: p %.1f%%, rank %d %s", st->display.c_str(), 100.0 * vs.p,
                       vs.rank, raw ? "(greedy; raw model)" : "");
  else
    text_wrapped("chose %s", st->display.c_str());
  const float avail = ImGui::GetContentRegionAvail().x;
  const float label_w = std::clamp(avail * 0.32f, fs * 3.0f, fs * 8.0f);
  const float bar_w = std::clamp(avail - label_w - ImGui::CalcTextSize("100.0%").x - fs * 1.2f,
                                 fs * 2.0f, fs * 12.0f);
  const int n = std::min<int>(5, static_cast<int>(dist.size()));
  bool chosen_shown = false;
  for (int i = 0; i < n; ++i) {
    ImGui::PushID(i);
    const std::string label = s.tokenizer().display_piece(dist[i].id);
    const bool chosen = dist[i].id == st->token;
    chosen_shown |= chosen;
    draw_prob_bar_row(label.c_str(), label_w, dist[i].p, bar_w, col, chosen);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    env.log.note_drawn(chosen ? "compare_chosen" : "compare_bar",
                       std::to_string(lane) + " " + label, a.x, a.y, b.x - a.x, b.y - a.y);
    if (ImGui::IsItemHovered()) env.sel.hover.token_id = dist[i].id, env.sel.hover.lane = lane;
    ImGui::PopID();
  }
  if (!chosen_shown) ImGui::TextDisabled("%s is below these %d", st->display.c_str(), n);
  const int kept = raw ? s.tokenizer().vocab_size()
                       : rec.stages.empty() ? static_cast<int>(dist.size())
                                            : rec.stages.back().n_kept;
  if (kept > n) ImGui::TextDisabled("... and %d more possible tokens", kept - n);
  if (!st->forced && !rec.draw.greedy) ImGui::TextDisabled("u = %.3f", rec.draw.u);
}

void lane_header(const Session& s, int lane, const PanelEnv& env, ComparePanelState& own,
                 Commands& cmd, const Palette& pal) {
  const float fs = ImGui::GetFontSize();
  const ImU32 col = lane_color(pal, lane);
  const SamplerSettings& set = settings(s, lane);
  // Colour swatch, label, remove button, the sampler.
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(fs * 0.8f, fs));
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.15f),
                                            ImVec2(p.x + fs * 0.7f, p.y + fs * 0.85f), col);
  ImGui::SameLine();
  ImGui::TextUnformatted(set.label.empty() ? "lane" : set.label.c_str());
  if (lane_count(s) > 1) {
    ImGui::SameLine();
    if (ImGui::SmallButton("\xC3\x97")) cmd.push(cmd::RemoveLane{lane});  // "×"
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove this lane");
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    env.log.note_drawn("lane_remove", std::to_string(lane), a.x, a.y, b.x - a.x, b.y - a.y);
  }
  const std::string what = describe(set);
  if (what != set.label) {  // the sampler, unless the label already says it all
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
    text_wrapped("%s", what.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace

void draw_compare_panel(const Session& s, const PanelEnv& env, ComparePanelState& own,
                        Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Compare)) return;
  const Palette& pal = palette(env.prefs.theme);
  const float fs = ImGui::GetFontSize();
  if (!has_model(s)) {
    text_wrapped("Load a model, then add lanes to run several samplers side by side on the "
                       "same prompt and seed.");
    end_panel();
    return;
  }
  // Add-lane presets (same seed as lane 0: common random numbers, so differences come from the
  // sampler alone).
  const bool full = lane_count(s) >= kMaxLanes;
  if (full) ImGui::BeginDisabled();
  if (ImGui::Button("add lane...")) ImGui::OpenPopup("presets");
  if (full) ImGui::EndDisabled();
  if (ImGui::BeginPopup("presets")) {
    for (const Preset& p : kPresets)
      if (ImGui::Selectable(p.label))
        cmd.push(cmd::AddLane{preset_settings(p, settings(s, 0).seed)});
    ImGui::EndPopup();
  }
  ImGui::SameLine();
  const int diverge = lane_count(s) > 1 ? first_divergence(s) : -1;
  if (lane_count(s) < 2) {
    text_wrapped("One lane only. Add a lane (e.g. greedy next to temperature 0.8) to see "
                       "where sampling choices make the texts part ways.");
  } else if (s.cursor() < 0) {
    text_wrapped("Press Step: all lanes share the prefill, then step together.");
  } else if (diverge >= 0) {
    text_wrapped("The lanes first choose differently at step %d (outlined); below, what "
                       "each lane drew from there.", diverge);
  } else {
    text_wrapped("So far every lane chose the same tokens; below, what each drew from at "
                       "step %d.", s.cursor());
  }

  // One column per lane; below ~11 font sizes per column the table scrolls sideways instead.
  // Row 1: each lane's text; row 2: the distributions at the first divergence (at the cursor
  // while the lanes agree), side by side.
  const int n = lane_count(s);
  const float min_col = fs * 11.0f;
  const bool scroll_x = ImGui::GetContentRegionAvail().x < n * (min_col + fs);
  ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY;
  flags |= scroll_x ? ImGuiTableFlags_ScrollX : ImGuiTableFlags_SizingStretchSame;
  const float table_h = std::max(ImGui::GetContentRegionAvail().y, fs * 6.0f);
  const ImVec2 size(0, table_h);
  const int dist_step = diverge >= 0 ? diverge : s.cursor();
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
      lane_header(s, i, env, own, cmd, pal);
      const Step* cur = current_step(s, i);
      if (!cur) {
        ImGui::TextDisabled("(nothing generated yet)");
      } else {
        token_flow(path_tokens(s, i, true), i, diverge,
                   mix_color(lane_color(pal, i), pal.window_bg, 0.78f), lane_color(pal, i),
                   table_h * 0.35f, env, own, pal);
        if (cur->stop != StopReason::None)
          ImGui::TextDisabled("stopped: %s", stop_reason_name(cur->stop));
      }
      ImGui::PopID();
    }
    if (dist_step >= 0) {
      ImGui::TableNextRow();
      for (int i = 0; i < n; ++i) {
        ImGui::TableSetColumnIndex(i);
        ImGui::PushID(100 + i);
        ImGui::Separator();
        step_distribution(s, i, dist_step, env, own, pal);
        ImGui::PopID();
      }
    }
    ImGui::EndTable();
  }
  end_panel();
}

}  // namespace ts
