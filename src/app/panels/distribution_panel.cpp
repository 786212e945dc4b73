// Next-token distribution panel, the centre of the lesson: the top candidates as bars at a chosen
// stage of the sampler chain (raw logits, after each stage with cut tokens greyed under the cut
// line, the renormalised final distribution), entropy and the chosen token's rank, the cumulative
// strip with the uniform draw u, "sample this step N times" beside the probabilities, and
// "predict, then reveal". Clicking a bar forces that token (a branch). Reads the session only.
#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_map>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/cumulative_strip.h"
#include "app/widgets/prob_bars.h"
#include "imgui.h"
#include "session/session.h"

namespace ts {
namespace {

// The view actually shown: while stepping into an iteration it follows the newest revealed phase.
struct ViewChoice {
  DistStage stage = DistStage::Final;
  int index = 0;
};

ViewChoice effective_view(const Session& s, const UiState& ui, const SamplingRecord& rec) {
  ViewChoice v{ui.dist_stage,
               std::clamp(ui.dist_stage_index, 0, std::max(0, (int)rec.stages.size() - 1))};
  if (v.stage == DistStage::Stage && rec.stages.empty()) v.stage = DistStage::Final;
  if (!stepping_into(s)) return v;
  if (phase_revealed(s, PhaseKind::Draw)) return {DistStage::Final, 0};
  ViewChoice last{DistStage::Raw, 0};
  for (int i = 0; i < static_cast<int>(rec.stages.size()); ++i)
    if (stage_revealed(s, i)) last = {DistStage::Stage, i};
  return last;
}

void view_selector(const Session& s, UiState& ui, const SamplingRecord& rec, ViewChoice shown) {
  const bool into = stepping_into(s);
  auto button = [&](const char* label, DistStage st, int idx, bool revealed) {
    const bool active = shown.stage == st && (st != DistStage::Stage || shown.index == idx);
    const float w = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2;
    if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    ImGui::PushID(idx + 100 * static_cast<int>(st));
    ImGui::BeginDisabled(!revealed || into);
    if (active)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(label)) {
      ui.dist_stage = st;
      ui.dist_stage_index = idx;
    }
    if (active) ImGui::PopStyleColor();
    ImGui::EndDisabled();
    ImGui::PopID();
    ImGui::SameLine();
  };
  button("raw logits", DistStage::Raw, 0, phase_revealed(s, PhaseKind::Logits));
  for (int i = 0; i < static_cast<int>(rec.stages.size()); ++i) {
    ImGui::TextDisabled("→");
    ImGui::SameLine();
    button(rec.stages[i].name.c_str(), DistStage::Stage, i, stage_revealed(s, i));
  }
  ImGui::TextDisabled("→");
  ImGui::SameLine();
  button("final", DistStage::Final, 0, phase_revealed(s, PhaseKind::Draw));
  ImGui::NewLine();
}

// Rows for the view: kept candidates by probability, then the ones this stage cut (their bar is
// the probability they had before the cut).
std::vector<BarRow> make_rows(const Session& s, const SamplingRecord& rec, ViewChoice v, int n,
                              int chosen, const HistogramView* hist, int* cut_after,
                              std::string* cut_label) {
  const std::vector<Candidate>* list = &rec.final_dist;
  const std::vector<Candidate>* before = nullptr;
  if (v.stage == DistStage::Raw) list = &rec.raw;
  if (v.stage == DistStage::Stage) {
    list = &rec.stages[v.index].top;
    before = v.index == 0 ? &rec.raw : &rec.stages[v.index - 1].top;
  }
  std::unordered_map<int, float> p_before;
  if (before)
    for (const Candidate& c : *before) p_before[c.id] = c.p;
  std::unordered_map<int, float> empirical;
  if (hist && hist->n_samples > 0)
    for (size_t i = 0; i < hist->ids.size(); ++i)
      empirical[hist->ids[i]] = static_cast<float>(hist->counts[i]) / hist->n_samples;
  std::vector<BarRow> kept, cut;
  for (const Candidate& c : *list) {
    BarRow r;
    r.id = c.id;
    r.label = s.tokenizer().display_piece(c.id);
    r.p = c.p;
    r.logit = c.logit;
    r.kept = c.kept;
    r.chosen = c.id == chosen;
    if (hist) {
      auto it = empirical.find(c.id);
      r.empirical = it == empirical.end() ? 0.0f : it->second;
    }
    if (!c.kept) {
      auto it = p_before.find(c.id);
      r.p = it == p_before.end() ? 0.0f : it->second;
      cut.push_back(r);
    } else {
      kept.push_back(r);
    }
  }
  auto by_p = [](const BarRow& a, const BarRow& b) { return a.p != b.p ? a.p > b.p : a.id < b.id; };
  std::stable_sort(kept.begin(), kept.end(), by_p);
  std::stable_sort(cut.begin(), cut.end(), by_p);
  // Kept tokens first, then the cut line, then a few of the cut ones (always visible, even
  // when more tokens were kept than fit: the label says how many remain).
  const int n_cut = std::min(static_cast<int>(cut.size()), std::max(1, n / 4));
  const int n_kept = std::min(static_cast<int>(kept.size()), cut.empty() ? n : n - n_cut);
  *cut_after = -1;
  if (!cut.empty() && n_kept > 0) {
    *cut_after = n_kept - 1;
    const StageRecord& sr = rec.stages[v.index];
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s cut here: %d tokens remain", sr.name.c_str(), sr.n_kept);
    *cut_label = buf;
  }
  std::vector<BarRow> rows(kept.begin(), kept.begin() + n_kept);
  rows.insert(rows.end(), cut.begin(), cut.begin() + std::min<int>(cut.size(), n - n_kept));
  if (static_cast<int>(rows.size()) > n) rows.resize(n);
  return rows;
}

float max_p(const SamplingRecord& rec) {
  float m = 0;
  for (const Candidate& c : rec.raw) m = std::max(m, c.p);
  for (const StageRecord& st : rec.stages)
    for (const Candidate& c : st.top) m = std::max(m, c.p);
  for (const Candidate& c : rec.final_dist) m = std::max(m, c.p);
  return m;
}

void draw_summary(const Session& s, const Step& st, int lane) {
  const DrawRecord& d = st.sampling.draw;
  const int predicted_pos = st.position;
  ImGui::Text("Step %d (%s) predicts position %d", st.index, st.index == 0 ? "prefill" : "decode",
              predicted_pos);
  ImGui::SameLine();
  ImGui::TextDisabled("·  entropy %.2f bits (raw %.2f)", d.entropy, d.raw_entropy);
  ImGui::PushFont(app_font(FontRole::Bold));
  ImGui::Text("chosen %s", s.tokenizer().display_piece(st.token).c_str());
  ImGui::PopFont();
  ImGui::SameLine();
  if (st.forced) {
    ImGui::Text("forced (the sampler chose %s)",
                s.tokenizer().display_piece(st.sampled_token).c_str());
  } else {
    ImGui::Text("p %.1f%%  ·  rank %d%s", 100.0 * st.chosen_p, st.chosen_rank + 1,
                d.greedy ? "  ·  greedy: the most probable token, no draw" : "");
  }
  (void)lane;
}

}  // namespace

void draw_distribution_panel(const Session& s, UiState& ui, Commands& cmd) {
  if (!begin_panel(ui, PanelId::Distribution)) return;
  const Palette& pal = palette(ui.theme);
  const Step* st = shown_step(s, ui);
  if (!s.has_model()) {
    ImGui::TextWrapped("No model loaded. %s", ui.no_model_hint.c_str());
    end_panel();
    return;
  }
  const int lane = shown_lane(s, ui);
  if (s.lane_count() > 1) {
    for (int i = 0; i < s.lane_count(); ++i) {
      ImGui::PushID(i);
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(lane_color(pal, i)));
      const std::string label =
          s.settings(i).label.empty() ? "lane " + std::to_string(i) : s.settings(i).label;
      if (ImGui::RadioButton(label.c_str(), lane == i)) ui.selected_lane = i;
      ImGui::PopStyleColor();
      ImGui::PopID();
      ImGui::SameLine();
    }
    ImGui::NewLine();
  }
  if (!st) {
    ImGui::TextWrapped(
        "Nothing computed yet. Step once (Right arrow) to run the prefill: the "
        "model then predicts a distribution over its %d tokens.",
        s.tokenizer().vocab_size());
    end_panel();
    return;
  }
  if (!phase_revealed(s, PhaseKind::Logits)) {
    ImGui::TextWrapped("Stepping into step %d: the distribution appears at the logits phase.",
                       st->index);
    end_panel();
    return;
  }
  const int node = shown_node(s, ui);
  if (outcome_hidden(s, ui)) {
    ImGui::PushFont(app_font(FontRole::Large));
    ImGui::TextWrapped(
        "%s", ui.ask_text.empty() ? "What comes next? Predict, then reveal." : ui.ask_text.c_str());
    ImGui::PopFont();
    if (ImGui::Button("Reveal the distribution")) ui.revealed_node = node;
    end_panel();
    return;
  }
  const SamplingRecord& rec = st->sampling;
  const ViewChoice v = effective_view(s, ui, rec);
  view_selector(s, ui, rec, v);
  const bool drawn = phase_revealed(s, PhaseKind::Draw);
  if (drawn) draw_summary(s, *st, lane);

  const bool hist_valid =
      ui.histogram.lane == lane && ui.histogram.node == node && ui.histogram.n_samples > 0;
  // Bottom block: strip (2 lines + label), the buttons row.
  const float line = ImGui::GetFrameHeightWithSpacing();
  const float bottom_h = (drawn ? line * 2.2f : 0.0f) + line * 1.2f;
  const float avail = ImGui::GetContentRegionAvail().y - bottom_h;
  const int fit = std::max(1, static_cast<int>(avail / prob_bar_row_height()));
  const int n_rows = std::min(ui.dist_top_n, fit);
  int cut_after = -1;
  std::string cut_label;
  const std::vector<BarRow> rows =
      make_rows(s, rec, v, n_rows, drawn ? st->token : -1, hist_valid ? &ui.histogram : nullptr,
                &cut_after, &cut_label);
  BarListStyle style;
  style.scale_max = std::max(0.05f, max_p(rec));
  style.show_logits = v.stage == DistStage::Raw;
  style.cut_after = cut_after;
  style.cut_label = cut_label;
  const BarListResult res = draw_prob_bars("bars", rows, style, pal, ui);
  if (res.hovered_id >= 0) ui.hover.token_id = res.hovered_id;
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
                                          ImGui::GetFontSize() * 1.4f, pal, ui);
    if (hov >= 0) ui.hover.token_id = hov;
  }

  char label[64];
  std::snprintf(label, sizeof label, "Sample this step %d times", ui.histogram_samples);
  if (ImGui::Button(label)) {
    Result<Histogram> h = s.histogram(ui.histogram_samples, lane);
    if (h.ok()) {
      ui.histogram = HistogramView{lane, node, h->n_samples, h->ids, h->counts, h->p};
    } else {
      ui.set_message(h.error().message, true);
    }
  }
  if (hist_valid) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.histogram), "■");
    ImGui::SameLine();
    ImGui::TextDisabled("sampled %d times (thin bars)", ui.histogram.n_samples);
  }
  ImGui::SameLine();
  ImGui::Checkbox("predict, then reveal", &ui.predict_then_reveal);
  end_panel();
}

}  // namespace ts
