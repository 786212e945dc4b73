// F32 / Q8_0 / Q4_K bars in the Cost panel (see cost_formats.h).
#include "app/panels/cost_formats.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

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

// Lines `text` takes wrapped at the content width, as text_wrapped draws it.
float text_height(const std::string& text) {
  const size_t n = wrap_lines(ImGui::GetFont(), ImGui::GetFontSize(), text,
                              std::max(1.0f, ImGui::GetContentRegionAvail().x))
                       .size();
  return static_cast<float>(std::max<size_t>(1, n)) *
         (ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.y);
}

std::string intro_words(const FormatComparison& fc, bool full) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                full ? "The same model, three ways: weights read by one decode step, and decode "
                       "speed measured here (%d thread%s, best of %d runs of %d steps)."
                     : "Measured here (%d thread%s, best of %d runs of %d steps):",
                fc.threads, fc.threads == 1 ? "" : "s", fc.runs, fc.steps);
  return buf;
}

// Each quantized format against F32, in words: each one a division of the numbers above.
std::vector<std::string> ratio_words(const FormatComparison& fc, bool full) {
  std::vector<std::string> out;
  const FormatSpeed* f32 = fc.find("F32");
  for (const char* t : {"Q8_0", "Q4_K"}) {
    const FormatSpeed* q = fc.find(t);
    if (!f32 || !q || q->bytes_per_token <= 0 || f32->tokens_per_s <= 0) continue;
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  full ? "%s: %s fewer bytes per token than F32, %s the speed."
                       : "%s: %s fewer bytes, %s the speed.",
                  t, format_ratio(f32->bytes_per_token / q->bytes_per_token).c_str(),
                  format_ratio(q->tokens_per_s / f32->tokens_per_s).c_str());
    out.push_back(buf);
  }
  return out;
}

}  // namespace

void draw_format_comparison(const FormatComparison& fc, const Palette& pal, const PanelEnv& env,
                            CostPanelState& own) {
  if (fc.rows.empty()) return;
  const float fs = ImGui::GetFontSize();
  // The words in full where all of it fits the panel, else shorter: the ratios are the
  // section's answer and never go below the fold for the introduction's sake.
  const ImGuiStyle& gs = ImGui::GetStyle();
  const float table_h = (fs + gs.ItemSpacing.y) +
                        static_cast<float>(fc.rows.size()) * (fs * 1.05f + gs.ItemSpacing.y);
  // (intro 2: in full, 1: short, 0: none on screen, its words the column titles' tooltip)
  auto height = [&](int intro, bool full_ratios) {
    float h = (intro > 0 ? text_height(intro_words(fc, intro == 2)) : 0.0f) + table_h;
    for (const std::string& r : ratio_words(fc, full_ratios)) h += text_height(r);
    return h;
  };
  const float avail = ImGui::GetContentRegionAvail().y;
  int intro = 0;
  bool full_ratios = false;
  for (const auto& [i, r] : {std::pair{2, true}, std::pair{1, true}, std::pair{1, false}})
    if (height(i, r) <= avail) {
      intro = i, full_ratios = r;
      break;
    }
  if (intro > 0) text_wrapped("%s", intro_words(fc, intro == 2).c_str());
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
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", intro_words(fc, true).c_str());
  ImGui::SameLine(x0 + label_w + col_w + ImGui::GetStyle().ItemSpacing.x);
  ImGui::TextDisabled(long_titles ? "tokens per second" : "tokens/s");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", intro_words(fc, true).c_str());
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
  for (const std::string& r : ratio_words(fc, full_ratios)) text_wrapped("%s", r.c_str());
}

}  // namespace ts
