// Next-token distribution panel, the centre of the lesson: the top candidates as bars at a chosen
// stage of the sampler chain (raw logits, after each stage with cut tokens greyed under the cut
// line, the renormalised final distribution), entropy and the chosen token's rank, the cumulative
// strip with the uniform draw u, "sample this step N times" beside the probabilities, and
// "predict, then reveal". Clicking a bar forces that token (a branch). Reads the session only.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/panels/distribution_parts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/cumulative_strip.h"
#include "app/widgets/prob_bars.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/histogram.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

using namespace distribution;  // the panel's own parts

void draw_distribution_panel(const Session& s, const PanelEnv& env, DistributionPanelState& own,
                             Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Distribution)) return;
  const Palette& pal = palette(env.prefs.theme);
  const Step* st = shown_step(s, env.sel);
  if (!has_model(s)) {
    text_wrapped("No model loaded. %s", env.status.no_model_hint.c_str());
    end_panel();
    return;
  }
  const int lane = shown_lane(s, env.sel);
  if (lane_count(s) > 1) {
    for (int i = 0; i < lane_count(s); ++i) {
      ImGui::PushID(i);
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(lane_color(pal, i)));
      const std::string label =
          settings(s, i).label.empty() ? "lane " + std::to_string(i) : settings(s, i).label;
      if (ImGui::RadioButton(label.c_str(), lane == i)) env.sel.selected_lane = i;
      ImGui::PopStyleColor();
      ImGui::PopID();
      ImGui::SameLine();
    }
    ImGui::NewLine();
  }
  if (!st) {
    text_wrapped(
        "Nothing computed yet. Step once (Right arrow) to run the prefill: the "
        "model then predicts a distribution over its %d tokens.",
        s.tokenizer().vocab_size());
    end_panel();
    return;
  }
  if (!phase_revealed(s, PhaseKind::Logits)) {
    text_wrapped("Stepping into step %d: the distribution appears at the logits phase.",
                       st->index);
    end_panel();
    return;
  }
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  if (env.sel.selected_position >= 0 && env.sel.selected_position < n_prompt - 1) {
    draw_prompt_prediction(s, env, lane, env.sel.selected_position);
    end_panel();
    return;
  }
  const int node = shown_node(s, env.sel);
  if (outcome_hidden(s, env.sel)) {
    ImGui::PushFont(app_font(FontRole::Large));
    text_wrapped("%s", own.ask_text.empty() ? "What comes next? Predict, then reveal."
                                            : own.ask_text.c_str());
    ImGui::PopFont();
    if (ImGui::Button("Reveal the distribution")) env.sel.revealed_node = node;
    end_panel();
    return;
  }
  const SamplingRecord& rec = st->sampling;
  const ViewChoice v = effective_view(s, env, own, rec);
  view_selector(s, env, own, rec, v);
  const bool drawn = phase_revealed(s, PhaseKind::Draw);
  if (drawn) draw_summary(s, *st, v, env);

  const bool hist_valid =
      own.histogram.lane == lane && own.histogram.node == node && own.histogram.n_samples > 0;
  // Bottom block: the strip (its bar, the u label) and the buttons row.
  const ImGuiStyle& gs = ImGui::GetStyle();
  const float strip_h = ImGui::GetFontSize() * 1.2f;
  const float bottom_h =
      (drawn ? strip_h + app_font(FontRole::Small)->FontSize + 4.0f + gs.ItemSpacing.y * 2 : 0) +
      ImGui::GetFrameHeightWithSpacing();
  const float cut_strip = app_font(FontRole::Small)->FontSize + 4.0f;  // the cut label's strip
  const float avail = ImGui::GetContentRegionAvail().y - bottom_h - cut_strip;
  // At least three bars even when the panel is short (then the panel scrolls).
  const int fit = std::max(3, static_cast<int>(avail / prob_bar_row_height()));
  const int n_rows = std::min(own.top_n, fit);
  int cut_after = -1, gap_before = -1;
  std::string cut_label;
  const std::vector<BarRow> rows =
      make_rows(s, rec, v, n_rows, drawn ? st->token : -1, hist_valid ? &own.histogram : nullptr,
                &cut_after, &cut_label, &gap_before);
  BarListStyle style;
  // One scale for the bars, their raw-model outlines and the sampled frequencies of this view.
  float top = 0.05f;
  for (const BarRow& r : rows) top = std::max({top, r.p, r.ref_p, r.empirical});
  style.scale_max = std::min(1.0f, top);
  style.log_scale = own.log_scale;
  if (v.stage == DistStage::Raw) style.ref_note = "after the sampler it has";
  style.show_logits = v.stage == DistStage::Raw;
  style.cut_after = cut_after;
  style.cut_label = cut_label;
  style.gap_before = gap_before;
  const BarListResult res = draw_prob_bars("bars", rows, style, pal, env.log);
  if (res.hovered_id >= 0) env.sel.hover.token_id = res.hovered_id;
  if (res.clicked_id >= 0) cmd.push(cmd::Force{res.clicked_id, lane});

  if (drawn) {
    std::vector<StripSegment> segs;
    for (const Candidate& c : rec.final_dist) {
      StripSegment sg;
      sg.id = c.id;
      sg.label = s.tokenizer().display_piece(c.id);
      sg.chosen = c.id == st->sampled_token;
      segs.push_back(sg);
    }
    double cum = 0;
    for (size_t i = 0; i < segs.size(); ++i) {
      segs[i].lo = cum;
      cum += rec.final_dist[i].p;
      segs[i].hi = cum;
    }
    ImGui::Spacing();
    const int hov = draw_cumulative_strip("strip", segs, rec.draw.greedy ? -1.0 : rec.draw.u,
                                          strip_h, pal, env.log);
    if (hov >= 0) env.sel.hover.token_id = hov;
  }

  // "Sample this step 1,000 times" (shortened when the panel is narrow), the histogram legend,
  // and the predict-then-reveal switch when it fits (it is also in the View menu).
  const std::string n_text = with_thousands(own.histogram_samples);
  std::string label = "Sample this step " + n_text + " times";
  if (ImGui::CalcTextSize(label.c_str()).x + gs.FramePadding.x * 2 >
      ImGui::GetContentRegionAvail().x * 0.6f)
    label = "Sample ×" + n_text;
  if (ImGui::Button(label.c_str())) {
    Result<Histogram> h = histogram(s, own.histogram_samples, lane);
    if (h.ok()) {
      own.histogram = HistogramView{lane, node, h->n_samples, h->ids, h->counts, h->p};
    } else {
      cmd.push(cmd::Notice{h.error().message, true});
    }
  }
  note_last_item(env.log, "button", "histogram");
  auto fits = [&](const char* text, float extra) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    return right - ImGui::GetItemRectMax().x - gs.ItemSpacing.x >
           ImGui::CalcTextSize(text).x + extra;
  };
  if (hist_valid) {
    char legend[64];
    std::snprintf(legend, sizeof legend, "sampled %s times (thin bars)",
                  with_thousands(own.histogram.n_samples).c_str());
    if (fits(legend, ImGui::GetFontSize() * 2)) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.histogram), "■");
      ImGui::SameLine();
      ImGui::TextDisabled("%s", legend);
    }
  }
  {  // what the outlines are (raw and final overlaid)
    const char* outline = v.stage == DistStage::Raw ? "outline: after the sampler"
                                                    : "outline: the raw model";
    if (fits(outline, ImGui::GetFontSize() * 2)) {
      ImGui::SameLine();
      ImGui::TextDisabled("□ %s", outline);
    }
  }
  if (fits("log scale", ImGui::GetFrameHeight() * 1.5f)) {
    ImGui::SameLine();
    ImGui::Checkbox("log scale", &own.log_scale);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("bar length by log10(p), from 0.01%%: the unlikely tokens become visible");
  }
  const char* reveal_label = "predict, then reveal";
  if (fits(reveal_label, ImGui::GetFrameHeight() * 1.5f)) {
    ImGui::SameLine();
    ImGui::Checkbox(reveal_label, &env.sel.predict_then_reveal);
  }
  end_panel();
}

}  // namespace ts
