// Bar chart, roofline chart and probability bar rows (see charts.h). Layout from the font size;
// axes with a few readable ticks; hover and click through one InvisibleButton per chart.
#include "app/widgets/charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/widgets/heatmap.h"
#include "app/widgets/units.h"

namespace ts {
namespace {

std::string default_format(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float dash, float thickness) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len <= 0) return;
  for (float t = 0; t < len; t += dash * 2) {
    const float t1 = std::min(t + dash, len);
    dl->AddLine(ImVec2(a.x + dx * t / len, a.y + dy * t / len),
                ImVec2(a.x + dx * t1 / len, a.y + dy * t1 / len), col, thickness);
  }
}

}  // namespace

ChartHit draw_bar_chart(const char* str_id, std::span<const double> values,
                        std::span<const ImU32> colors, const BarChartStyle& st) {
  ChartHit hit;
  const int n = static_cast<int>(values.size());
  if (n == 0) return hit;
  const ValueFormat fmt = st.format ? st.format : default_format;
  const float fs = ImGui::GetFontSize();
  const float W = st.size.x > 0 ? st.size.x : ImGui::GetContentRegionAvail().x;
  const float H = st.size.y > 0 ? st.size.y : fs * 7.0f;

  double vmax = 0, vmin_pos = 0;
  for (double v : values) {
    vmax = std::max(vmax, v);
    if (v > 0) vmin_pos = vmin_pos > 0 ? std::min(vmin_pos, v) : v;
  }
  if (!(vmax > 0)) vmax = 1;
  const bool log = st.log_scale && vmin_pos > 0;
  const double lo = log ? std::pow(10.0, std::floor(std::log10(vmin_pos))) : 0.0;
  const double hi = log ? std::pow(10.0, std::ceil(std::log10(vmax))) : vmax;
  const double lhi = log ? std::log10(hi) : hi, llo = log ? std::log10(lo) : 0.0;

  double ticks[8];
  int n_ticks = 0;
  if (log) {
    const int step = std::max(1, static_cast<int>(std::ceil((lhi - llo) / 4)));
    for (double e = llo; e <= lhi + 1e-9 && n_ticks < 8; e += step) ticks[n_ticks++] = std::pow(10.0, e);
  } else {
    for (int i = 0; i <= 2; ++i) ticks[n_ticks++] = vmax * i / 2.0;
  }
  float left = 0;
  for (int i = 0; i < n_ticks; ++i) left = std::max(left, ImGui::CalcTextSize(fmt(ticks[i]).c_str()).x);
  left += fs * 0.5f;
  const float bottom = fs * 1.4f;

  ImGui::PushID(str_id);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  hit.clicked = ImGui::InvisibleButton("##bars", ImVec2(std::max(W, 1.0f), std::max(H, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a(p0.x + left, p0.y + fs * 0.5f), b(p0.x + W - fs * 0.3f, p0.y + H - bottom);
  const float plot_w = std::max(b.x - a.x, 1.0f), plot_h = std::max(b.y - a.y, 1.0f);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 default_bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
  auto y_of = [&](double v) {
    double f = log ? (v > 0 ? (std::log10(v) - llo) / (lhi - llo) : 0.0) : v / hi;
    f = std::clamp(f, 0.0, 1.0);
    return b.y - static_cast<float>(f) * plot_h;
  };
  for (int i = 0; i < n_ticks; ++i) {
    const float y = y_of(ticks[i]);
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), grid);
    const std::string s = fmt(ticks[i]);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(a.x - fs * 0.3f - ts.x, y - ts.y * 0.5f), text, s.c_str());
  }
  const float slot = plot_w / n;
  const float bar_w = slot >= 4 ? slot * 0.78f : slot;
  if (hovered) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (m.x >= a.x && m.x < b.x) {
      hit.hovered = true;
      hit.index = std::clamp(static_cast<int>((m.x - a.x) / slot), 0, n - 1);
    }
  }
  if (!hit.hovered) hit.clicked = false;
  for (int i = 0; i < n; ++i) {
    const float x0 = a.x + i * slot + (slot - bar_w) * 0.5f;
    ImU32 c = i < static_cast<int>(colors.size()) ? colors[i] : default_bar;
    if (hit.hovered && i == hit.index) c = ImGui::GetColorU32(ImGuiCol_PlotHistogramHovered);
    const float y = values[i] > 0 ? std::min(y_of(values[i]), b.y - 1.0f) : b.y;
    dl->AddRectFilled(ImVec2(x0, y), ImVec2(x0 + std::max(bar_w, 1.0f), b.y), c);
    if (i == st.highlighted) {
      const ImU32 hc = st.highlight_color ? st.highlight_color : text;
      dl->AddRect(ImVec2(x0 - 2, std::min(y, b.y - fs * 0.3f) - 2), ImVec2(x0 + bar_w + 2, b.y + 2),
                  hc, 0.0f, 0, std::max(2.0f, fs * 0.1f));
      // A caret under the axis so a one-pixel bar is still findable.
      const float cx = x0 + bar_w * 0.5f;
      dl->AddTriangleFilled(ImVec2(cx, b.y + 2), ImVec2(cx - fs * 0.3f, b.y + fs * 0.45f),
                            ImVec2(cx + fs * 0.3f, b.y + fs * 0.45f), hc);
    }
  }
  dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), text);
  // x ticks: indices, at least 3 font sizes apart.
  const int every = std::max(1, static_cast<int>(std::ceil(fs * 3.0f / slot)));
  for (int i = 0; i < n; i += every) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%d", i + st.index_base);
    const float tw = ImGui::CalcTextSize(buf).x;
    dl->AddText(ImVec2(a.x + (i + 0.5f) * slot - tw * 0.5f, b.y + fs * 0.4f), text, buf);
  }
  ImGui::PopID();
  return hit;
}

ChartHit draw_roofline(const char* str_id, std::span<const RooflinePoint> points,
                       const RooflineStyle& st) {
  ChartHit hit;
  const float fs = ImGui::GetFontSize();
  const float W = st.size.x > 0 ? st.size.x : ImGui::GetContentRegionAvail().x;
  const float H = st.size.y > 0 ? st.size.y : fs * 12.0f;
  const double ridge = st.peak_flops / st.bandwidth;

  double xmin = ridge / 10, xmax = ridge * 10, ymin = st.bandwidth * xmin, ymax = st.peak_flops;
  for (const auto& p : points) {
    if (p.intensity > 0) xmin = std::min(xmin, p.intensity), xmax = std::max(xmax, p.intensity);
    if (p.flops_per_s > 0) ymin = std::min(ymin, p.flops_per_s), ymax = std::max(ymax, p.flops_per_s);
  }
  const double lx0 = std::floor(std::log10(xmin)), lx1 = std::ceil(std::log10(xmax) + 1e-9);
  ymin = std::min(ymin, st.bandwidth * std::pow(10.0, lx0));
  if (st.slow_bandwidth > 0) ymin = std::min(ymin, st.slow_bandwidth * std::pow(10.0, lx0));
  const double ly0 = std::floor(std::log10(ymin)), ly1 = std::ceil(std::log10(ymax * 1.5));

  float left = ImGui::CalcTextSize("100 G").x + fs * 0.6f;
  const float bottom = fs * 2.6f;
  ImGui::PushID(str_id);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  hit.clicked = ImGui::InvisibleButton("##roofline", ImVec2(std::max(W, 1.0f), std::max(H, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a(p0.x + left, p0.y + fs * 1.4f), b(p0.x + W - fs * 0.5f, p0.y + H - bottom);
  const float pw = std::max(b.x - a.x, 1.0f), ph = std::max(b.y - a.y, 1.0f);
  auto X = [&](double x) {
    return a.x + static_cast<float>((std::log10(std::max(x, 1e-30)) - lx0) / (lx1 - lx0)) * pw;
  };
  auto Y = [&](double y) {
    return b.y - static_cast<float>((std::log10(std::max(y, 1e-30)) - ly0) / (ly1 - ly0)) * ph;
  };
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 roof = st.roof_color ? st.roof_color : text;
  const float rx = std::clamp(X(ridge), a.x, b.x);

  // Memory-bound side tinted; decade grid; axes.
  dl->AddRectFilled(a, ImVec2(rx, b.y), ImGui::GetColorU32(ImGuiCol_FrameBg));
  dl->PushClipRect(ImVec2(p0.x, p0.y), ImVec2(p0.x + W, p0.y + H), true);
  for (double e = lx0; e <= lx1 + 1e-9; e += 1) {
    const float x = X(std::pow(10.0, e));
    dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), grid);
    const std::string s = format_si(std::pow(10.0, e), "");
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(std::clamp(x - tw * 0.5f, p0.x, b.x - tw), b.y + fs * 0.2f), text, s.c_str());
  }
  const int ystep = std::max(1, static_cast<int>(std::ceil((ly1 - ly0) / 5)));
  for (double e = ly0; e <= ly1 + 1e-9; e += ystep) {
    const float y = Y(std::pow(10.0, e));
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), grid);
    const std::string s = format_si(std::pow(10.0, e), "");
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(a.x - fs * 0.3f - ts.x, y - ts.y * 0.5f), text, s.c_str());
  }
  dl->AddRect(a, b, text);
  // Captions in plain words. Each goes where it overlaps none placed before it (in order of
  // importance), or in a shorter form, or not at all: a short chart keeps only what fits.
  dl->AddText(ImVec2(p0.x, p0.y), text, "FLOP/s achieved");
  const char* xcap = "FLOPs per byte moved (arithmetic intensity)";
  if (ImGui::CalcTextSize(xcap).x > pw) xcap = "FLOPs per byte moved";
  const float xcw = ImGui::CalcTextSize(xcap).x;
  dl->AddText(ImVec2(a.x + std::max(0.0f, (pw - xcw) * 0.5f), b.y + fs * 1.35f), text, xcap);
  // The roofs: bandwidth * intensity up to the ridge, then the compute peak.
  const float thick = std::max(2.0f, fs * 0.12f);
  dl->AddLine(ImVec2(X(std::pow(10.0, lx0)), Y(st.bandwidth * std::pow(10.0, lx0))),
              ImVec2(X(ridge), Y(st.peak_flops)), roof, thick);
  dl->AddLine(ImVec2(X(ridge), Y(st.peak_flops)), ImVec2(b.x, Y(st.peak_flops)), roof, thick);
  dashed_line(dl, ImVec2(rx, a.y), ImVec2(rx, b.y), roof, fs * 0.3f, 1.5f);
  ImVec2 s0, s1;  // main memory's slope, if measured
  if (st.slow_bandwidth > 0) {  // main memory: dashed, up to where it meets the compute roof
    const double x0 = std::pow(10.0, lx0), x1 = st.peak_flops / st.slow_bandwidth;
    s0 = ImVec2(X(x0), Y(st.slow_bandwidth * x0)), s1 = ImVec2(X(x1), Y(st.peak_flops));
    dashed_line(dl, s0, s1, dim, fs * 0.4f, thick * 0.75f);
  }

  // Captions, after the roofs so they read on top of them.
  const ImU32 backing = ImGui::GetColorU32(ImGuiCol_WindowBg, 0.85f);
  struct Box {
    ImVec2 lo, hi;
  };
  std::vector<Box> taken;
  auto fits = [&](ImVec2 at, const char* words) {
    const Box r{at, ImVec2(at.x + ImGui::CalcTextSize(words).x, at.y + fs)};
    if (r.lo.x < a.x || r.hi.x > b.x || r.lo.y < a.y || r.hi.y > b.y) return false;
    for (const Box& t : taken)
      if (t.lo.x < r.hi.x && r.lo.x < t.hi.x && t.lo.y < r.hi.y && r.lo.y < t.hi.y) return false;
    return true;
  };
  auto place = [&](ImVec2 at, const char* words, ImU32 color) {
    if (!fits(at, words)) return false;
    const ImVec2 hi(at.x + ImGui::CalcTextSize(words).x, at.y + fs);
    taken.push_back({at, hi});
    // On a backing of the window's colour, so the roofs drawn before stay clear of the words.
    dl->AddRectFilled(ImVec2(at.x - fs * 0.1f, at.y), ImVec2(hi.x + fs * 0.1f, hi.y), backing);
    dl->AddText(at, color, words);
    return true;
  };
  // A caption of two lines at `at` where both fit, else its one-line form.
  auto place2 = [&](ImVec2 at, const char* l1, const char* l2, ImVec2 at1, const char* one) {
    const ImVec2 at2(at.x, at.y + fs);
    if (fits(at, l1) && fits(at2, l2)) {
      place(at, l1, dim);
      place(at2, l2, dim);
    } else {
      place(at1, one, dim);
    }
  };
  // The ridge's label: right of the dashed line under the flat roof, shortened when tight.
  char rbuf[64];
  std::snprintf(rbuf, sizeof rbuf, "machine balance: %.3g FLOPs/byte", ridge);
  float rw = ImGui::CalcTextSize(rbuf).x;
  if (rx + fs * 0.3f + rw > b.x) {
    std::snprintf(rbuf, sizeof rbuf, "balance %.3g", ridge);
    rw = ImGui::CalcTextSize(rbuf).x;
  }
  const float lx = rx + fs * 0.3f + rw <= b.x ? rx + fs * 0.3f : rx - fs * 0.3f - rw;
  // Above the flat roof where there is room (clear of the dots under it), else just under it.
  if (!place(ImVec2(lx, Y(st.peak_flops) - fs * 1.1f), rbuf, roof))
    place(ImVec2(lx, std::min(Y(st.peak_flops) + fs * 0.25f, b.y - fs)), rbuf, roof);
  // The two sides: two lines where there is room, else one, else none.
  const ImVec2 mb(a.x + fs * 0.3f, a.y + fs * 0.2f);
  place2(mb, "memory-bound:", "waiting for bytes", mb, "memory-bound");
  const char* cb2 = "waiting for arithmetic";
  const float cw = std::max(ImGui::CalcTextSize("compute-bound:").x, ImGui::CalcTextSize(cb2).x);
  const float c1w = ImGui::CalcTextSize("compute-bound").x;
  place2(ImVec2(std::max(rx + fs * 0.3f, b.x - cw - fs * 0.3f), b.y - fs * 2.3f), "compute-bound:",
         cb2, ImVec2(std::max(rx + fs * 0.3f, b.x - c1w - fs * 0.3f), b.y - fs * 1.2f),
         "compute-bound");

  if (st.slow_bandwidth > 0) {
    const ImVec2 mid((s0.x + s1.x) * 0.5f, (s0.y + s1.y) * 0.5f);
    place(ImVec2(mid.x + fs * 0.3f, mid.y), "main memory", dim);
  }

  // Points; hover = nearest within a radius.
  const float r = fs * 0.3f;
  float best = fs * 0.8f;
  const ImVec2 m = ImGui::GetIO().MousePos;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    const auto& p = points[i];
    if (!(p.intensity > 0) || !(p.flops_per_s > 0)) continue;
    const ImVec2 c(X(p.intensity), Y(p.flops_per_s));
    if (hovered) {
      const float d = std::hypot(m.x - c.x, m.y - c.y);
      if (d < best) best = d, hit.index = i, hit.hovered = true;
    }
  }
  for (int pass = 0; pass < 2; ++pass)  // highlighted last, so it is on top
    for (int i = 0; i < static_cast<int>(points.size()); ++i) {
      const auto& p = points[i];
      if (!(p.intensity > 0) || !(p.flops_per_s > 0) || (i == st.highlighted) != (pass == 1)) continue;
      const ImVec2 c(X(p.intensity), Y(p.flops_per_s));
      const bool big = i == st.highlighted || i == hit.index;
      dl->AddCircleFilled(c, big ? r * 1.5f : r, p.color ? p.color : text);
      if (big)
        dl->AddCircle(c, r * 1.5f + 1.5f, st.highlight_color ? st.highlight_color : text, 0,
                      std::max(2.0f, fs * 0.1f));
    }
  dl->PopClipRect();
  if (!hit.hovered) hit.clicked = false;
  ImGui::PopID();
  return hit;
}

void draw_prob_bar_row(const char* label, float label_width, float p, float bar_width, ImU32 color,
                       bool emphasised) {
  const float fs = ImGui::GetFontSize();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float h = fs * 1.15f;
  char pct[16];
  std::snprintf(pct, sizeof pct, "%5.1f%%", p * 100.0f);
  const float pct_w = ImGui::CalcTextSize("100.0%").x;
  ImGui::Dummy(ImVec2(label_width + bar_width + pct_w + fs, h));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const std::string s = abbreviate_to_width(label, label_width - fs * 0.3f);
  if (emphasised)
    dl->AddRectFilled(p0, ImVec2(p0.x + label_width + bar_width + pct_w + fs, p0.y + h),
                      ImGui::GetColorU32(ImGuiCol_FrameBg));
  dl->AddText(ImVec2(p0.x, p0.y + (h - fs) * 0.5f), text, s.c_str());
  const float bx = p0.x + label_width;
  dl->AddRectFilled(ImVec2(bx, p0.y + h * 0.15f),
                    ImVec2(bx + std::max(1.0f, std::clamp(p, 0.0f, 1.0f) * bar_width), p0.y + h * 0.85f),
                    color);
  dl->AddText(ImVec2(bx + bar_width + fs * 0.4f, p0.y + (h - fs) * 0.5f), text, pct);
}

}  // namespace ts
