// F32 / Q8_0 / Q4_K bars in the Cost panel (see cost_formats.h).
#include "app/panels/cost_formats.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "imgui.h"

namespace ts {

namespace {

// A horizontal bar of `fraction` of `w` at the cursor, with `text` after it (or inside when
// the bar leaves no room); one row of the font's height.
void bar(const PanelEnv& env, CostPanelState& own, const char* kind, const std::string& label,
         float w, float fraction, ImU32 color, ImU32 text_color, const std::string& text) {
  const float fs = ImGui::GetFontSize();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float bw = std::max(2.0f, w * std::clamp(fraction, 0.0f, 1.0f));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(p.x, p.y + fs * 0.1f), ImVec2(p.x + bw, p.y + fs * 0.95f), color,
                    fs * 0.15f);
  const float tw = ImGui::CalcTextSize(text.c_str()).x;
  const float tx = bw + fs * 0.3f + tw <= w ? p.x + bw + fs * 0.3f : p.x + fs * 0.2f;
  dl->AddText(ImVec2(tx, p.y), text_color, text.c_str());
  env.log.note_drawn(kind, label, p.x, p.y, bw, fs);
  ImGui::Dummy(ImVec2(w, fs * 1.05f));
}

}  // namespace

void draw_format_comparison(const FormatComparison& fc, const Palette& pal, const PanelEnv& env,
                            CostPanelState& own) {
  if (fc.rows.empty()) return;
  const float fs = ImGui::GetFontSize();
  text_wrapped(
      "The same model, three ways: weights read by one decode step, and decode speed "
      "measured here (%d thread%s, best of %d runs of %d steps).",
      fc.threads, fc.threads == 1 ? "" : "s", fc.runs, fc.steps);
  double max_bytes = 0, max_speed = 0;
  for (const FormatSpeed& r : fc.rows) {
    max_bytes = std::max(max_bytes, r.bytes_per_token);
    max_speed = std::max(max_speed, r.tokens_per_s);
  }
  const float label_w = ImGui::CalcTextSize("Q4_K ").x;
  const float col_w = std::max(
      fs * 4.0f,
      (ImGui::GetContentRegionAvail().x - label_w - ImGui::GetStyle().ItemSpacing.x) / 2.0f);
  // Column titles in words where they fit, else short.
  const bool long_titles = ImGui::CalcTextSize("tokens per second").x <= col_w;
  const float x0 = ImGui::GetCursorPosX();
  ImGui::SetCursorPosX(x0 + label_w);
  ImGui::TextDisabled(long_titles ? "bytes per token" : "bytes/token");
  ImGui::SameLine(x0 + label_w + col_w + ImGui::GetStyle().ItemSpacing.x);
  ImGui::TextDisabled(long_titles ? "tokens per second" : "tokens/s");
  for (const FormatSpeed& r : fc.rows) {
    ImGui::TextUnformatted(r.type.c_str());
    ImGui::SameLine(x0 + label_w);
    ImGui::BeginGroup();
    bar(env, own, "format_bytes", r.type, col_w, static_cast<float>(r.bytes_per_token / max_bytes),
        pal.prefill, pal.text, format_bytes(r.bytes_per_token));
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    char speed[32];
    std::snprintf(speed, sizeof speed, "%.0f", r.tokens_per_s);
    bar(env, own, "format_speed", r.type, col_w,
        static_cast<float>(max_speed > 0 ? r.tokens_per_s / max_speed : 0), pal.decode, pal.text,
        speed);
    ImGui::EndGroup();
  }
  // The ratios, in words: each one a division of the numbers above.
  const FormatSpeed* f32 = fc.find("F32");
  for (const char* t : {"Q8_0", "Q4_K"}) {
    const FormatSpeed* q = fc.find(t);
    if (!f32 || !q || q->bytes_per_token <= 0 || f32->tokens_per_s <= 0) continue;
    text_wrapped("%s: %s fewer bytes per token than F32, %s the speed.", t,
                 format_ratio(f32->bytes_per_token / q->bytes_per_token).c_str(),
                 format_ratio(q->tokens_per_s / f32->tokens_per_s).c_str());
  }
}

}  // namespace ts
