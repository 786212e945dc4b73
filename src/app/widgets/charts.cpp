// Bar chart, roofline chart and probability bar rows (see charts.h). Layout from the font size;
// axes with a few readable ticks; hover and click through one InvisibleButton per chart.
#include "app/widgets/charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/panel_env.h"
#include "app/widgets/heatmap.h"
#include "app/widgets/text_fit.h"
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

// A bar chart's value axis: linear from 0 or log by decades, its ticks, the plot rectangle.
struct BarAxis {
  float fs = 0;
  ImVec2 a, b;  // the plot: a top-left, b bottom-right
  bool log = false;
  double hi = 1, llo = 0, lhi = 1;  // the axis' top; log10 of its ends when log
  double ticks[8] = {};
  int n_ticks = 0;
  float y_of(double v) const {
    double f = log ? (v > 0 ? (std::log10(v) - llo) / (lhi - llo) : 0.0) : v / hi;
    f = std::clamp(f, 0.0, 1.0);
    return b.y - static_cast<float>(f) * std::max(b.y - a.y, 1.0f);
  }
};

// Log only when asked and some value is positive; ticks by decades (at most 5 labels) or at
// 0, half and the maximum; the left margin as wide as the widest tick label.
BarAxis bar_axis(std::span<const double> values, const BarChartStyle& st, ValueFormat fmt,
                 ImVec2 p0, ImVec2 size) {
  BarAxis ax;
  ax.fs = ImGui::GetFontSize();
  double vmax = 0, vmin_pos = 0;
  for (double v : values) {
    vmax = std::max(vmax, v);
    if (v > 0) vmin_pos = vmin_pos > 0 ? std::min(vmin_pos, v) : v;
  }
  if (!(vmax > 0)) vmax = 1;
  ax.log = st.log_scale && vmin_pos > 0;
  const double lo = ax.log ? std::pow(10.0, std::floor(std::log10(vmin_pos))) : 0.0;
  ax.hi = ax.log ? std::pow(10.0, std::ceil(std::log10(vmax))) : vmax;
  ax.lhi = ax.log ? std::log10(ax.hi) : ax.hi;
  ax.llo = ax.log ? std::log10(lo) : 0.0;
  if (ax.log) {
    const int step = std::max(1, static_cast<int>(std::ceil((ax.lhi - ax.llo) / 4)));
    for (double e = ax.llo; e <= ax.lhi + 1e-9 && ax.n_ticks < 8; e += step)
      ax.ticks[ax.n_ticks++] = std::pow(10.0, e);
  } else {
    for (int i = 0; i <= 2; ++i) ax.ticks[ax.n_ticks++] = vmax * i / 2.0;
  }
  float left = 0;
  for (int i = 0; i < ax.n_ticks; ++i)
    left = std::max(left, ImGui::CalcTextSize(fmt(ax.ticks[i]).c_str()).x);
  left += ax.fs * 0.5f;
  ax.a = ImVec2(p0.x + left, p0.y + ax.fs * 0.5f);
  ax.b = ImVec2(p0.x + size.x - ax.fs * 0.3f, p0.y + size.y - ax.fs * 1.4f);
  return ax;
}

// The value ticks: a grid line each, and its label where it overlaps no label drawn before it
// (the top one first, then the bottom one, then those between): a short chart keeps its ends.
void draw_bar_ticks(ImDrawList* dl, const BarAxis& ax, ValueFormat fmt) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_Border);
  std::vector<std::pair<float, float>> taken;  // the labels' y ranges
  std::vector<int> order;
  if (ax.n_ticks > 0) order.push_back(ax.n_ticks - 1);
  if (ax.n_ticks > 1) order.push_back(0);
  for (int i = 1; i + 1 < ax.n_ticks; ++i) order.push_back(i);
  for (int i : order) {
    const float y = ax.y_of(ax.ticks[i]);
    dl->AddLine(ImVec2(ax.a.x, y), ImVec2(ax.b.x, y), grid);
    const std::string s = fmt(ax.ticks[i]);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    const float y0 = y - ts.y * 0.5f, y1 = y0 + ts.y;
    if (std::any_of(taken.begin(), taken.end(),
                    [&](const auto& t) { return y0 < t.second && t.first < y1; }))
      continue;
    taken.push_back({y0, y1});
    dl->AddText(ImVec2(ax.a.x - ax.fs * 0.3f - ts.x, y0), text, s.c_str());
  }
}

// The bars, the hovered one in the hover colour; the highlighted one outlined, with a caret
// under the axis so a one-pixel bar is still findable.
void draw_bars(ImDrawList* dl, const BarAxis& ax, std::span<const double> values,
               std::span<const ImU32> colors, const BarChartStyle& st, const ChartHit& hit,
               float slot) {
  const float fs = ax.fs, bar_w = slot >= 4 ? slot * 0.78f : slot;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 default_bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
  for (int i = 0; i < static_cast<int>(values.size()); ++i) {
    const float x0 = ax.a.x + i * slot + (slot - bar_w) * 0.5f;
    ImU32 c = i < static_cast<int>(colors.size()) ? colors[i] : default_bar;
    if (hit.hovered && i == hit.index) c = ImGui::GetColorU32(ImGuiCol_PlotHistogramHovered);
    const float y = values[i] > 0 ? std::min(ax.y_of(values[i]), ax.b.y - 1.0f) : ax.b.y;
    dl->AddRectFilled(ImVec2(x0, y), ImVec2(x0 + std::max(bar_w, 1.0f), ax.b.y), c);
    if (i != st.highlighted) continue;
    const ImU32 hc = st.highlight_color ? st.highlight_color : text;
    dl->AddRect(ImVec2(x0 - 2, std::min(y, ax.b.y - fs * 0.3f) - 2),
                ImVec2(x0 + bar_w + 2, ax.b.y + 2), hc, 0.0f, 0, std::max(2.0f, fs * 0.1f));
    const float cx = x0 + bar_w * 0.5f;
    dl->AddTriangleFilled(ImVec2(cx, ax.b.y + 2), ImVec2(cx - fs * 0.3f, ax.b.y + fs * 0.45f),
                          ImVec2(cx + fs * 0.3f, ax.b.y + fs * 0.45f), hc);
  }
}

// The index axis: its line, and the bars' indices at least 3 font sizes apart.
void draw_index_axis(ImDrawList* dl, const BarAxis& ax, int n, float slot, int index_base) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddLine(ImVec2(ax.a.x, ax.b.y), ImVec2(ax.b.x, ax.b.y), text);
  const int every = std::max(1, static_cast<int>(std::ceil(ax.fs * 3.0f / slot)));
  for (int i = 0; i < n; i += every) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%d", i + index_base);
    const float tw = ImGui::CalcTextSize(buf).x;
    dl->AddText(ImVec2(ax.a.x + (i + 0.5f) * slot - tw * 0.5f, ax.b.y + ax.fs * 0.4f), text, buf);
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
  const ImVec2 size(st.size.x > 0 ? st.size.x : ImGui::GetContentRegionAvail().x,
                    st.size.y > 0 ? st.size.y : fs * 7.0f);
  ImGui::PushID(str_id);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const BarAxis ax = bar_axis(values, st, fmt, p0, size);
  hit.clicked =
      ImGui::InvisibleButton("##bars", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  draw_bar_ticks(dl, ax, fmt);
  const float slot = std::max(ax.b.x - ax.a.x, 1.0f) / n;
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (hovered && m.x >= ax.a.x && m.x < ax.b.x) {
    hit.hovered = true;
    hit.index = std::clamp(static_cast<int>((m.x - ax.a.x) / slot), 0, n - 1);
  }
  if (!hit.hovered) hit.clicked = false;
  draw_bars(dl, ax, values, colors, st, hit, slot);
  draw_index_axis(dl, ax, n, slot, st.index_base);
  ImGui::PopID();
  return hit;
}

namespace {

// The roofline's frame: decades on both axes, the plot rectangle, the ridge's x.
struct RoofFrame {
  float fs = 0;
  ImVec2 p0, size;                            // the whole chart (captions and tick labels included)
  ImVec2 a, b;                                // the plot: a top-left, b bottom-right
  double lx0 = 0, lx1 = 1, ly0 = 0, ly1 = 1;  // log10 of the axes' ends
  double ridge = 1;                           // peak / bandwidth, FLOPs per byte
  float rx = 0;                               // the ridge's x, clamped into the plot
  float X(double x) const {
    return a.x + static_cast<float>((std::log10(std::max(x, 1e-30)) - lx0) / (lx1 - lx0)) *
                     std::max(b.x - a.x, 1.0f);
  }
  float Y(double y) const {
    return b.y - static_cast<float>((std::log10(std::max(y, 1e-30)) - ly0) / (ly1 - ly0)) *
                     std::max(b.y - a.y, 1.0f);
  }
};

// Axes from a decade either side of the ridge, widened to every timed point and to the
// memory roofs' start; the plot inside the chart's margins for tick labels and captions.
RoofFrame roof_frame(std::span<const RooflinePoint> points, const RooflineStyle& st, ImVec2 p0) {
  RoofFrame f;
  f.fs = ImGui::GetFontSize();
  f.p0 = p0;
  f.size = ImVec2(st.size.x > 0 ? st.size.x : ImGui::GetContentRegionAvail().x,
                  st.size.y > 0 ? st.size.y : f.fs * 12.0f);
  f.ridge = st.peak_flops / st.bandwidth;
  double xmin = f.ridge / 10, xmax = f.ridge * 10, ymin = st.bandwidth * xmin, ymax = st.peak_flops;
  for (const auto& p : points) {
    if (p.intensity > 0) xmin = std::min(xmin, p.intensity), xmax = std::max(xmax, p.intensity);
    if (p.flops_per_s > 0) ymin = std::min(ymin, p.flops_per_s), ymax = std::max(ymax, p.flops_per_s);
  }
  f.lx0 = std::floor(std::log10(xmin));
  f.lx1 = std::ceil(std::log10(xmax) + 1e-9);
  ymin = std::min(ymin, st.bandwidth * std::pow(10.0, f.lx0));
  if (st.slow_bandwidth > 0) ymin = std::min(ymin, st.slow_bandwidth * std::pow(10.0, f.lx0));
  f.ly0 = std::floor(std::log10(ymin));
  f.ly1 = std::ceil(std::log10(ymax * 1.5));
  const float left = ImGui::CalcTextSize("100 G").x + f.fs * 0.6f, bottom = f.fs * 2.6f;
  f.a = ImVec2(p0.x + left, p0.y + f.fs * 1.4f);
  f.b = ImVec2(p0.x + f.size.x - f.fs * 0.5f, p0.y + f.size.y - bottom);
  f.rx = std::clamp(f.X(f.ridge), f.a.x, f.b.x);
  return f;
}

// The decade grid with its labels, the plot's border, the axes' captions.
void draw_roof_grid(ImDrawList* dl, const RoofFrame& f) {
  const float fs = f.fs;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_Border);
  for (double e = f.lx0; e <= f.lx1 + 1e-9; e += 1) {
    const float x = f.X(std::pow(10.0, e));
    dl->AddLine(ImVec2(x, f.a.y), ImVec2(x, f.b.y), grid);
    const std::string s = format_si(std::pow(10.0, e), "");
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(std::clamp(x - tw * 0.5f, f.p0.x, f.b.x - tw), f.b.y + fs * 0.2f), text,
                s.c_str());
  }
  const int ystep = std::max(1, static_cast<int>(std::ceil((f.ly1 - f.ly0) / 5)));
  for (double e = f.ly0; e <= f.ly1 + 1e-9; e += ystep) {
    const float y = f.Y(std::pow(10.0, e));
    dl->AddLine(ImVec2(f.a.x, y), ImVec2(f.b.x, y), grid);
    const std::string s = format_si(std::pow(10.0, e), "");
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(f.a.x - fs * 0.3f - ts.x, y - ts.y * 0.5f), text, s.c_str());
  }
  dl->AddRect(f.a, f.b, text);
  // The axes' captions in plain words, the x one shortened when the plot is narrow.
  dl->AddText(f.p0, text, "FLOP/s achieved");
  const float pw = std::max(f.b.x - f.a.x, 1.0f);
  const char* xcap = "FLOPs per byte moved (arithmetic intensity)";
  if (ImGui::CalcTextSize(xcap).x > pw) xcap = "FLOPs per byte moved";
  const float xcw = ImGui::CalcTextSize(xcap).x;
  dl->AddText(ImVec2(f.a.x + std::max(0.0f, (pw - xcw) * 0.5f), f.b.y + fs * 1.35f), text, xcap);
}

// The roofs: bandwidth * intensity up to the ridge, then the compute peak; the ridge dashed;
// main memory's slope dashed up to where it meets the compute roof (if measured). Returns
// that slope's midpoint (for its caption), or nothing.
std::optional<ImVec2> draw_roofs(ImDrawList* dl, const RoofFrame& f, const RooflineStyle& st,
                                 ImU32 roof) {
  const float fs = f.fs, thick = std::max(2.0f, fs * 0.12f);
  const double x0 = std::pow(10.0, f.lx0);
  dl->AddLine(ImVec2(f.X(x0), f.Y(st.bandwidth * x0)), ImVec2(f.X(f.ridge), f.Y(st.peak_flops)),
              roof, thick);
  dl->AddLine(ImVec2(f.X(f.ridge), f.Y(st.peak_flops)), ImVec2(f.b.x, f.Y(st.peak_flops)), roof,
              thick);
  dashed_line(dl, ImVec2(f.rx, f.a.y), ImVec2(f.rx, f.b.y), roof, fs * 0.3f, 1.5f);
  if (!(st.slow_bandwidth > 0)) return std::nullopt;
  const double x1 = st.peak_flops / st.slow_bandwidth;
  const ImVec2 s0(f.X(x0), f.Y(st.slow_bandwidth * x0)), s1(f.X(x1), f.Y(st.peak_flops));
  dashed_line(dl, s0, s1, ImGui::GetColorU32(ImGuiCol_TextDisabled), fs * 0.4f, thick * 0.75f);
  return ImVec2((s0.x + s1.x) * 0.5f, (s0.y + s1.y) * 0.5f);
}

// Captions placed in order of importance, each where it overlaps no point and none placed
// before it and stays inside the plot, on a backing of the window's colour (the roofs stay
// clear of them). Each one placed is recorded as a "chart_caption" item (screenshot report).
class CaptionPlacer {
 public:
  CaptionPlacer(ImDrawList* dl, const RoofFrame& f)
      : dl_(dl), f_(f), backing_(ImGui::GetColorU32(ImGuiCol_WindowBg, 0.85f)) {}
  void avoid(ImVec2 lo, ImVec2 hi) { taken_.push_back({lo, hi}); }
  bool fits(ImVec2 at, const char* words) const {
    const Box r{at, ImVec2(at.x + ImGui::CalcTextSize(words).x, at.y + f_.fs)};
    if (r.lo.x < f_.a.x || r.hi.x > f_.b.x || r.lo.y < f_.a.y || r.hi.y > f_.b.y) return false;
    for (const Box& t : taken_)
      if (t.lo.x < r.hi.x && r.lo.x < t.hi.x && t.lo.y < r.hi.y && r.lo.y < t.hi.y) return false;
    return true;
  }
  bool place(ImVec2 at, const char* words, ImU32 color) {
    if (!fits(at, words)) return false;
    const ImVec2 hi(at.x + ImGui::CalcTextSize(words).x, at.y + f_.fs);
    taken_.push_back({at, hi});
    dl_->AddRectFilled(ImVec2(at.x - f_.fs * 0.1f, at.y), ImVec2(hi.x + f_.fs * 0.1f, hi.y),
                       backing_);
    dl_->AddText(at, color, words);
    if (DrawLog* log = text_record_target())
      log->note_drawn("chart_caption", words, at.x, at.y, hi.x - at.x, hi.y - at.y);
    return true;
  }
  // Two lines at `at` where both fit, else the one-line form at `at1`.
  void place2(ImVec2 at, const char* l1, const char* l2, ImVec2 at1, const char* one, ImU32 color) {
    const ImVec2 at2(at.x, at.y + f_.fs);
    if (fits(at, l1) && fits(at2, l2)) {
      place(at, l1, color);
      place(at2, l2, color);
    } else {
      place(at1, one, color);
    }
  }

 private:
  struct Box {
    ImVec2 lo, hi;
  };
  ImDrawList* dl_;
  const RoofFrame& f_;
  ImU32 backing_;
  std::vector<Box> taken_;
};

bool timed(const RooflinePoint& p) { return p.intensity > 0 && p.flops_per_s > 0; }

// A point's disc as drawn (draw_roof_points): small, or larger with its outline when
// highlighted or hovered.
float point_radius(const RoofFrame& f, bool big) {
  const float r = f.fs * 0.3f;
  return big ? r * 1.5f + 1.5f + std::max(2.0f, f.fs * 0.1f) * 0.5f : r;
}

// The ridge's label (right of the dashed line: above the flat roof, just under it or halfway
// down; shortened when tight), the two sides' names, main memory's slope: what fits, in that order.
void draw_roof_captions(ImDrawList* dl, const RoofFrame& f, std::span<const RooflinePoint> points,
                        const RooflineStyle& st, ImU32 roof, std::optional<ImVec2> slow_mid) {
  const float fs = f.fs, rx = f.rx;
  const ImVec2 a = f.a, b = f.b;
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  CaptionPlacer cap(dl, f);
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    const RooflinePoint& p = points[i];
    if (!timed(p)) continue;
    const float pr = point_radius(f, i == st.highlighted);  // (not the hovered: no jumping)
    const ImVec2 c(f.X(p.intensity), f.Y(p.flops_per_s));
    cap.avoid(ImVec2(c.x - pr, c.y - pr), ImVec2(c.x + pr, c.y + pr));
  }
  char rbuf[64];
  std::snprintf(rbuf, sizeof rbuf, "machine balance: %.3g FLOPs/byte", f.ridge);
  float rw = ImGui::CalcTextSize(rbuf).x;
  if (rx + fs * 0.3f + rw > b.x) {
    std::snprintf(rbuf, sizeof rbuf, "balance %.3g", f.ridge);
    rw = ImGui::CalcTextSize(rbuf).x;
  }
  const float lx = rx + fs * 0.3f + rw <= b.x ? rx + fs * 0.3f : rx - fs * 0.3f - rw;
  const float roof_y = f.Y(st.peak_flops);
  for (float y :
       {roof_y - fs * 1.1f, std::min(roof_y + fs * 0.25f, b.y - fs), (roof_y + b.y - fs) * 0.5f})
    if (cap.place(ImVec2(lx, y), rbuf, roof)) break;
  const ImVec2 mb(a.x + fs * 0.3f, a.y + fs * 0.2f);
  cap.place2(mb, "memory-bound:", "waiting for bytes", mb, "memory-bound", dim);
  const char* cb2 = "waiting for arithmetic";
  const float cw = std::max(ImGui::CalcTextSize("compute-bound:").x, ImGui::CalcTextSize(cb2).x);
  const float c1w = ImGui::CalcTextSize("compute-bound").x;
  cap.place2(ImVec2(std::max(rx + fs * 0.3f, b.x - cw - fs * 0.3f), b.y - fs * 2.3f),
             "compute-bound:", cb2,
             ImVec2(std::max(rx + fs * 0.3f, b.x - c1w - fs * 0.3f), b.y - fs * 1.2f),
             "compute-bound", dim);
  if (slow_mid) cap.place(ImVec2(slow_mid->x + fs * 0.3f, slow_mid->y), "main memory", dim);
}

// The timed point nearest the mouse, within 0.8 font sizes; -1 if none.
int nearest_point(const RoofFrame& f, std::span<const RooflinePoint> points) {
  float best = f.fs * 0.8f;
  int index = -1;
  const ImVec2 m = ImGui::GetIO().MousePos;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    if (!timed(points[i])) continue;
    const ImVec2 c(f.X(points[i].intensity), f.Y(points[i].flops_per_s));
    const float d = std::hypot(m.x - c.x, m.y - c.y);
    if (d < best) best = d, index = i;
  }
  return index;
}

// The points, the highlighted one last (on top); highlighted and hovered ones larger, outlined.
// Each is recorded as a "roof_point" item labelled with its index.
void draw_roof_points(ImDrawList* dl, const RoofFrame& f, std::span<const RooflinePoint> points,
                      const RooflineStyle& st, int hovered) {
  const float r = f.fs * 0.3f;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < static_cast<int>(points.size()); ++i) {
      const auto& p = points[i];
      if (!timed(p) || (i == st.highlighted) != (pass == 1)) continue;
      const ImVec2 c(f.X(p.intensity), f.Y(p.flops_per_s));
      const bool big = i == st.highlighted || i == hovered;
      dl->AddCircleFilled(c, big ? r * 1.5f : r, p.color ? p.color : text);
      if (big)
        dl->AddCircle(c, r * 1.5f + 1.5f, st.highlight_color ? st.highlight_color : text, 0,
                      std::max(2.0f, f.fs * 0.1f));
      if (DrawLog* log = text_record_target()) {
        const float d = point_radius(f, big);
        log->note_drawn("roof_point", std::to_string(i), c.x - d, c.y - d, 2 * d, 2 * d,
                        i == st.highlighted ? "highlighted" : "");
      }
    }
}

}  // namespace

ChartHit draw_roofline(const char* str_id, std::span<const RooflinePoint> points,
                       const RooflineStyle& st) {
  ChartHit hit;
  ImGui::PushID(str_id);
  const RoofFrame f = roof_frame(points, st, ImGui::GetCursorScreenPos());
  hit.clicked = ImGui::InvisibleButton("##roofline",
                                       ImVec2(std::max(f.size.x, 1.0f), std::max(f.size.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 roof = st.roof_color ? st.roof_color : ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddRectFilled(f.a, ImVec2(f.rx, f.b.y),
                    ImGui::GetColorU32(ImGuiCol_FrameBg));  // memory-bound
  dl->PushClipRect(f.p0, ImVec2(f.p0.x + f.size.x, f.p0.y + f.size.y), true);
  draw_roof_grid(dl, f);
  const std::optional<ImVec2> slow_mid = draw_roofs(dl, f, st, roof);
  if (hovered) hit.index = nearest_point(f, points);
  draw_roof_captions(dl, f, points, st, roof, slow_mid);  // after the roofs: on top
  hit.hovered = hit.index >= 0;
  draw_roof_points(dl, f, points, st, hit.index);
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
