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

bool stage_off(const StageRecord& r) {
  return r.name.size() >= 4 && r.name.compare(r.name.size() - 4, 4, " off") == 0;
}

// Raw logits -> each stage of the chain -> final, as a row of buttons (stages that are off are
// dimmed; the tooltip names the stage's setting), or a combo box when the row does not fit.
void view_selector(const Session& s, UiState& ui, const SamplingRecord& rec, ViewChoice shown) {
  const bool into = stepping_into(s);
  struct Item {
    std::string label, detail;
    DistStage stage;
    int index;
    bool revealed, off;
  };
  std::vector<Item> items;
  items.push_back({"raw logits", "softmax of the raw logits", DistStage::Raw, 0,
                   phase_revealed(s, PhaseKind::Logits), false});
  for (int i = 0; i < static_cast<int>(rec.stages.size()); ++i) {
    const StageRecord& r = rec.stages[i];
    items.push_back({stage_name(r.kind),
                     r.name + " · " + std::to_string(r.n_kept) + " tokens remain", DistStage::Stage,
                     i, stage_revealed(s, i), stage_off(r)});
  }
  items.push_back({"final", "renormalised: the distribution the draw uses", DistStage::Final, 0,
                   phase_revealed(s, PhaseKind::Draw), false});
  const ImGuiStyle& style = ImGui::GetStyle();
  const float arrow_w = ImGui::CalcTextSize("→").x + style.ItemSpacing.x * 2;
  float total = 0;
  int active = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    total += ImGui::CalcTextSize(items[i].label.c_str()).x + style.FramePadding.x * 2 + arrow_w;
    const Item& it = items[i];
    if (shown.stage == it.stage && (it.stage != DistStage::Stage || shown.index == it.index))
      active = static_cast<int>(i);
  }
  ImGui::BeginDisabled(into);
  // Buttons when they fit on two rows at most; otherwise a combo box.
  if (total > ImGui::GetContentRegionAvail().x * 1.9f) {
    ImGui::SetNextItemWidth(-1);
    const std::string preview = items[active].label + "  (" + items[active].detail + ")";
    if (ImGui::BeginCombo("##view", preview.c_str())) {
      for (size_t i = 0; i < items.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        const std::string text = items[i].label + "  (" + items[i].detail + ")";
        if (ImGui::Selectable(text.c_str(), static_cast<int>(i) == active,
                              items[i].revealed ? 0 : ImGuiSelectableFlags_Disabled)) {
          ui.dist_stage = items[i].stage;
          ui.dist_stage_index = items[i].index;
        }
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    return;
  }
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (i > 0) {
      ImGui::SameLine();
      ImGui::TextDisabled("→");
      const float w = ImGui::CalcTextSize(it.label.c_str()).x + style.FramePadding.x * 2;
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      if (right - ImGui::GetItemRectMax().x - style.ItemSpacing.x >= w) ImGui::SameLine();
    }
    ImGui::PushID(static_cast<int>(i));
    ImGui::BeginDisabled(!it.revealed);
    const bool is_active = static_cast<int>(i) == active;
    if (is_active)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (it.off)
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (ImGui::Button(it.label.c_str())) {
      ui.dist_stage = it.stage;
      ui.dist_stage_index = it.index;
    }
    if (it.off) ImGui::PopStyleColor();
    if (is_active) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", it.detail.c_str());
    ImGui::EndDisabled();
    ImGui::PopID();
  }
  ImGui::EndDisabled();
}

// Rows for the view: kept candidates by probability, then the ones this stage cut (their bar is
// the probability they had before the cut).
std::vector<BarRow> make_rows(const Session& s, const SamplingRecord& rec, ViewChoice v, int n,
                              int chosen, const HistogramView* hist, int* cut_after,
                              std::string* cut_label, int* gap_before) {
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
  // The chosen token is always on screen: if it ranks below the rows shown, it replaces the last
  // kept row, after a gap mark.
  *gap_before = -1;
  const bool shown =
      std::any_of(rows.begin(), rows.end(), [](const BarRow& r) { return r.chosen; });
  if (!shown && n_kept > 1) {
    auto it =
        std::find_if(kept.begin() + n_kept, kept.end(), [](const BarRow& r) { return r.chosen; });
    if (it != kept.end()) {
      rows[n_kept - 1] = *it;
      *gap_before = n_kept - 1;
    }
  }
  return rows;
}

// 1000 -> "1,000".
std::string with_thousands(int n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

float max_p(const SamplingRecord& rec) {
  float m = 0;
  for (const Candidate& c : rec.raw) m = std::max(m, c.p);
  for (const StageRecord& st : rec.stages)
    for (const Candidate& c : st.top) m = std::max(m, c.p);
  for (const Candidate& c : rec.final_dist) m = std::max(m, c.p);
  return m;
}

// One line: the chosen token, its probability and rank, the entropy; details on hover.
void draw_summary(const Session& s, const Step& st) {
  const DrawRecord& d = st.sampling.draw;
  ImGui::PushFont(app_font(FontRole::Bold));
  ImGui::Text("chosen %s", s.tokenizer().display_piece(st.token).c_str());
  ImGui::PopFont();
  ImGui::SameLine();
  if (st.forced) {
    ImGui::TextWrapped("forced (the sampler chose %s)",
                       s.tokenizer().display_piece(st.sampled_token).c_str());
  } else {
    ImGui::TextWrapped("p %.1f%%  ·  rank %d  ·  entropy %.2f bits%s", 100.0 * st.chosen_p,
                       st.chosen_rank + 1, d.entropy, d.greedy ? "  ·  greedy" : "");
  }
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("step %d (%s) predicts position %d", st.index, st.index == 0 ? "prefill" : "decode",
                st.position);
    ImGui::Text("entropy %.2f bits after the sampler, %.2f bits raw", d.entropy, d.raw_entropy);
    if (d.greedy) ImGui::Text("greedy: the most probable token, no random draw");
    ImGui::EndTooltip();
  }
}

// A prompt position inside the prefill was selected: show what the model predicted there. The
// prefill computes a prediction at every prompt position; only the last one is used, because
// the prompt itself says what comes next.
void draw_prompt_prediction(const Session& s, UiState& ui, int lane, int pos) {
  const Palette& pal = palette(ui.theme);
  const Step* prefill = s.step_at(lane, 0);
  const int row = prefill && prefill->forward ? pos - prefill->forward->first_pos : -1;
  const std::vector<int>& prompt = s.prompt_tokens();
  const int actual = pos + 1 < static_cast<int>(prompt.size()) ? prompt[pos + 1] : -1;
  const std::string actual_label = actual >= 0 ? s.tokenizer().display_piece(actual) : "";
  ImGui::PushFont(app_font(FontRole::Bold));
  ImGui::TextWrapped("Prediction at position %d", pos);
  ImGui::PopFont();
  ImGui::TextWrapped(
      "Not used: the prompt already says %s next. The prefill computed this "
      "prediction anyway, at every prompt position at once.",
      actual_label.c_str());
  if (ImGui::Button("Back to the last position")) ui.selected_position = -1;
  if (row < 0 || row >= static_cast<int>(prefill->forward->position_top.size())) {
    ImGui::TextDisabled("Not recorded (record level off).");
    return;
  }
  std::vector<BarRow> rows;
  bool actual_shown = false;
  for (const TokenScore& t : prefill->forward->position_top[row]) {
    BarRow r;
    r.id = t.id;
    r.label = s.tokenizer().display_piece(t.id);
    r.p = t.p;
    r.logit = t.logit;
    r.chosen = t.id == actual;
    actual_shown |= r.chosen;
    rows.push_back(r);
  }
  BarListStyle style;
  style.scale_max = rows.empty() ? 1.0f : std::max(0.05f, rows.front().p);
  style.show_logits = true;
  style.chosen_note = "what the prompt actually has next";
  style.clickable = false;
  const BarListResult res = draw_prob_bars("prompt_bars", rows, style, pal, ui);
  if (res.hovered_id >= 0) ui.hover.token_id = res.hovered_id;
  if (!actual_shown && actual >= 0)
    ImGui::TextDisabled("The prompt's next token %s is not among these %d.", actual_label.c_str(),
                        static_cast<int>(rows.size()));
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
  const int n_prompt = static_cast<int>(s.prompt_tokens().size());
  if (ui.selected_position >= 0 && ui.selected_position < n_prompt - 1) {
    draw_prompt_prediction(s, ui, lane, ui.selected_position);
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
  if (drawn) draw_summary(s, *st);

  const bool hist_valid =
      ui.histogram.lane == lane && ui.histogram.node == node && ui.histogram.n_samples > 0;
  // Bottom block: the strip (its bar, the u label) and the buttons row.
  const ImGuiStyle& gs = ImGui::GetStyle();
  const float strip_h = ImGui::GetFontSize() * 1.2f;
  const float bottom_h =
      (drawn ? strip_h + app_font(FontRole::Small)->FontSize + 4.0f + gs.ItemSpacing.y * 2 : 0) +
      ImGui::GetFrameHeightWithSpacing();
  const float avail = ImGui::GetContentRegionAvail().y - bottom_h;
  // At least three bars even when the panel is short (then the panel scrolls).
  const int fit = std::max(3, static_cast<int>(avail / prob_bar_row_height()));
  const int n_rows = std::min(ui.dist_top_n, fit);
  int cut_after = -1, gap_before = -1;
  std::string cut_label;
  const std::vector<BarRow> rows =
      make_rows(s, rec, v, n_rows, drawn ? st->token : -1, hist_valid ? &ui.histogram : nullptr,
                &cut_after, &cut_label, &gap_before);
  BarListStyle style;
  style.scale_max = std::max(0.05f, max_p(rec));
  style.show_logits = v.stage == DistStage::Raw;
  style.cut_after = cut_after;
  style.cut_label = cut_label;
  style.gap_before = gap_before;
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
    const int hov =
        draw_cumulative_strip("strip", segs, rec.draw.greedy ? -1.0 : rec.draw.u, strip_h, pal, ui);
    if (hov >= 0) ui.hover.token_id = hov;
  }

  // "Sample this step 1,000 times" (shortened when the panel is narrow), the histogram legend,
  // and the predict-then-reveal switch when it fits (it is also in the View menu).
  const std::string n_text = with_thousands(ui.histogram_samples);
  std::string label = "Sample this step " + n_text + " times";
  if (ImGui::CalcTextSize(label.c_str()).x + gs.FramePadding.x * 2 >
      ImGui::GetContentRegionAvail().x * 0.6f)
    label = "Sample ×" + n_text;
  if (ImGui::Button(label.c_str())) {
    Result<Histogram> h = s.histogram(ui.histogram_samples, lane);
    if (h.ok()) {
      ui.histogram = HistogramView{lane, node, h->n_samples, h->ids, h->counts, h->p};
    } else {
      ui.set_message(h.error().message, true);
    }
  }
  note_last_item(ui, "button", "histogram");
  auto fits = [&](const char* text, float extra) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    return right - ImGui::GetItemRectMax().x - gs.ItemSpacing.x >
           ImGui::CalcTextSize(text).x + extra;
  };
  if (hist_valid) {
    char legend[64];
    std::snprintf(legend, sizeof legend, "sampled %s times (thin bars)",
                  with_thousands(ui.histogram.n_samples).c_str());
    if (fits(legend, ImGui::GetFontSize() * 2)) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.histogram), "■");
      ImGui::SameLine();
      ImGui::TextDisabled("%s", legend);
    }
  }
  const char* reveal_label = "predict, then reveal";
  if (fits(reveal_label, ImGui::GetFrameHeight() * 1.5f)) {
    ImGui::SameLine();
    ImGui::Checkbox(reveal_label, &ui.predict_then_reveal);
  }
  end_panel();
}

}  // namespace ts
