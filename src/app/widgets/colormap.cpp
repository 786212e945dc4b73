// Heat ramps: the theme's three anchors interpolated in OKLab (Ottosson's perceptual space),
// sampled into 256-entry tables; value scales; the legend strip.
#include "app/widgets/colormap.h"

#include "app/theme.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace ts {
namespace {

struct Lab {
  float l, a, b;
};

float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}
float linear_to_srgb(float c) {
  c = std::clamp(c, 0.0f, 1.0f);
  return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

Lab rgb_to_oklab(uint32_t hex) {
  const float r = srgb_to_linear(((hex >> 16) & 0xff) / 255.0f);
  const float g = srgb_to_linear(((hex >> 8) & 0xff) / 255.0f);
  const float b = srgb_to_linear((hex & 0xff) / 255.0f);
  const float l = std::cbrt(0.4122214708f * r + 0.5363325363f * g + 0.0514459929f * b);
  const float m = std::cbrt(0.2119034982f * r + 0.6806995451f * g + 0.1073969566f * b);
  const float s = std::cbrt(0.0883024619f * r + 0.2817188376f * g + 0.6299787005f * b);
  return {0.2104542553f * l + 0.7936177850f * m - 0.0040720468f * s,
          1.9779984951f * l - 2.4285922050f * m + 0.4505937099f * s,
          0.0259040371f * l + 0.7827717662f * m - 0.8086757660f * s};
}

ImVec4 oklab_to_rgb(Lab c) {
  const float l_ = c.l + 0.3963377774f * c.a + 0.2158037573f * c.b;
  const float m_ = c.l - 0.1055613458f * c.a - 0.0638541728f * c.b;
  const float s_ = c.l - 0.0894841775f * c.a - 1.2914855480f * c.b;
  const float l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_;
  return ImVec4(linear_to_srgb(4.0767416621f * l - 3.3077115913f * m + 0.2309699292f * s),
                linear_to_srgb(-1.2684380046f * l + 2.6097574011f * m - 0.3413193965f * s),
                linear_to_srgb(-0.0041960863f * l - 0.7034186147f * m + 1.7076147010f * s), 1.0f);
}

Lab to_lab(ImU32 c) {
  const uint32_t hex = ((c >> IM_COL32_R_SHIFT) & 0xff) << 16 | ((c >> IM_COL32_G_SHIFT) & 0xff) << 8 |
                       ((c >> IM_COL32_B_SHIFT) & 0xff);
  return rgb_to_oklab(hex);
}

}  // namespace

HeatRamp make_heat_ramp(ImU32 lo, ImU32 mid, ImU32 hi) {
  const Lab anchors[3] = {to_lab(lo), to_lab(mid), to_lab(hi)};
  HeatRamp ramp;
  const int n = static_cast<int>(ramp.rgb.size());
  for (int i = 0; i < n; ++i) {
    const float t = static_cast<float>(i) / (n - 1) * 2.0f;
    const int k = t < 1.0f ? 0 : 1;
    const float f = t - k;
    const Lab& a = anchors[k];
    const Lab& b = anchors[k + 1];
    const Lab m{a.l + (b.l - a.l) * f, a.a + (b.a - a.a) * f, a.b + (b.b - a.b) * f};
    ramp.rgb[i] = ImGui::ColorConvertFloat4ToU32(oklab_to_rgb(m));
    ramp.lightness[i] = m.l;
  }
  return ramp;
}

const HeatRamp& theme_heat_ramp(ThemeKind t) {
  // Constant tables derived from the constant palettes (not application state).
  static const HeatRamp light = make_heat_ramp(palette(ThemeKind::Light).heat_lo,
                                               palette(ThemeKind::Light).heat_mid,
                                               palette(ThemeKind::Light).heat_hi);
  static const HeatRamp dark = make_heat_ramp(palette(ThemeKind::Dark).heat_lo,
                                              palette(ThemeKind::Dark).heat_mid,
                                              palette(ThemeKind::Dark).heat_hi);
  static const HeatRamp projector = make_heat_ramp(palette(ThemeKind::Projector).heat_lo,
                                                   palette(ThemeKind::Projector).heat_mid,
                                                   palette(ThemeKind::Projector).heat_hi);
  switch (t) {
    case ThemeKind::Dark: return dark;
    case ThemeKind::Projector: return projector;
    case ThemeKind::Light: break;
  }
  return light;
}

namespace {
int ramp_index(float t, int n) {
  if (!(t > 0.0f)) return 0;  // also NaN
  if (t >= 1.0f) return n - 1;
  return static_cast<int>(t * (n - 1) + 0.5f);
}
}  // namespace

ImU32 HeatRamp::color(float t) const { return rgb[ramp_index(t, static_cast<int>(rgb.size()))]; }

ImU32 HeatRamp::text_color(float t) const {
  return lightness[ramp_index(t, static_cast<int>(rgb.size()))] > 0.62f ? IM_COL32(20, 22, 28, 255)
                                                                        : IM_COL32(248, 248, 250, 255);
}

float ColorScale::to_unit(float v) const {
  if (!(vmax > 0.0f) || !(v > 0.0f)) return 0.0f;
  const float x = std::min(v / vmax, 1.0f);
  if (!log) return x;
  return std::max(0.0f, 1.0f + std::log10(x) / kLogDecades);
}

void draw_colormap_legend(const char* caption, const HeatRamp& ramp, const ColorScale& scale,
                          float width) {
  const float fs = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(caption);
  ImGui::SameLine();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float bar_h = fs * 0.8f;
  width = std::max(width, fs * 6.0f);
  ImGui::Dummy(ImVec2(width, bar_h + fs * 1.25f));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int n = 64;
  for (int i = 0; i < n; ++i) {
    const float x0 = p0.x + width * i / n, x1 = p0.x + width * (i + 1) / n;
    dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(x1 + 0.5f, p0.y + bar_h), ramp.color((i + 0.5f) / n));
  }
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddRect(p0, ImVec2(p0.x + width, p0.y + bar_h), ImGui::GetColorU32(ImGuiCol_Border));
  // Linear: quarters of vmax. Log: one tick per decade down to the floor.
  float ticks[5];
  int n_ticks = 0;
  if (scale.log) {
    for (int d = static_cast<int>(ColorScale::kLogDecades); d >= 0; --d)
      ticks[n_ticks++] = scale.vmax * std::pow(10.0f, -static_cast<float>(d));
  } else {
    for (int i = 0; i <= 4; ++i) ticks[n_ticks++] = scale.vmax * i / 4.0f;
  }
  // Labels where they fit: the two ends always, a middle one only when it clears its neighbours
  // (at a projector's font size the quarter labels would run into each other).
  struct Label {
    char text[32];
    float x = 0, w = 0;
  };
  Label labels[8];
  for (int i = 0; i < n_ticks; ++i) {
    const float x = p0.x + width * scale.to_unit(ticks[i]);
    dl->AddLine(ImVec2(x, p0.y + bar_h), ImVec2(x, p0.y + bar_h + fs * 0.25f), text);
    std::snprintf(labels[i].text, sizeof labels[i].text, "%.3g", ticks[i]);
    labels[i].w = ImGui::CalcTextSize(labels[i].text).x;
    labels[i].x = std::clamp(x - labels[i].w * 0.5f, p0.x, p0.x + width - labels[i].w);
  }
  const float gap = fs * 0.4f;
  float drawn_end = -1e30f;
  for (int i = 0; i < n_ticks; ++i) {
    const Label& l = labels[i];
    const bool end = i == 0 || i == n_ticks - 1;
    const bool clears_next_end = l.x + l.w + gap <= labels[n_ticks - 1].x;
    if (!end && (l.x < drawn_end + gap || !clears_next_end)) continue;
    dl->AddText(ImVec2(l.x, p0.y + bar_h + fs * 0.2f), text, l.text);
    drawn_end = l.x + l.w;
  }
}

}  // namespace ts
