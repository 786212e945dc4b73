// The intervention section of Why this token (receipt_sections.h): pick a head, an attention
// block or an MLP, a factor (0 switches it off) and whether it holds from this step on, then
// run the step again as a branch (the session's `ablate` command). When the shown step lies on
// an intervention branch, its fork step without and with the intervention side by side (top
// tokens of each), their KL divergence and where the two texts part
// (session/intervention_compare.h, computed once per fork and tree size).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/panels/receipt_sections.h"
#include "app/theme.h"
#include "app/widgets/prob_bars.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/intervention_compare.h"
#include "session/session_access.h"

namespace ts::why {

namespace {

// The intervention the controls describe.
Intervention drafted(const ReceiptPanelState& own) {
  Intervention i;
  i.what = own.ablate_what == 0   ? Component::Head
           : own.ablate_what == 1 ? Component::Attention
                                  : Component::Mlp;
  i.layer = own.ablate_layer;
  i.head = own.ablate_what == 0 ? own.ablate_head : 0;
  i.scale = own.ablate_scale;
  return i;
}

// Two rows: what (a head, attention, MLP), its layer and head, the factor; from this step on,
// and the button that runs the step again with it. A newly found intervention branch sets them
// to its own intervention (comparison_for).
void controls(const Session& s, int lane, const PanelEnv& env, ReceiptPanelState& own,
              Commands& cmd) {
  const ModelConfig& c = config(s);
  own.ablate_layer = std::clamp(own.ablate_layer, 0, c.n_layers - 1);
  own.ablate_head = std::clamp(own.ablate_head, 0, c.n_heads - 1);
  const float fs = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(fs * 5.5f);
  ImGui::Combo("##what", &own.ablate_what, "a head\0attention\0MLP\0");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(fs * 3.0f);
  ImGui::SliderInt("layer", &own.ablate_layer, 0, c.n_layers - 1);
  if (own.ablate_what == 0) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fs * 3.0f);
    ImGui::SliderInt("head", &own.ablate_head, 0, c.n_heads - 1);
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(fs * 3.0f);
  ImGui::SliderFloat("×", &own.ablate_scale, 0.0f, 2.0f, "%.2f");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the factor: 0 switches it off");
  ImGui::Checkbox("from here on", &own.ablate_from);
  ImGui::SameLine();
  const Intervention i = drafted(own);
  char factor[24];
  std::snprintf(factor, sizeof factor, " ×%.2f", i.scale);
  const std::string label =
      "Run again with " + component_name(i) + (i.scale == 0.0f ? " off" : factor);
  if (ImGui::Button(label.c_str())) {
    Ablation a;
    a.set.items.push_back(i);
    a.from_here_on = own.ablate_from;
    cmd.push(cmd::Ablate{a, lane});
  }
  note_last_item(env.log, "button", "ablate");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("this step runs again as a new branch (the old one stays in Branches)");
}

// The node of `lane`'s tree where the intervention branch through `node` starts (-1: none).
int fork_of(const Timeline& t, int node) {
  for (int n = node; n >= 0; n = t.node(n).parent)
    if (is_intervention_fork(t, n)) return n;
  return -1;
}

const InterventionComparison* comparison_for(const Session& s, int lane, int fork,
                                             ReceiptPanelState& own) {
  const int nodes = timeline(s, lane).size();
  if (own.compare_lane != lane || own.compare_fork != fork || own.compare_nodes != nodes ||
      own.compare_model != s.loaded()) {
    own.compare_lane = lane;
    own.compare_fork = fork;
    own.compare_nodes = nodes;
    own.compare_model = s.loaded();
    Result<InterventionComparison> r = compare_intervention(s, lane, fork);
    own.compare =
        r.ok() ? std::make_shared<const InterventionComparison>(std::move(r.value())) : nullptr;
    own.compare_error = r.ok() ? "" : r.error().message;
    if (own.compare && own.compare->ablation.set.items.size() == 1) {  // the controls show it
      const Intervention& i = own.compare->ablation.set.items[0];
      own.ablate_what = i.what == Component::Head ? 0 : i.what == Component::Attention ? 1 : 2;
      own.ablate_layer = i.layer;
      own.ablate_head = i.head;
      own.ablate_scale = i.scale;
      own.ablate_from = own.compare->ablation.from_here_on;
    }
  }
  return own.compare.get();
}

// The `n` most probable tokens of `p` as bars (the chosen one, `chosen`, outlined).
std::vector<BarRow> top_rows(const Session& s, const std::vector<float>& p, int n, int chosen) {
  std::vector<int> ids(p.size());
  std::iota(ids.begin(), ids.end(), 0);
  n = std::min<int>(n, static_cast<int>(ids.size()));
  std::partial_sort(ids.begin(), ids.begin() + n, ids.end(),
                    [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
  std::vector<BarRow> rows;
  for (int k = 0; k < n; ++k) {
    BarRow r;
    r.id = ids[k];
    r.label = s.tokenizer().display_piece(ids[k]);
    r.p = p[ids[k]];
    r.chosen = ids[k] == chosen;
    rows.push_back(r);
  }
  return rows;
}

// "without:  was a …" from the fork step on, at most 10 tokens (spaces as spaces).
std::string text_from(const Session& s, const std::vector<int>& ids) {
  std::string out;
  for (size_t k = 0; k < ids.size() && k < 10; ++k) {
    std::string p = s.tokenizer().display_piece(ids[k]);
    for (size_t at; (at = p.find("␣")) != std::string::npos;) p.replace(at, 3, " ");
    out += p;
  }
  return ids.size() > 10 ? out + " …" : out;
}

void side_by_side(const Session& s, const InterventionComparison& c, const PanelEnv& env) {
  const Palette& pal = palette(env.prefs.theme);
  char kl[64];
  std::snprintf(kl, sizeof kl, "%.3f", c.kl_bits);
  wrapped_text(env.log, "Branch " + describe(c.ablation.set) +
                            (c.ablation.from_here_on ? " from" : " at") + " step " +
                            std::to_string(c.fork_step) + ": KL(without || with) = " + kl +
                            " bits. " +
                            (c.texts_part >= 0
                                 ? "The texts part at step " + std::to_string(c.texts_part) + "."
                                 : "The texts agree over the steps both have."));
  fit_text(env.log, "without:" + text_from(s, c.parent_tokens), ImGui::GetContentRegionAvail().x);
  fit_text(env.log, "with:" + text_from(s, c.branch_tokens), ImGui::GetContentRegionAvail().x);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float rh = app_font(FontRole::Mono)->FontSize * 1.2f;
  const int n =
      std::clamp(static_cast<int>((ImGui::GetContentRegionAvail().y - line * 1.15f) / rh), 2, 8);
  const int pc = c.parent_tokens.empty() ? -1 : c.parent_tokens[0];
  const int bc = c.branch_tokens.empty() ? -1 : c.branch_tokens[0];
  BarListStyle style;
  style.row_height = rh;
  style.clickable = false;
  if (ImGui::BeginTable("without_with", 2)) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("without");
    note_text_item(env.log, "without");
    draw_prob_bars("without", top_rows(s, c.parent_p, n, pc), style, pal, env.log);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("with");
    note_text_item(env.log, "with");
    draw_prob_bars("with", top_rows(s, c.branch_p, n, bc), style, pal, env.log);
    ImGui::EndTable();
  }
}

}  // namespace

void draw_intervention(const Session& s, int lane, int node, const PanelEnv& env,
                       ReceiptPanelState& own, Commands& cmd) {
  controls(s, lane, env, own, cmd);
  const int fork = node >= 0 ? fork_of(timeline(s, lane), node) : -1;
  if (fork < 0) {
    text_wrapped("This step is on no intervention branch: run one to compare.");
    return;
  }
  const InterventionComparison* c = comparison_for(s, lane, fork, own);
  if (!c) {
    text_wrapped("No comparison: %s", own.compare_error.c_str());
    return;
  }
  side_by_side(s, *c, env);
}

}  // namespace ts::why
