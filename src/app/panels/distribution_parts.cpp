// Parts of the next-token distribution panel (see distribution_parts.h).
#include "app/panels/distribution_parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>

#include "app/fonts.h"
#include "app/panels/dist_stats.h"
#include "app/panels/panels.h"
#include "app/widgets/units.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/flow.h"
#include "app/widgets/prob_bars.h"
#include "app/widgets/text_fit.h"
#include "sampling/stage.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts::distribution {

namespace {

// "coin 0.998", "mu 3.02"; a value whose key starts with "mass" is a share of the probability
// mass, shown as a percentage ("mass removed 99.9%"); a "token" is shown as its piece (DRY's
// "token ␣had"), not its id.
std::string stage_value_text(const Session& s, const StageValue& sv, int digits) {
  if (sv.key.starts_with("mass")) return sv.key + " " + percent_text(sv.value);
  if (sv.key == "token" && sv.value >= 0 && sv.value < s.tokenizer().vocab_size())
    return sv.key + " " + s.tokenizer().display_piece(static_cast<int>(sv.value));
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %.*g", sv.key.c_str(), digits, sv.value);
  return buf;
}

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

constexpr float kArrowGap = 4.0f;  // pixels either side of the chain's arrows

namespace {

// One view of the chain: raw logits, a stage that is on, or final.
struct ViewItem {
  std::string label, detail;
  DistStage stage;
  int index;
  bool revealed;  // stepping into a step: shown once its phase is reached
};

std::vector<ViewItem> view_items(const Session& s, const SamplingRecord& rec) {
  std::vector<ViewItem> items;
  std::string off_names;
  for (int i = 0; i < static_cast<int>(rec.stages.size()); ++i)
    if (stage_is_off(rec.stages[i]))
      off_names += (off_names.empty() ? "" : ", ") + std::string(stage_name(rec.stages[i].kind));
  items.push_back({"raw logits",
                   "softmax of the raw logits" +
                       (off_names.empty() ? std::string() : "; off in this sampler: " + off_names),
                   DistStage::Raw, 0, phase_revealed(s, PhaseKind::Logits)});
  for (int i = 0; i < static_cast<int>(rec.stages.size()); ++i) {
    const StageRecord& r = rec.stages[i];
    if (stage_is_off(r)) continue;
    std::string detail = r.name + " · " + std::to_string(r.n_kept) + " tokens remain";
    for (const StageValue& sv : r.values) detail += " · " + stage_value_text(s, sv, 4);
    items.push_back({stage_name(r.kind), detail, DistStage::Stage, i, stage_revealed(s, i)});
  }
  items.push_back({"final",
                   rec.draw.greedy ? "greedy: 100% on the most probable token, so the raw model "
                                     "is shown instead"
                                   : "renormalised: the distribution the draw uses",
                   DistStage::Final, 0, phase_revealed(s, PhaseKind::Draw)});
  return items;
}

// The row of buttons' width in a font, arrows between them.
float view_row_width(const std::vector<ViewItem>& items, ImFont* f) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float total = 0;
  for (size_t i = 0; i < items.size(); ++i)
    total += f->CalcTextSizeA(f->FontSize, 1e9f, 0, items[i].label.c_str()).x +
             style.FramePadding.x * 2 +
             (i > 0 ? f->CalcTextSizeA(f->FontSize, 1e9f, 0, "→").x + kArrowGap * 2 : 0);
  return total;
}

// Even shortened the chain does not fit: one combo box, whatever the chain, `width` wide (the
// row less the tools' room, so they stay beside it: a row saved for the bars).
void view_combo(const std::vector<ViewItem>& items, int active, DistributionPanelState& own,
                float width) {
  ImGui::SetNextItemWidth(std::max(width, ImGui::GetFontSize() * 8.0f));
  const std::string preview = items[active].label + "  (" + items[active].detail + ")";
  if (!ImGui::BeginCombo("##view", preview.c_str())) return;
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

// The chain as one row of buttons with arrows, the shown view pressed.
void view_buttons(const std::vector<ViewItem>& items, int active, const PanelEnv& env,
                  DistributionPanelState& own) {
  for (size_t i = 0; i < items.size(); ++i) {
    const ViewItem& it = items[i];
    if (i > 0) {
      ImGui::SameLine(0, kArrowGap);
      ImGui::AlignTextToFramePadding();
      ImGui::TextDisabled("→");
      ImGui::SameLine(0, kArrowGap);
    }
    ImGui::PushID(static_cast<int>(i));
    ImGui::BeginDisabled(!it.revealed);
    const bool is_active = static_cast<int>(i) == active;
    if (is_active)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(it.label.c_str())) {
      own.stage = it.stage;
      own.stage_index = it.index;
    }
    if (is_active) ImGui::PopStyleColor();
    note_last_item(env.log, is_active ? "view_active" : "view", it.label);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", it.detail.c_str());
    ImGui::EndDisabled();
    ImGui::PopID();
  }
}

}  // namespace

// Raw logits -> each stage of the chain that is on -> final, as one row of buttons (in the small
// font when the regular one does not fit; the stages that are off are left out and named in the
// tooltip of "raw logits"), or a combo box when even that row does not fit.
void view_selector(const Session& s, const PanelEnv& env, DistributionPanelState& own,
                   const SamplingRecord& rec, ViewChoice shown) {
  std::vector<ViewItem> items = view_items(s, rec);
  int active = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const ViewItem& it = items[i];
    if (shown.stage == it.stage && (it.stage != DistStage::Stage || shown.index == it.index))
      active = static_cast<int>(i);
  }
  // The small font keeps the chain on one row with room for the tools beside it ("Sample" and
  // the options button); when even that is too wide the longest labels are shortened.
  ImFont* font = app_font(FontRole::Small);
  const float tools = ImGui::GetFontSize() * 9.0f;
  const float avail = ImGui::GetContentRegionAvail().x - tools;
  if (view_row_width(items, font) > avail)
    for (ViewItem& it : items) {
      if (it.label == "raw logits") it.label = "raw";
      if (it.label == stage_name(StageKind::Temperature)) it.label = "temp";
      if (it.label == stage_name(StageKind::Penalties)) it.label = "penalty";
    }
  ImGui::BeginDisabled(stepping_into(s));
  if (view_row_width(items, font) > avail) {
    view_combo(items, active, own, avail - ImGui::GetFontSize() * 0.5f);
  } else {
    ImGui::PushFont(font);
    view_buttons(items, active, env, own);
    ImGui::PopFont();
  }
  ImGui::EndDisabled();
}

// Rows for the view: kept candidates by probability, then the ones this stage cut (their bar is
// the probability they had before the cut).
namespace {

struct RowSets {
  std::vector<BarRow> kept, cut;  // each by probability descending, ties by id
};

// The view's candidates as rows: label, probability (a cut one's from before its stage),
// logit, the histogram's count, the outline's reference probability; kept and cut apart.
RowSets candidate_rows(const Session& s, const SamplingRecord& rec, ViewChoice v, int chosen,
                       const HistogramView* hist) {
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
  const bool outlines = !(rec.draw.greedy && v.stage == DistStage::Raw);  // greedy's final is 100%
  if (outlines)                                                              // on one: no outline
    for (const Candidate& c : v.stage == DistStage::Raw ? rec.final_dist : rec.raw) ref_p[c.id] = c.p;
  RowSets out;
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
    if (outlines) {
      auto it = ref_p.find(c.id);
      r.ref_p = it == ref_p.end() ? 0.0f : it->second;
    }
    if (!c.kept) {
      auto it = p_before.find(c.id);
      r.p = it == p_before.end() ? 0.0f : it->second;
      out.cut.push_back(r);
    } else {
      out.kept.push_back(r);
    }
  }
  auto by_p = [](const BarRow& a, const BarRow& b) { return a.p != b.p ? a.p > b.p : a.id < b.id; };
  std::stable_sort(out.kept.begin(), out.kept.end(), by_p);
  std::stable_sort(out.cut.begin(), out.cut.end(), by_p);
  return out;
}

}  // namespace

std::vector<BarRow> make_rows(const Session& s, const SamplingRecord& rec, ViewChoice v, int n,
                              int chosen, const HistogramView* hist, int* cut_after,
                              std::string* cut_label, int* gap_before) {
  const RowSets sets = candidate_rows(s, rec, v, chosen, hist);
  const std::vector<BarRow>& kept = sets.kept;
  const std::vector<BarRow>& cut = sets.cut;
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
    std::snprintf(buf, sizeof buf, "%s cut here: %s remain%s", sr.name.c_str(),
                  count_text(sr.n_kept, "token", "tokens").c_str(), sr.n_kept == 1 ? "s" : "");
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

// "p 4.8% · rank 3 · 5.30 bits" (when the token is below the `n_recorded` candidates, its p is
// an upper bound and its rank beyond them; no entropy when the stage's record is partial).
std::string stats_text(const ViewStats& v, int n_recorded) {
  char rank[48], h[32];
  // An upper bound already written "< 0.001%" is not prefixed by a second "<".
  const std::string pct = percent_text(v.p);
  const std::string p = v.p_known || pct.starts_with("<") ? "p " + pct : "p < " + pct;
  if (v.rank > 0)
    std::snprintf(rank, sizeof rank, "rank %d", v.rank);
  else
    std::snprintf(rank, sizeof rank, "rank > %d", n_recorded);
  if (!v.entropy_known) return p + " · " + rank;  // a partial record: no entropy to show
  std::snprintf(h, sizeof h, "%.2f bits", v.entropy);
  return p + " · " + rank + " · " + h;
}

// A stage's recorded name short enough for the summary line: "top-p 0.90" as it is, a long one
// ("penalties rep 1.30 freq 0.00 pres 0.00 last 64") by its first word (the chain row above
// names the stage too, and its tooltip the parameters).
std::string short_stage_name(const std::string& name) {
  if (name.size() <= 16) return name;
  return name.substr(0, name.find(' '));
}

// Places the next item on the current line when `text` fits there, `gap` after the last item.
void same_line_if_fits(const std::string& text, float gap) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize(text.c_str()).x <= right)
    ImGui::SameLine(0, gap);
}

}  // namespace

// The chosen token, then one block per distribution (raw model, the stage shown, after the
// sampler), each with the chosen token's p and rank there and that distribution's entropy; the
// block of the view on screen is bold, the others dimmed. Blocks share a line while they fit, so
// a greedy step takes one line and a sampled one two. A forced token was not drawn: its "after
// sampler" block says what the sampler chose instead of a rank in a distribution it never used.
void draw_summary(const Session& s, const Step& st, ViewChoice v, const PanelEnv& env) {
  const Palette& pal = palette(env.prefs.theme);
  const SamplingRecord& rec = st.sampling;
  const int n_rec = static_cast<int>(rec.raw.size());
  ImGui::PushFont(app_font(FontRole::Bold));
  const std::string chosen = std::string(st.forced ? "forced " : "chosen ") +
                             s.tokenizer().display_piece(st.token);
  ImGui::TextUnformatted(chosen.c_str());
  ImGui::PopFont();
  note_last_item(env.log, "text", chosen);
  struct Block {
    std::string text;
    bool active;
    const char* detail;
  };
  std::vector<Block> blocks;
  blocks.push_back({"raw: " + stats_text(raw_stats(rec, st.token), n_rec),
                    v.stage == DistStage::Raw,
                    "softmax of the raw logits: what the model itself believes"});
  size_t numbers = 0;  // the block with the shown view's numbers (raw, or the stage's)
  if (v.stage == DistStage::Stage && v.index < static_cast<int>(rec.stages.size())) {
    numbers = blocks.size();
    blocks.push_back({"after " + short_stage_name(rec.stages[v.index].name) + ": " +
                          stats_text(stage_stats(rec, v.index, st.token), n_rec),
                      true, "after this stage of the sampler chain, renormalised"});
  }
  const int vocab = s.tokenizer().vocab_size();
  if (v.stage == DistStage::Stage && v.index < static_cast<int>(rec.stages.size()) &&
      (rec.stages[v.index].n_kept < vocab || !rec.stages[v.index].values.empty())) {
    // What the stage shown did, on screen: the tokens it left and what it recorded (XTC's coin,
    // mirostat's mu, ...), so a lesson can point at them. (A stage that only reweighs and
    // records nothing, like the penalties, has its numbers in the line above.)
    const StageRecord& r = rec.stages[v.index];
    std::string did = short_stage_name(r.name) + " kept " + std::to_string(r.n_kept) + " of " +
                      std::to_string(vocab);
    for (const StageValue& sv : r.values) did += " · " + stage_value_text(s, sv, 3);
    blocks.push_back({did, false, "what this stage did at this step: the tokens it left alive"});
  }
  if (st.forced) {
    blocks.push_back({"the sampler chose " + s.tokenizer().display_piece(st.sampled_token),
                      v.stage == DistStage::Final,
                      "a forced token is not drawn: the teacher chose it (a new branch)"});
  } else if (!rec.draw.greedy || v.stage != DistStage::Raw) {
    const ViewStats fin = final_stats(st);
    const std::string fin_text = stats_text(fin, n_rec);
    Block& last = blocks[numbers];
    if (!rec.draw.greedy && last.text.substr(last.text.find(": ") + 2) == fin_text) {
      // No stage changed the chosen token's numbers: one block says both (saves a row).
      last.text.insert(last.text.find(": "), " = final");
      last.active = last.active || v.stage == DistStage::Final;
    } else {
      blocks.push_back({std::string(rec.draw.greedy ? "final (greedy): " : "final: ") + fin_text,
                        v.stage == DistStage::Final, "the final distribution the draw used"});
    }
  } else {
    blocks.push_back({"greedy: the most probable token", false,
                      "a greedy lane always takes the most probable token; its final "
                      "distribution is 100% on it, so the raw model is shown"});
  }
  const float gap = ImGui::GetFontSize();
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    ImGui::PushFont(app_font(FontRole::Regular));
    same_line_if_fits(b.text, gap);
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::ColorConvertU32ToFloat4(b.active ? pal.text : pal.text_dim));
    text_wrapped("%s", b.text.c_str());  // a narrow panel wraps the block at spaces
    ImGui::PopStyleColor();
    ImGui::PopFont();
    const ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
    env.log.note_drawn(b.active ? "stats_active" : "stats", b.text, a.x, a.y, z.x - a.x, z.y - a.y);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::Text("%s", b.detail);
      ImGui::Text("step %d (%s) predicts position %d", st.index,
                  st.index == 0 ? "prefill" : "decode", st.position);
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
  {  // the way back, beside the heading when it fits
    const char* back = "Back to the last position";
    const float bw = ImGui::CalcTextSize(back).x + ImGui::GetStyle().FramePadding.x * 2.0f;
    const float right = ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetFontSize() + bw <= right)
      ImGui::SameLine(right - bw);
    if (ImGui::Button(back)) env.sel.selected_position = -1;
  }
  text_wrapped(
      "Not used: the prompt already says %s next. The prefill computed this "
      "prediction anyway, at every prompt position at once.",
      actual_label.c_str());
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
  // The rows share the height left, keeping a line under them for "not among these".
  const ImGuiStyle& gs = ImGui::GetStyle();
  const float note_h = actual_shown ? 0.0f : ImGui::GetTextLineHeightWithSpacing() * 2.0f;
  const float avail = ImGui::GetContentRegionAvail().y - note_h - gs.ItemSpacing.y - 2.0f;
  const float rh_min = app_font(FontRole::Mono)->FontSize + 2.0f;
  const int fit = std::max(3, static_cast<int>(avail / rh_min));
  if (static_cast<int>(rows.size()) > fit) {  // the prompt's own token stays, last
    std::vector<BarRow> kept(rows.begin(), rows.begin() + fit);
    if (actual_shown && std::none_of(kept.begin(), kept.end(), [](const BarRow& r) { return r.chosen; })) {
      kept.back() = *std::find_if(rows.begin(), rows.end(), [](const BarRow& r) { return r.chosen; });
    }
    rows = std::move(kept);
  }
  BarListStyle style;
  style.row_height = std::clamp(avail / std::max<float>(1.0f, static_cast<float>(rows.size())),
                                rh_min, prob_bar_row_height());
  set_linear_scale(style, rows.empty() ? 0.0f : rows.front().p);
  style.show_logits = true;
  style.chosen_note = "what the prompt actually has next";
  style.clickable = false;
  const BarListResult res = draw_prob_bars("prompt_bars", rows, style, pal, env.log);
  if (res.hovered_id >= 0) env.sel.hover.token_id = res.hovered_id;
  if (!actual_shown && actual >= 0)
    text_wrapped("The prompt's next token %s is not among these %d.", actual_label.c_str(),
                 static_cast<int>(prefill->forward->position_top[row].size()));
}

}  // namespace ts::distribution
