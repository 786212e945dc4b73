// Palettes and ImGui style for the three themes. Calm, low-saturation colours for light and dark;
// the projector theme is white with near-black text, stronger colours and thicker lines, because
// projectors wash out pale tints. Fonts are loaded elsewhere (app/fonts.cpp).
#include "app/theme.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ts {
namespace {

constexpr ImU32 rgb(uint32_t hex, uint32_t alpha = 255) {
  return IM_COL32((hex >> 16) & 0xFF, (hex >> 8) & 0xFF, hex & 0xFF, alpha);
}

constexpr Palette kLight = {
    rgb(0xF7F5F0),
    rgb(0x23262B),
    rgb(0x5E626A),
    rgb(0xD3D5DA),
    rgb(0xDCE5F0),
    rgb(0xDDEBD5),
    rgb(0xF6D9BF),
    rgb(0x23262B),
    rgb(0x2F6DB5),
    rgb(0x7FA7D6),
    rgb(0xB5530F),
    rgb(0x3F6DA5),
    rgb(0xCDD0D6),
    rgb(0xC0392B),
    rgb(0xE0A040, 200),
    rgb(0x8A78BF),
    rgb(0x4C9A86),
    rgb(0xF4F7FB),
    rgb(0x6FA3D0),
    rgb(0x0F3570),
    rgb(0x2E7540),
    rgb(0x8F5E00),
    rgb(0xC0392B),
    {rgb(0x3F6DA5), rgb(0xB5530F), rgb(0x2E7540), rgb(0x6E5AAE), rgb(0xB5477A), rgb(0x556326)},
    1.0f,
    rgb(0x8A5A00),
    rgb(0x7A4A00)};

constexpr Palette kDark = {
    rgb(0x1F2227),
    rgb(0xE4E6EA),
    rgb(0x9AA0A8),
    rgb(0x3A3F47),
    rgb(0x2E3D52),
    rgb(0x2F4632),
    rgb(0x5A3E26),
    rgb(0xE4E6EA),
    rgb(0x7CB0F0),
    rgb(0x4E6E94),
    rgb(0xF0A050),
    rgb(0x6E9BD0),
    rgb(0x454A53),
    rgb(0xE06A5A),
    rgb(0xE8B050, 200),
    rgb(0xA796DB),
    rgb(0x62B8A2),
    rgb(0x23272E),
    rgb(0x3D7DB8),
    rgb(0xCFE6FF),
    rgb(0x6CC07E),
    rgb(0xE5B040),
    rgb(0xE06A5A),
    {rgb(0x6E9BD0), rgb(0xF0A050), rgb(0x6CC07E), rgb(0xA796DB), rgb(0xE07AA8), rgb(0xB5C46A)},
    1.0f,
    rgb(0xF0C060),
    rgb(0xF0C060)};

constexpr Palette kProjector = {
    rgb(0xFFFFFF),
    rgb(0x000000),
    rgb(0x4A4A4A),
    rgb(0x9A9A9A),
    rgb(0xC6DAF2),
    rgb(0xC9E8BC),
    rgb(0xFFCC99),
    rgb(0x000000),
    rgb(0x0047AB),
    rgb(0x3D7DD8),
    rgb(0xC04000),
    rgb(0x1F5FAF),
    rgb(0xBDBDBD),
    rgb(0xC00000),
    rgb(0xE69500, 220),
    rgb(0x6A4FB0),
    rgb(0x1E8A6E),
    rgb(0xFFFFFF),
    rgb(0x4F8FD0),
    rgb(0x002060),
    rgb(0x1E7B32),
    rgb(0x8F5A00),
    rgb(0xC00000),
    {rgb(0x1F5FAF), rgb(0xC04000), rgb(0x1E7B32), rgb(0x6A4FB0), rgb(0xB0306A), rgb(0x5A6B10)},
    2.0f,
    rgb(0x7A4A00),
    rgb(0x6A3A00)};

ImVec4 v4(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }
ImVec4 v4(uint32_t hex, float a) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(rgb(hex));
  c.w = a;
  return c;
}

}  // namespace

const Palette& palette(ThemeKind t) {
  switch (t) {
    case ThemeKind::Dark:
      return kDark;
    case ThemeKind::Projector:
      return kProjector;
    case ThemeKind::Light:
      break;
  }
  return kLight;
}

ImU32 mix_color(ImU32 a, ImU32 b, float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  ImU32 out = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    const float ca = static_cast<float>((a >> shift) & 0xFF);
    const float cb = static_cast<float>((b >> shift) & 0xFF);
    const auto c = static_cast<ImU32>(std::lround(ca + (cb - ca) * t));
    out |= (c & 0xFF) << shift;
  }
  return out;
}

ImU32 heat_color(const Palette& p, float t) {
  if (!(t >= 0.0f)) t = 0.0f;  // also catches NaN
  if (t > 1.0f) t = 1.0f;
  return t < 0.5f ? mix_color(p.heat_lo, p.heat_mid, t * 2.0f)
                  : mix_color(p.heat_mid, p.heat_hi, (t - 0.5f) * 2.0f);
}

ImGuiStyle theme_style(ThemeKind t, float font_size) {
  ImGuiStyle style;  // start from defaults so switching themes never accumulates scaling
  if (t == ThemeKind::Dark)
    ImGui::StyleColorsDark(&style);
  else
    ImGui::StyleColorsLight(&style);
  const Palette& p = palette(t);
  const float s = std::max(0.75f, font_size / 16.0f);
  style.WindowPadding = ImVec2(10, 8);
  style.FramePadding = ImVec2(7, 4);
  style.ItemSpacing = ImVec2(8, 6);
  style.ItemInnerSpacing = ImVec2(6, 5);
  style.WindowRounding = 4;
  style.FrameRounding = 3;
  style.GrabRounding = 3;
  style.PopupRounding = 4;
  style.ScrollbarSize = 14;
  style.WindowBorderSize = 1;
  style.FrameBorderSize = t == ThemeKind::Projector ? 1.0f : 0.0f;
  style.WindowTitleAlign = ImVec2(0.0f, 0.5f);
  style.ScaleAllSizes(s);

  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = v4(p.text);
  c[ImGuiCol_TextDisabled] = v4(p.text_dim);
  c[ImGuiCol_WindowBg] = v4(p.window_bg);
  c[ImGuiCol_ChildBg] = v4(p.window_bg);
  c[ImGuiCol_PopupBg] = v4(p.window_bg);
  c[ImGuiCol_MenuBarBg] = t == ThemeKind::Dark ? v4(0x2A2E35, 1) : v4(0xE9E6DF, 1);
  c[ImGuiCol_Border] = v4(p.grid);
  if (t == ThemeKind::Dark) {
    c[ImGuiCol_TitleBg] = v4(0x2A2E35, 1);
    c[ImGuiCol_TitleBgActive] = v4(0x33414F, 1);
    c[ImGuiCol_FrameBg] = v4(0x2C3038, 1);
    c[ImGuiCol_Button] = v4(0x34465A, 1);
    c[ImGuiCol_ButtonHovered] = v4(0x436088, 1);
    c[ImGuiCol_ButtonActive] = v4(0x3F6592, 1);
  } else if (t == ThemeKind::Projector) {
    c[ImGuiCol_TitleBg] = v4(0xDDE6F2, 1);
    c[ImGuiCol_TitleBgActive] = v4(0xC6DAF2, 1);
    c[ImGuiCol_FrameBg] = v4(0xF0F0F0, 1);
    c[ImGuiCol_Button] = v4(0xD6E4F5, 1);
    c[ImGuiCol_ButtonHovered] = v4(0xA9C8EE, 1);
    c[ImGuiCol_ButtonActive] = v4(0x7FAEE6, 1);
  } else {
    c[ImGuiCol_TitleBg] = v4(0xE9E6DF, 1);
    c[ImGuiCol_TitleBgActive] = v4(0xDCE5F0, 1);
    c[ImGuiCol_FrameBg] = v4(0xECEAE4, 1);
    c[ImGuiCol_Button] = v4(0xDCE5F0, 1);
    c[ImGuiCol_ButtonHovered] = v4(0xBFD3EA, 1);
    c[ImGuiCol_ButtonActive] = v4(0x9DBCE0, 1);
  }
  c[ImGuiCol_TitleBgCollapsed] = c[ImGuiCol_TitleBg];
  c[ImGuiCol_CheckMark] = v4(p.selected);
  c[ImGuiCol_SliderGrab] = v4(p.bar);
  c[ImGuiCol_SliderGrabActive] = v4(p.selected);
  c[ImGuiCol_Header] = c[ImGuiCol_Button];
  c[ImGuiCol_HeaderHovered] = c[ImGuiCol_ButtonHovered];
  c[ImGuiCol_HeaderActive] = c[ImGuiCol_ButtonActive];
  c[ImGuiCol_PlotHistogram] = v4(p.bar);  // progress bars (lesson pages, busy window)
  c[ImGuiCol_PlotHistogramHovered] = v4(p.selected);
  c[ImGuiCol_TabActive] = c[ImGuiCol_ButtonActive];
  c[ImGuiCol_Tab] = c[ImGuiCol_Button];
  c[ImGuiCol_TabHovered] = c[ImGuiCol_ButtonHovered];
  style.DisabledAlpha = 0.38f;  // disabled transport buttons must look disabled on a projector
  return style;
}

void apply_theme(ThemeKind t, float font_size) { ImGui::GetStyle() = theme_style(t, font_size); }

float contrast_ratio(ImU32 a, ImU32 b) {
  auto lum = [](ImU32 c) {
    auto ch = [](ImU32 v) {
      const double x = static_cast<double>(v & 0xFF) / 255.0;
      return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * ch(c) + 0.7152 * ch(c >> 8) + 0.0722 * ch(c >> 16);
  };
  const double la = lum(a), lb = lum(b);
  return static_cast<float>((std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05));
}

std::vector<TextOnBackground> text_pairs(ThemeKind t) {
  const Palette& p = palette(t);
  const ImGuiStyle st = theme_style(t, 16.0f);
  auto u = [&](ImGuiCol c) { return ImGui::ColorConvertFloat4ToU32(st.Colors[c]); };
  const ImU32 pale_chip = mix_color(p.generated_chip, p.window_bg, 0.7f);  // tokens panel
  std::vector<TextOnBackground> v = {
      {"body text", p.text, p.window_bg},
      {"secondary text", p.text_dim, p.window_bg},
      {"secondary text on a field", p.text_dim, u(ImGuiCol_FrameBg)},
      {"text in a field", p.text, u(ImGuiCol_FrameBg)},
      {"button", p.text, u(ImGuiCol_Button)},
      {"hovered button", p.text, u(ImGuiCol_ButtonHovered)},
      {"pressed or active button", p.text, u(ImGuiCol_ButtonActive)},
      {"panel title", p.text, u(ImGuiCol_TitleBg)},
      {"active panel title", p.text, u(ImGuiCol_TitleBgActive)},
      {"panel in focus: title", p.window_bg, p.accent},
      {"menu bar", p.text, u(ImGuiCol_MenuBarBg)},
      {"prompt chip", p.chip_text, p.prompt_chip},
      {"generated chip", p.chip_text, p.generated_chip},
      {"unlikely generated chip", p.chip_text, pale_chip},
      {"forced chip", p.chip_text, p.forced_chip},
      {"repeat mark on a generated chip", p.mark_text, p.generated_chip},
      {"repeat mark on an unlikely chip", p.mark_text, pale_chip},
      {"repeat mark on a prompt chip", p.mark_text, p.prompt_chip},
      {"chosen token, question", p.accent, p.window_bg},
      {"cut line label", p.cut_line, p.window_bg},
      {"sample counts", p.histogram_text, p.window_bg},
      {"checks passed", p.ok, p.window_bg},
      {"checks failed, errors", p.error, p.window_bg},
      {"warnings", p.warning, p.window_bg},
      {"selected layer or head label", p.selected, p.window_bg},
      {"strip label on a dark segment", p.window_bg, p.bar},
      {"strip label on a light segment", p.text, mix_color(p.bar, p.window_bg, 0.45f)},
      {"strip label on the chosen segment", p.window_bg, p.accent},
  };
  static const char* lane_names[6] = {"lane 1 name", "lane 2 name", "lane 3 name",
                                      "lane 4 name", "lane 5 name", "lane 6 name"};
  for (int i = 0; i < 6; ++i) v.push_back({lane_names[i], p.lanes[i], p.window_bg});
  return v;
}

}  // namespace ts
