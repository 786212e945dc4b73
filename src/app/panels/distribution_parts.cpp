// Parts of the next-token distribution panel (see distribution_parts.h).
#include "app/panels/distribution_parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>

#include "app/fonts.h"
#include "app/panels/dist_stats.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/flow.h"
#include "app/widgets/prob_bars.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts::distribution {

namespace {

ViewChoice chosen_view(const Session& s, const PanelEnv& env, const DistributionPanelState& own,
                       const SamplingRecord& rec) {
  ViewChoice v{own.stage, std::clamp(own.stage_index, 0, std::max(0, (int)rec.stages.size() - 1))};
  if (v.stage == DistStage::Stage && rec.stages.empty()) v.stage = DistStage::Final;
  if (!stepping_into(s)) return v;
  if (phase_revealed(s, PhaseKind::Draw)) return {DistStage::Final, 0};
  ViewChoice last{DistStage::Raw, 0};
  for (int i = 0; i < static_cast<int>(rec.stages.size()); ++i)
    if (!stage_is_off(rec.stages[i]) && stage_revealed(s, i)) last = {DistStage::Stage, i};
  return last;
}

}  // namespace

// A greedy lane's final distribution is 100% on one token: the raw model is shown instead, so
// the class sees how sure the model really was.
ViewChoice effective_view(const Session& s, const PanelEnv& env, const DistributionPanelState& own,
                          const SamplingRecord& rec) {
  ViewChoice v = chosen_view(s, env, own, rec);
  if (v.stage == DistStage::Final && rec.draw.greedy) v = {DistStage::Raw, 0};
  return v;
}

namespace {

}  // namespace

// Raw logits -> each stage of the chain -> final, as a row of buttons (stages that are off are
// dimmed; the tooltip names the stage's setting), or a combo box when the row does not fit.
void view_selector(const Session& s, const PanelEnv& env, DistributionPanelState& own,
                   const SamplingRecord& rec, ViewChoice shown) {
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
                     i, stage_revealed(s, i), stage_is_off(r)});
  }
  items.push_back({"final",
                   rec.draw.greedy ? "greedy: 100% on the most probable token, so the raw model "
                                     "is shown instead"
                                   : "renormalised: the distribution the draw uses",
                   DistStage::Final, 0, phase_revealed(s, PhaseKind::Draw), false});
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
          own.stage = items[i].stage;
          own.stage_index = items[i].index;
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
      flow_same_line(ImGui::CalcTextSize("→").x);  // the arrow never hangs past the edge
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
      own.stage = it.stage;
      own.stage_index = it.index;
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
  std::unordered_map<int, int> counts;
  if (hist && hist->n_samples > 0)
    for (size_t i = 0; i < hist->ids.size(); ++i) counts[hist->ids[i]] = hist->counts[i];
  // Raw and final overlaid: under a sampler view each bar is outlined at the raw model's
  // probability, under the raw view at the final one (0 when the token is not recorded there:
  // below the raw candidates, or no longer possible after the sampler).
  std::unordered_map<int, float> ref_p;
  for (const Candidate& c : v.stage == DistStage::Raw ? rec.final_dist : rec.raw) ref_p[c.id] = c.p;
  std::vector<BarRow> kept, cut;
  for (const Candidate& c : *list) {
    BarRow r;
    r.id = c.id;
    r.label = s.tokenizer().display_piece(c.id);
    r.p = c.p;
    r.logit = c.logit;
    r.kept = c.kept;
    r.chosen = c.id == chosen;
    if (hist && hist->n_samples > 0) {
      auto it = counts.find(c.id);
      r.count = it == counts.end() ? 0 : it->second;
      r.empirical = static_cast<float>(r.count) / hist->n_samples;
    }
    {
      auto it = ref_p.find(c.id);
      r.ref_p = it == ref_p.end() ? 0.0f : it->second;
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
  // A small kept set (top-k 3 on a short panel) is shown whole, with one cut row after it.
  const int n_kept = static_cast<int>(kept.size()) <= n
                         ? static_cast<int>(kept.size())
                         : std::min(static_cast<int>(kept.size()), cut.empty() ? n : n - n_cut);
  *cut_after = -1;
  if (!cut.empty() && n_kept > 0) {
    *cut_after = n_kept - 1;
    const StageRecord& sr = rec.stages[v.index];
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s cut here: %d tokens remain", sr.name.c_str(), sr.n_kept);
    *cut_label = buf;
  }
  std::vector<BarRow> rows(kept.begin(), kept.begin() + n_kept);
  const int n_cut_shown = cut.empty() ? 0 : std::min<int>(cut.size(), std::max(n_cut, n - n_kept));
  rows.insert(rows.end(), cut.begin(), cut.begin() + n_cut_shown);
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

namespace {

// "p 4.8% · rank 3 · 5.30 bits" (p an upper bound and the rank unknown when the token is below
// the recorded candidates; the entropy n/a when the stage's record is not complete).
std::string stats_text(const ViewStats& v) {
  char p[48], rank[32], h[32];
  if (v.p_known)
    std::snprintf(p, sizeof p, "p %.1f%%", 100.0 * v.p);
  else
    std::snprintf(p, sizeof p, "p < %.2f%%", 100.0 * v.p);
  if (v.rank > 0)
    std::snprintf(rank, sizeof rank, "rank %d", v.rank);
  else
    std::snprintf(rank, sizeof rank, "rank: lower");
  if (v.entropy_known)
    std::snprintf(h, sizeof h, "%.2f bits", v.entropy);
  else
    std::snprintf(h, sizeof h, "entropy n/a");
  return std::string(p) + " · " + rank + " · " + h;
}

}  // namespace

// The chosen token, then one block per distribution (raw model, the stage shown, after the
// sampler), each with the chosen token's p and rank there and that distribution's entropy; the
// block of the view on screen is bold, the others dimmed. Wraps when the panel is narrow.
void draw_summary(const Session& s, const Step& st, ViewChoice v, const PanelEnv& env) {
  const Palette& pal = palette(env.prefs.theme);
  const SamplingRecord& rec = st.sampling;
  ImGui::PushFont(app_font(FontRole::Bold));
  ImGui::Text("chosen %s", s.tokenizer().display_piece(st.token).c_str());
  ImGui::PopFont();
  if (st.forced) {
    ImGui::SameLine();
    text_wrapped("forced (the sampler chose %s)",
                       s.tokenizer().display_piece(st.sampled_token).c_str());
  } else if (rec.draw.greedy) {
    const char* g = "greedy: always the most probable token";
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(g).x <= right)
      ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", g);
    ImGui::PopStyleColor();
  }
  struct Block {
    std::string title;
    ViewStats stats;
    bool active;
    const char* detail;
  };
  std::vector<Block> blocks;
  blocks.push_back({"raw model", raw_stats(rec, st.token), v.stage == DistStage::Raw,
                    "softmax of the raw logits: what the model itself believes"});
  if (v.stage == DistStage::Stage && v.index < static_cast<int>(rec.stages.size()))
    blocks.push_back({"after " + rec.stages[v.index].name, stage_stats(rec, v.index, st.token),
                      true, "after this stage of the sampler chain, renormalised"});
  const ViewStats fin = final_stats(st);
  Block& last = blocks.back();
  const bool same_as_stage = blocks.size() == 2 && last.stats.p_known && fin.p_known &&
                             last.stats.rank == fin.rank && std::abs(last.stats.p - fin.p) < 5e-4f &&
                             last.stats.entropy_known == fin.entropy_known &&
                             (!fin.entropy_known || std::abs(last.stats.entropy - fin.entropy) < 5e-3f);
  if (same_as_stage) {  // no later stage changed anything: one line says both (saves a row)
    last.title += " = after sampler";
    last.detail = "after this stage of the chain; no later stage changes it, so the draw used this";
  } else {
    blocks.push_back({rec.draw.greedy ? "after sampler (greedy)" : "after sampler", fin,
                      v.stage == DistStage::Final, "the final distribution the draw used"});
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    const std::string text = b.title + ": " + stats_text(b.stats);
    ImGui::PushFont(app_font(b.active ? FontRole::Bold : FontRole::Regular));
    if (i > 0) {  // on the same line when it fits, a font size apart
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      const float gap = ImGui::GetFontSize() * 1.5f;
      if (ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize(text.c_str()).x <= right)
        ImGui::SameLine(0, gap);
    }
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::ColorConvertU32ToFloat4(b.active ? pal.text : pal.text_dim));
    text_wrapped("%s", text.c_str());  // a narrow panel wraps the block at spaces
    ImGui::PopStyleColor();
    ImGui::PopFont();
    const ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
    env.log.note_drawn(b.active ? "stats_active" : "stats", text, a.x, a.y, z.x - a.x, z.y - a.y);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::Text("%s", b.detail);
      ImGui::Text("step %d (%s) predicts position %d", st.index,
                  st.index == 0 ? "prefill" : "decode", st.position);
      if (!b.stats.p_known)
        ImGui::TextDisabled("the chosen token is below the %d recorded candidates",
                            static_cast<int>(rec.raw.size()));
      if (!b.stats.entropy_known)
        ImGui::TextDisabled("entropy: more tokens remain than were recorded");
      ImGui::EndTooltip();
    }
  }
}

// A prompt position inside the prefill was selected: show what the model predicted there. The
// prefill computes a prediction at every prompt position; only the last one is used, because
// the prompt itself says what comes next.
void draw_prompt_prediction(const Session& s, const PanelEnv& env, int lane, int pos) {
  const Palette& pal = palette(env.prefs.theme);
  const Step* prefill = step_at(s, lane, 0);
  const int row = prefill && prefill->forward ? pos - prefill->forward->first_pos : -1;
  const std::vector<int>& prompt = prompt_tokens(s);
  const int actual = pos + 1 < static_cast<int>(prompt.size()) ? prompt[pos + 1] : -1;
  const std::string actual_label = actual >= 0 ? s.tokenizer().display_piece(actual) : "";
  ImGui::PushFont(app_font(FontRole::Bold));
  text_wrapped("Prediction at position %d", pos);
  ImGui::PopFont();
  text_wrapped(
      "Not used: the prompt already says %s next. The prefill computed this "
      "prediction anyway, at every prompt position at once.",
      actual_label.c_str());
  if (ImGui::Button("Back to the last position")) env.sel.selected_position = -1;
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
  const BarListResult res = draw_prob_bars("prompt_bars", rows, style, pal, env.log);
  if (res.hovered_id >= 0) env.sel.hover.token_id = res.hovered_id;
  if (!actual_shown && actual >= 0)
    ImGui::TextDisabled("The prompt's next token %s is not among these %d.", actual_label.c_str(),
                        static_cast<int>(rows.size()));
}

}  // namespace ts::distribution
