// The carried-value trace (stage_trace.h): the value "mu" of the chain's stage at the view's
// index, read from each step's record along the lane's path; mirostat's target tau comes from
// the settings that chose the shown step. Its labels sit inside the chart (no extra row).
#include "app/panels/stage_trace.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts::distribution {

namespace {
bool carried_value(const Step& st, int index, double* out) {
  if (index < 0 || index >= static_cast<int>(st.sampling.stages.size())) return false;
  for (const StageValue& v : st.sampling.stages[static_cast<size_t>(index)].values)
    if (v.key == "mu") return *out = v.value, true;
  return false;
}
}  // namespace

bool draw_stage_trace(const Session& s, int lane, const Step& st, ViewChoice v,
                      const PanelEnv& env) {
  double mu = 0;
  if (v.stage != DistStage::Stage || !carried_value(st, v.index, &mu)) return false;
  const Palette& pal = palette(env.prefs.theme);
  std::vector<double> values;  // (path length) mu at each step
  for (int k = 0; k < path_length(s, lane); ++k) {
    const Step* p = step_at(s, lane, k);
    double m = 0;
    if (!p || !carried_value(*p, v.index, &m)) m = 0;  // a step whose chain had no such stage
    values.push_back(m);
  }
  if (values.size() < 2) return false;  // one step: the line above already gives its mu
  const SamplerSettings& used = st.sampler ? *st.sampler : settings(s, lane);
  const Mirostat* m = find_stage<Mirostat>(used);
  const double tau = m ? m->tau : 0;
  // A line over the steps (0 at the bottom, the largest mu or tau near the top), tau dashed,
  // the shown step a dot; the steps after it faded.
  const float fs = ImGui::GetFontSize();
  const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, fs * 4), fs * 2.0f);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("mu_trace", size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  double top = tau;
  for (double x : values) top = std::max(top, x);
  top = std::max(top * 1.1, 1e-6);
  const float pad = fs * 0.3f;
  auto at = [&](size_t k, double y) {
    const float x =
        o.x + pad +
        (size.x - 2 * pad) * static_cast<float>(k) / static_cast<float>(values.size() - 1);
    return ImVec2(x, o.y + size.y - pad - (size.y - 2 * pad) * static_cast<float>(y / top));
  };
  dl->AddRect(o, ImVec2(o.x + size.x, o.y + size.y), pal.grid);
  if (tau > 0) {  // dashed target
    const ImVec2 a = at(0, tau), b = at(values.size() - 1, tau);
    for (float x = a.x; x < b.x; x += fs * 0.6f)
      dl->AddLine(ImVec2(x, a.y), ImVec2(std::min(x + fs * 0.3f, b.x), a.y), pal.text_dim, 1.5f);
  }
  const ImU32 line = pal.decode, faded = mix_color(pal.decode, pal.window_bg, 0.65f);
  for (size_t k = 1; k < values.size(); ++k)
    dl->AddLine(at(k - 1, values[k - 1]), at(k, values[k]),
                static_cast<int>(k) > st.index ? faded : line, 2.5f);
  const size_t here = static_cast<size_t>(std::clamp(st.index, 0, int(values.size()) - 1));
  const ImVec2 dot = at(here, values[here]);
  dl->AddCircleFilled(dot, fs * 0.28f, pal.accent);
  // Labels inside the chart: this step's mu beside its dot, tau at the dashed line's start.
  ImFont* small = app_font(FontRole::Small);
  char buf[48];
  std::snprintf(buf, sizeof buf, "mu %.2f", mu);
  const ImVec2 ls = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, buf);
  const float lx =
      dot.x + ls.x + fs * 0.4f < o.x + size.x ? dot.x + fs * 0.4f : dot.x - ls.x - fs * 0.4f;
  const float ly = std::clamp(dot.y - ls.y, o.y + 1, o.y + size.y - ls.y - 1);
  dl->AddRectFilled(ImVec2(lx - 2, ly), ImVec2(lx + ls.x + 2, ly + ls.y), pal.window_bg);
  dl->AddText(small, small->FontSize, ImVec2(lx, ly), pal.accent, buf);
  env.log.note_drawn("text", buf, lx, ly, ls.x, ls.y);
  if (tau > 0) {
    std::snprintf(buf, sizeof buf, "target tau %.2f", tau);
    const ImVec2 ts = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, buf);
    const ImVec2 a = at(0, tau);
    const float ty = std::clamp(a.y - ts.y - 1, o.y + 1, o.y + size.y - ts.y - 1);
    dl->AddRectFilled(ImVec2(o.x + pad - 2, ty), ImVec2(o.x + pad + ts.x + 2, ty + ts.y),
                      pal.window_bg);
    dl->AddText(small, small->FontSize, ImVec2(o.x + pad, ty), pal.text_dim, buf);
    env.log.note_drawn("text", buf, o.x + pad, ty, ts.x, ts.y);
  }
  if (ImGui::IsItemHovered()) {
    const float t = (ImGui::GetMousePos().x - o.x - pad) / std::max(1.0f, size.x - 2 * pad);
    const int k = std::clamp(static_cast<int>(std::lround(t * (values.size() - 1))), 0,
                             static_cast<int>(values.size()) - 1);
    ImGui::SetTooltip("step %d: mu %.3f bits", k, values[static_cast<size_t>(k)]);
  }
  note_last_item(env.log, "mu_chart", std::to_string(values.size()));
  return true;
}

}  // namespace ts::distribution
