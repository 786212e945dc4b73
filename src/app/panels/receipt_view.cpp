// The receipt section of Why this token (receipt_sections.h): the two tokens' logits, the logit
// difference split into its parts as signed bars (largest magnitude first; as many as the panel
// has room for, the rest summed on one line), the line that adds them up, what each sampler
// stage did to the two tokens, and the draw on the strip. The receipt is computed by
// session/receipt.h once per (lane, node, pass, rival) and kept in the panel's state.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/panels/receipt_sections.h"
#include "app/theme.h"
#include "app/widgets/cumulative_strip.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "imgui.h"
#include "session/receipt.h"

namespace ts::why {

namespace {

// The receipt for this key, computed when the key changed (nullptr and own.receipt_error on
// failure).
const TokenReceipt* receipt_for(const Session& s, int lane, int node, const Step& st, int rival,
                                ReceiptPanelState& own) {
  const void* pass = st.forward.get();
  if (own.receipt_lane != lane || own.receipt_node != node || own.receipt_pass != pass ||
      own.receipt_rival != rival) {
    own.receipt_lane = lane;
    own.receipt_node = node;
    own.receipt_pass = pass;
    own.receipt_rival = rival;
    Result<TokenReceipt> r = token_receipt(s, lane, st.index, rival);
    own.receipt = r.ok() ? std::make_shared<const TokenReceipt>(std::move(r.value())) : nullptr;
    own.receipt_error = r.ok() ? "" : r.error().message;
  }
  return own.receipt.get();
}

std::string num(double v, const char* fmt = "%.3f") {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// A part clicked in the bars: the intervention section, set to switch that part off.
void try_switching_off(const PartId& p, ReceiptPanelState& own) {
  if (p.kind != PartKind::Head && p.kind != PartKind::AttnBias && p.kind != PartKind::Mlp) return;
  own.ablate_what = p.kind == PartKind::Head ? 0 : p.kind == PartKind::AttnBias ? 1 : 2;
  own.ablate_layer = p.layer;
  own.ablate_head = std::max(0, p.head);
  own.ablate_scale = 0.0f;
  own.section = kWhyIntervention;
}

// One signed bar per part in `order`, the zero axis in the middle of the bar area: right for
// the chosen token, left for the rival. Rows are `rh` high.
void part_bars(const TokenReceipt& r, const std::vector<int>& order, float rh, const Palette& pal,
               const PanelEnv& env, ReceiptPanelState& own) {
  double scale = 1e-12;
  for (int i : order) scale = std::max(scale, std::abs(r.parts[i].value));
  ImGui::PushFont(app_font(FontRole::Mono));
  float name_w = 0;
  for (int i : order)
    name_w = std::max(name_w, ImGui::CalcTextSize((part_name(r.parts[i].part) + " ").c_str()).x);
  const float value_w = ImGui::CalcTextSize("-00.000 ").x;
  const float width = ImGui::GetContentRegionAvail().x;
  const float bar_w = std::max(40.0f, width - name_w - value_w);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int i : order) {
    const ReceiptPart& part = r.parts[i];
    const std::string name = part_name(part.part);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::PushID(i);
    ImGui::InvisibleButton("part", ImVec2(width, rh));
    const bool hovered = ImGui::IsItemHovered();
    if (ImGui::IsItemClicked()) try_switching_off(part.part, own);
    ImGui::PopID();
    const float ty = p.y + (rh - ImGui::GetFontSize()) * 0.5f;
    dl->AddText(ImVec2(p.x, ty), pal.text, name.c_str());
    const float mid = p.x + name_w + bar_w * 0.5f;
    const float len = static_cast<float>(part.value / scale) * bar_w * 0.5f;
    const float x0 = std::min(mid, mid + len), x1 = std::max(mid, mid + len) + 1.0f;
    dl->AddRectFilled(ImVec2(x0, p.y + rh * 0.15f), ImVec2(x1, p.y + rh * 0.85f),
                      part.value >= 0 ? pal.bar : pal.warning, rh * 0.1f);
    dl->AddLine(ImVec2(mid, p.y), ImVec2(mid, p.y + rh), pal.grid);
    const std::string v = num(part.value, "%+.3f");
    dl->AddText(ImVec2(p.x + name_w + bar_w + 4.0f, ty), pal.text, v.c_str());
    env.log.note_drawn("receipt_part", name, x0, p.y + rh * 0.15f, x1 - x0, rh * 0.7f,
                       part.value >= 0 ? "for" : "against");
    if (hovered)
      ImGui::SetTooltip("%s adds %s to logit[chosen] - logit[rival]%s", name.c_str(), v.c_str(),
                        part.part.kind == PartKind::Head || part.part.kind == PartKind::Mlp ||
                                part.part.kind == PartKind::AttnBias
                            ? "\nclick: switch it off as a branch (intervention)"
                            : "");
  }
  ImGui::PopFont();
}

// Each sampler stage that is on, both tokens after it (chosen vs rival, as in the logits line),
// then how many are off (named in the
// tooltip): one text.
void sampler_lines(const Session& s, const TokenReceipt& r, const PanelEnv& env) {
  std::string on, off;
  for (const ReceiptStage& st : r.stages) {
    const bool is_off = st.name.size() > 4 && st.name.compare(st.name.size() - 4, 4, " off") == 0;
    if (is_off) {
      off += (off.empty() ? "" : ", ") + st.name.substr(0, st.name.size() - 4);
      continue;
    }
    auto side = [](const TokenAtStage& t) {
      return t.kept ? percent_text(t.p) : std::string("cut");
    };
    on += (on.empty() ? "" : "; ") + st.name + ": " + side(st.chosen) + " vs " + side(st.vs);
  }
  if (!off.empty()) {  // named in the tooltip: they changed nothing
    const int n = 1 + static_cast<int>(std::count(off.begin(), off.end(), ','));
    on += (on.empty() ? "" : " · ") + std::to_string(n) + (n == 1 ? " stage" : " stages") + " off";
  }
  if (on.empty()) return;
  wrapped_text(env.log, on);
  if (!off.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("off: %s", off.c_str());
}

// The draw: u and the two intervals on the strip (the rest of it grey).
void draw_line(const Session& s, const TokenReceipt& r, const Palette& pal, const PanelEnv& env) {
  const ReceiptDraw& d = r.draw;
  std::vector<StripSegment> segs;
  for (const auto& [id, span, chosen] :
       {std::tuple{r.chosen.id, d.chosen, true}, std::tuple{r.vs.id, d.vs, false}})
    if (span.on_strip && span.hi > span.lo)
      segs.push_back(StripSegment{id, s.tokenizer().display_piece(id), span.lo, span.hi, chosen});
  std::sort(segs.begin(), segs.end(), [](const auto& a, const auto& b) { return a.lo < b.lo; });
  auto owned = [&](int id, const StripSpan& sp) {
    if (!sp.on_strip) return quoted_piece(s, id) + " no interval (cut)";
    if (sp.hi - sp.lo < 1e-4)  // too thin to print as two ends
      return quoted_piece(s, id) + " a sliver at " + num(sp.lo, "%.4f");
    return quoted_piece(s, id) + " [" + num(sp.lo, "%.4f") + ", " + num(sp.hi, "%.4f") + ")";
  };
  std::string words = d.greedy ? "greedy, no draw: " : "draw u = " + num(d.u, "%.4f") + ": ";
  if (r.forced)
    words = "forced by the teacher (the draw picked " + quoted_piece(s, d.sampled) + "); ";
  wrapped_text(env.log, words + owned(r.chosen.id, d.chosen) + ", " + owned(r.vs.id, d.vs));
  draw_cumulative_strip("receipt_strip", segs, d.greedy ? -1.0 : d.u, ImGui::GetFontSize() * 0.9f,
                        pal, env.log);
}

}  // namespace

void draw_receipt(const Session& s, int lane, int node, const Step& st, int rival,
                  const PanelEnv& env, ReceiptPanelState& own) {
  const TokenReceipt* r = receipt_for(s, lane, node, st, rival, own);
  if (!r) {
    text_wrapped("No receipt: %s", own.receipt_error.c_str());
    return;
  }
  const Palette& pal = palette(env.prefs.theme);
  if (r->chosen.id == r->vs.id) {
    text_wrapped(
        "The rival is the chosen token itself: pick another (type it, or right-click a "
        "bar in Next token).");
    return;
  }
  wrapped_text(env.log, "logits " + num(r->chosen.logit) + " − " + num(r->vs.logit) + " = " +
                            num(r->logit_diff) + ", made of:");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s: logit %.4f, rank %d\n%s: logit %.4f, rank %d",
                      quoted_piece(s, r->chosen.id).c_str(), r->chosen.logit, r->chosen.rank + 1,
                      quoted_piece(s, r->vs.id).c_str(), r->vs.logit, r->vs.rank + 1);
  std::vector<int> order(r->parts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return std::abs(r->parts[a].value) > std::abs(r->parts[b].value);
  });
  // Room for the bars: what is left above the lines under them (their height last frame; on
  // the first frame an estimate).
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float below =
      own.receipt_below > 0 ? own.receipt_below : line * 5.0f + ImGui::GetFontSize() * 1.6f;
  const float rh = app_font(FontRole::Mono)->FontSize * 1.15f;
  const float pitch = rh + ImGui::GetStyle().ItemSpacing.y;  // a row and the spacing after it
  const float room = ImGui::GetContentRegionAvail().y - below;
  const int n_bars = std::clamp(static_cast<int>(room / pitch), std::min<int>(2, order.size()),
                                static_cast<int>(order.size()));
  const std::vector<int> shown(order.begin(), order.begin() + n_bars);
  part_bars(*r, shown, rh, pal, env, own);
  const float after_bars = ImGui::GetCursorPosY();
  if (n_bars < static_cast<int>(order.size())) {
    double rest = 0;
    for (size_t i = n_bars; i < order.size(); ++i) rest += r->parts[order[i]].value;
    wrapped_text(env.log, "+ " + std::to_string(order.size() - n_bars) +
                              " smaller parts: " + num(rest, "%+.4f"));
  }
  wrapped_text(env.log, "parts add up to " + num(r->parts_sum, "%.4f") + " = logit difference " +
                            num(r->logit_diff, "%.4f"));
  sampler_lines(s, *r, env);
  draw_line(s, *r, pal, env);
  // (the strip's u label hangs under its item)
  own.receipt_below = ImGui::GetCursorPosY() - after_bars + app_font(FontRole::Small)->FontSize +
                      ImGui::GetStyle().ItemSpacing.y + 8.0f;
}

}  // namespace ts::why
