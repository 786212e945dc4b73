// Next-token distribution panel, the centre of the lesson: the top candidates as bars at a chosen
// stage of the sampler chain (raw logits, after each stage with cut tokens greyed under the cut
// line, the renormalised final distribution), entropy and the chosen token's rank, the cumulative
// strip with the uniform draw u, "sample this step N times" beside the probabilities, and
// "predict, then reveal". Clicking a bar forces that token (a branch);
// right-clicking one makes it the rival of the Why this token panel. Reads the session only.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/panels/distribution_parts.h"
#include "app/panels/panels.h"
#include "app/panels/stage_trace.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/cumulative_strip.h"
#include "app/widgets/prob_bars.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "sampling/chain_inspect.h"
#include "session/histogram.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

using namespace distribution;  // the panel's own parts

namespace {

// Whether the sampler moved the top candidates' probabilities at all (temperature 1 and cuts
// that keep everything leave the final distribution equal to the raw one: no outline to explain).
bool sampler_changed(const SamplingRecord& rec) {
  const size_t n = std::min<size_t>(8, std::min(rec.raw.size(), rec.final_dist.size()));
  if (rec.raw.size() != rec.final_dist.size() && rec.final_dist.size() < 8) return true;
  for (size_t i = 0; i < n; ++i)
    if (rec.raw[i].id != rec.final_dist[i].id || std::abs(rec.raw[i].p - rec.final_dist[i].p) > 1e-4f)
      return true;
  return false;
}

// "Sample ×1,000" and the options button (log scale, predict then reveal, what the outlines are),
// right-aligned on the chain's row when they fit there, else on a row of their own.
void tools(const Session& s, const PanelEnv& env, DistributionPanelState& own, int lane, int node,
           Commands& cmd) {
  const ImGuiStyle& gs = ImGui::GetStyle();
  ImGui::PushFont(app_font(FontRole::Small));
  const std::string label = "Sample ×" + with_thousands(own.histogram_samples);
  const float w = ImGui::CalcTextSize(label.c_str()).x + gs.FramePadding.x * 2 +
                  ImGui::GetFrameHeight() + gs.ItemSpacing.x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + gs.ItemSpacing.x * 3 + w <= right)
    ImGui::SameLine(right - w);
  if (ImGui::Button(label.c_str())) {
    Result<Histogram> h = histogram(s, own.histogram_samples, lane);
    if (h.ok()) {
      own.histogram = HistogramView{lane, node, h->n_samples, h->ids, h->counts, h->p};
    } else {
      cmd.push(cmd::Notice{h.error().message, true});
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("draw this step %s times with its own sampler: each bar then shows how "
                      "often it came up (thin bars, counts)",
                      with_thousands(own.histogram_samples).c_str());
  note_last_item(env.log, "button", "histogram");
  ImGui::SameLine();
  if (ImGui::Button("⋯")) ImGui::OpenPopup("dist_options");
  note_last_item(env.log, "button", "dist_options");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("view options");
  ImGui::PopFont();
  if (ImGui::BeginPopup("dist_options")) {
    ImGui::Checkbox("log scale", &own.log_scale);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("bar length by log10(p), from 0.01%%: the unlikely tokens become visible");
    ImGui::Checkbox("predict, then reveal", &env.sel.predict_then_reveal);
    ImGui::Separator();
    ImGui::TextDisabled("Outlined bars: the raw model under a sampler view,");
    ImGui::TextDisabled("the final distribution under the raw view.");
    ImGui::EndPopup();
  }
}

// With several lanes: one radio button per lane, in its colour.
void lane_selector(const Session& s, const PanelEnv& env, const Palette& pal, int lane) {
  if (lane_count(s) <= 1) return;
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

// Where the panel shows something other than the step's bars: nothing computed yet, a step
// into before its logits, a prompt position's prediction, the outcome hidden until revealed.
// True when it drew that instead.
bool instead_of_bars(const Session& s, const PanelEnv& env, const DistributionPanelState& own,
                     const Step* st, int lane) {
  if (!st) {
    text_wrapped(
        "Nothing computed yet. Step once (Right arrow) to run the prefill: the "
        "model then predicts a distribution over its %d tokens.",
        s.tokenizer().vocab_size());
    return true;
  }
  if (!phase_revealed(s, PhaseKind::Logits)) {
    text_wrapped("Stepping into step %d: the distribution appears at the logits phase.", st->index);
    return true;
  }
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  if (env.sel.selected_position >= 0 && env.sel.selected_position < n_prompt - 1) {
    draw_prompt_prediction(s, env, lane, env.sel.selected_position);
    return true;
  }
  if (!outcome_hidden(s, env.sel)) return false;
  ImGui::PushFont(app_font(FontRole::Large));
  text_wrapped(
      "%s", own.ask_text.empty() ? "What comes next? Predict, then reveal." : own.ask_text.c_str());
  ImGui::PopFont();
  if (ImGui::Button("Reveal the distribution")) env.sel.revealed_node = shown_node(s, env.sel);
  return true;
}

// The cumulative strip of the final distribution with the random number u and the chosen token;
// its legend says what the thin bars (samples) or the outlines are.
void draw_strip(const Session& s, const Step& st, const ViewChoice& v,
                const DistributionPanelState& own, bool hist_valid, float strip_h,
                const Palette& pal, const PanelEnv& env) {
  const SamplingRecord& rec = st.sampling;
  std::vector<StripSegment> segs;
  for (const Candidate& c : rec.final_dist) {
    StripSegment sg;
    sg.id = c.id;
    sg.label = s.tokenizer().display_piece(c.id);
    sg.chosen = c.id == st.sampled_token;
    segs.push_back(sg);
  }
  double cum = 0;
  for (size_t i = 0; i < segs.size(); ++i) {
    segs[i].lo = cum;
    cum += rec.final_dist[i].p;
    segs[i].hi = cum;
  }
  ImGui::Spacing();
  StripLegend legend;  // what the thin bars are, else what the outlines are
  if (hist_valid) {
    legend.text = "thin bars: " + with_thousands(own.histogram.n_samples) + " samples";
    legend.color = pal.histogram_text;
  } else if (!rec.draw.greedy && sampler_changed(rec)) {
    legend.text =
        v.stage == DistStage::Raw ? "outlines: after the sampler" : "outlines: the raw model";
  }
  const int hov = draw_cumulative_strip("strip", segs, rec.draw.greedy ? -1.0 : rec.draw.u, strip_h,
                                        pal, env.log, legend);
  if (hov >= 0) env.sel.hover.token_id = hov;
}

// This frame's bar budget, for the growth rule below.
struct RowBudget {
  float bars_top = 0;  // where the list started
  float avail = 0;     // the height the list was given (rows and what the list adds)
  float rh = 0, rh_min = 0, rh_max = 0;
  int want = 8, n_rows = 0;
  float list_extra = 0;  // what the list took beyond its rows
};

// The bars' share of the panel: the height left above the strip (and the cut label's strip,
// when this view can have one), the row height and how many rows, corrected by what the last
// frame measured (update_row_budget).
RowBudget row_budget(DistributionPanelState& own, const ViewChoice& v, bool drawn, float strip_h) {
  const ImGuiStyle& gs = ImGui::GetStyle();
  const float bottom_h =
      drawn ? strip_h + app_font(FontRole::Small)->FontSize + 4.0f + gs.ItemSpacing.y * 2 : 0.0f;
  const float cut_strip =
      v.stage == DistStage::Stage ? app_font(FontRole::Small)->FontSize + 4.0f : 0.0f;
  // (the bar list ends with a 1-pixel item and its spacing)
  // (the reservations below are estimates: what the last frame left unused is added back)
  // What a frame left over belongs to the panel's height then: a panel just resized (focus
  // mode, a new layout) starts from the estimates, or it would overflow for a frame.
  if (own.budget_height != ImGui::GetWindowHeight()) {
    own.spare_px = 0;
    own.grew = false;
    own.budget_height = ImGui::GetWindowHeight();
  }
  RowBudget b;
  b.bars_top = ImGui::GetCursorPosY();
  b.avail = ImGui::GetContentRegionAvail().y - bottom_h - cut_strip - gs.ItemSpacing.y - 2.0f +
            own.spare_px;
  // Rows shrink from their comfortable height towards their label's height, so that at least
  // eight bars show on a projector; a panel too short for that scrolls (three bars at least).
  b.rh_max = prob_bar_row_height();
  b.rh_min = app_font(FontRole::Mono)->FontSize + 2.0f;
  b.want = std::min(own.top_n, 8);
  // (the rows' share: the budget less what the list added beyond its rows last frame)
  const float rows_avail = b.avail - own.list_extra_px;
  b.rh = std::clamp(rows_avail / static_cast<float>(b.want), b.rh_min, b.rh_max);
  const int fit = std::max(3, static_cast<int>(rows_avail / b.rh));
  b.n_rows = std::min(own.top_n, fit);
  return b;
}

// One scale for the bars, their raw-model outlines and the sampled frequencies of this view
// (linear, magnified when nearly flat, or log); under the raw view the logits and the outline
// say what the sampler made of each token.
BarListStyle bar_style(const std::vector<BarRow>& rows, const DistributionPanelState& own,
                       const ViewChoice& v, float row_height) {
  BarListStyle style;
  style.row_height = row_height;
  float top = 0;
  for (const BarRow& r : rows) top = std::max({top, r.p, r.ref_p, r.empirical});
  style.log_scale = own.log_scale;
  if (own.log_scale)
    style.scale_max = std::min(1.0f, std::max(top, kScaleFloor));
  else
    set_linear_scale(style, top);
  if (v.stage == DistStage::Raw) style.ref_note = "after the sampler it has";
  style.show_logits = v.stage == DistStage::Raw;
  return style;
}

// Whole rows left empty at the bottom go to the bars next frame; an overflow is taken back.
// Measured, not estimated: the rows' height plus what is left below the strip is what the rows
// can have next frame, and the budget is corrected to exactly that (the reservations for the
// strip and the lines are estimates; an estimate's error once gave a row that overflowed).
void update_row_budget(const RowBudget& b, DistributionPanelState& own) {
  const float spare = ImGui::GetContentRegionAvail().y;
  const float rows_h = static_cast<float>(b.n_rows) * b.rh;
  const float rows_cap = rows_h + spare;  // the rows' height if they took what is left
  // (never back to a count that overflowed at this height: that would flicker between two)
  const float height = ImGui::GetWindowHeight();
  const int blocked =
      own.overflow_height == height && own.overflow_top == b.bars_top ? own.overflow_rows : INT_MAX;
  // (the rows' height with that budget: they shrink only while fewer than `want` would fit)
  const float next_rh = std::clamp(rows_cap / static_cast<float>(b.want), b.rh_min, b.rh_max);
  const bool could_grow =
      (b.n_rows < own.top_n && b.n_rows + 1 < blocked &&
       rows_cap >= static_cast<float>(b.n_rows + 1) * next_rh) ||
      (b.n_rows == own.top_n && b.n_rows < blocked && b.rh < b.rh_max && spare >= 1.0f);
  if (spare < 0 && own.grew) {  // our own growth overflowed: do not try that count again
    own.overflow_rows = b.n_rows;
    own.overflow_height = height;
    own.overflow_top = b.bars_top;
  }
  own.grew = could_grow && spare > 0;
  own.list_extra_px = b.list_extra;
  // The budget the list did not use (its estimate's error) comes off with what is left over:
  // next frame's budget is the list's height plus what was left below the strip.
  const float unused = b.avail - (rows_h + b.list_extra);
  if (could_grow || spare < 0)
    own.spare_px = std::clamp(own.spare_px + spare - unused, -height, height);
}

}  // namespace

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
  lane_selector(s, env, pal, lane);
  if (instead_of_bars(s, env, own, st, lane)) {
    end_panel();
    return;
  }
  const int node = shown_node(s, env.sel);
  const SamplingRecord& rec = st->sampling;
  const ViewChoice v = effective_view(s, env, own, rec);
  const bool hist_valid =
      own.histogram.lane == lane && own.histogram.node == node && own.histogram.n_samples > 0;
  // Row 1: the chain (raw -> stages that are on -> final) and, at its right, "Sample ×N" and the
  // view options; they take a row of their own only when both do not fit.
  view_selector(s, env, own, rec, v);
  tools(s, env, own, lane, node, cmd);
  // The chain inspector: the stages that changed nothing at this step or never can.
  const SamplerSettings& used = st->sampler ? *st->sampler : settings(s, lane);
  const std::string inspected = inspector_line(used, inspect_chain(used, &rec), false);
  if (!inspected.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("idle stages: %s", inspected.c_str());
    ImGui::PopStyleColor();
  }
  const bool drawn = phase_revealed(s, PhaseKind::Draw);
  if (drawn) {
    draw_summary(s, *st, v, env);
    draw_stage_trace(s, lane, *st, v, env);  // mirostat's mu over the steps
  }

  // The strip (its bar and the u label) at the bottom; the bars take the height between.
  const float strip_h = ImGui::GetFontSize() * 1.2f;
  RowBudget b = row_budget(own, v, drawn, strip_h);
  int cut_after = -1, gap_before = -1;
  std::string cut_label;
  const std::vector<BarRow> rows =
      make_rows(s, rec, v, b.n_rows, drawn ? st->token : -1, hist_valid ? &own.histogram : nullptr,
                &cut_after, &cut_label, &gap_before);
  BarListStyle style = bar_style(rows, own, v, b.rh);
  style.cut_after = cut_after;
  style.cut_label = cut_label;
  style.gap_before = gap_before;
  const BarListResult res = draw_prob_bars("bars", rows, style, pal, env.log);
  // What the list took beyond its rows (a gap row, the cut line and its label, the spacing).
  b.list_extra =
      std::max(0.0f, ImGui::GetCursorPosY() - b.bars_top - static_cast<float>(rows.size()) * b.rh);
  if (res.hovered_id >= 0) env.sel.hover.token_id = res.hovered_id;
  if (res.clicked_id >= 0) cmd.push(cmd::Force{res.clicked_id, lane});
  if (res.right_clicked_id >= 0) env.sel.rival_token = res.right_clicked_id;  // Why this token
  if (drawn) draw_strip(s, *st, v, own, hist_valid, strip_h, pal, env);
  update_row_budget(b, own);
  end_panel();
}

}  // namespace ts
