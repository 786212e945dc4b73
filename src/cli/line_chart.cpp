// Line chart layout and drawing (see line_chart.h). Sizes scale with the image (the defaults
// are tuned for 900 x 500, shown at README width); margins are measured from the actual labels.
#include "cli/line_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "base/font_path.h"

namespace ts::cli {
namespace {

constexpr Rgb kBackground{255, 255, 255};
constexpr Rgb kGrid{232, 233, 237};
constexpr Rgb kAxis{110, 112, 122};
constexpr Rgb kText{40, 42, 50};
constexpr Rgb kMuted{118, 121, 132};
constexpr Rgb kMark{176, 178, 190};

// Tick label with as many decimals as the tick step needs.
std::string tick_label(double v, double step) {
  int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  if (std::fabs(step / std::pow(10.0, -decimals) - std::round(step / std::pow(10.0, -decimals))) >
      1e-6)
    ++decimals;
  if (std::fabs(v) < step * 1e-9) v = 0.0;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity(),
         hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

}  // namespace

float Chart::px_x(double x) const {
  return static_cast<float>(plot_x0 + (x - x_lo) / (x_hi - x_lo) * (plot_x1 - plot_x0));
}
float Chart::px_y(double y) const {
  return static_cast<float>(plot_y1 - (y - y_lo) / (y_hi - y_lo) * (plot_y1 - plot_y0));
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double raw = (hi - lo) / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double n = raw / mag;
  const double step = mag * (n < 1.5 ? 1.0 : n < 2.25 ? 2.0 : n < 3.5 ? 2.5 : n < 7.5 ? 5.0 : 10.0);
  const double first = std::floor(lo / step + 1e-9), last = std::ceil(hi / step - 1e-9);
  std::vector<double> t;
  for (double k = first; k <= last && t.size() < 60; k += 1.0) t.push_back(k * step);
  return t;
}

namespace {

constexpr float kCap = 0.73f;  // cap height of digits / em, to centre labels on ticks

// One chart being drawn: its spec, fonts, sizes at this image's scale, ticks and the Chart.
struct ChartDraw {
  ChartDraw(const ChartSpec& sp, const Font& f, const Font& tf)
      : spec(sp), font(f), title_font(tf) {}
  const ChartSpec& spec;
  const Font& font;
  const Font& title_font;
  float s = 1, tick_px = 0, title_px = 0, axis_px = 0, small_px = 0, pad = 0;
  std::vector<double> xt, yt;  // tick positions
  double xstep = 1, ystep = 1;
  int thin = 1, tick_len = 5;  // grid and axis lines, tick marks (px)
  Chart ch;
};

// The finite points' extent over every series.
void data_range(const ChartSpec& spec, Range& xr, Range& yr) {
  for (const ChartSeries& s : spec.series) {
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      xr.add(s.x[i]);
      yr.add(s.y[i]);
    }
  }
}

// Sizes, ticks and the plot area's margins, measured from the actual labels.
Status lay_out(ChartDraw& d, const Range& xr, const Range& yr) {
  const ChartSpec& spec = d.spec;
  const float s = d.s = std::clamp(std::min(spec.width / 900.0f, spec.height / 500.0f), 0.6f, 4.0f);
  d.tick_px = 14.0f * s;
  d.title_px = 19.0f * s;
  d.axis_px = 14.0f * s;
  d.small_px = 12.0f * s;
  d.pad = 12.0f * s;
  d.xt = nice_ticks(xr.lo, xr.hi, std::max(3, static_cast<int>(spec.width / (120.0f * s))));
  d.yt = nice_ticks(yr.lo, yr.hi, std::max(3, static_cast<int>(spec.height / (80.0f * s))));
  d.thin = std::max(1, static_cast<int>(std::lround(s)));
  d.tick_len = static_cast<int>(std::lround(5.0f * s));
  d.xstep = d.xt.size() > 1 ? d.xt[1] - d.xt[0] : 1.0;
  d.ystep = d.yt.size() > 1 ? d.yt[1] - d.yt[0] : 1.0;

  Chart& ch = d.ch;
  ch.canvas = Canvas(spec.width, spec.height, kBackground);
  ch.x_lo = d.xt.front();
  ch.x_hi = d.xt.back() > d.xt.front() ? d.xt.back() : d.xt.front() + 1.0;
  ch.y_lo = d.yt.front();
  ch.y_hi = d.yt.back() > d.yt.front() ? d.yt.back() : d.yt.front() + 1.0;

  float ylab_w = 0.0f;
  for (double v : d.yt)
    ylab_w = std::max(ylab_w, d.font.text_width(tick_label(v, d.ystep), d.tick_px));
  if (spec.x_secondary && !spec.x_secondary_title.empty())
    ylab_w = std::max(ylab_w, d.font.text_width(spec.x_secondary_title, d.small_px));
  const float last_half = d.font.text_width(tick_label(d.xt.back(), d.xstep), d.tick_px) * 0.5f;
  ch.plot_x0 = static_cast<int>(d.pad + (spec.y_title.empty() ? 0.0f : d.axis_px * 1.4f) + ylab_w +
                                10.0f * s);
  ch.plot_x1 = static_cast<int>(spec.width - std::max(22.0f * s, last_half + 6.0f * s));
  ch.plot_y0 = static_cast<int>(d.pad + (spec.title.empty() ? 0.0f : d.title_px * 1.5f) + 4.0f * s);
  float bottom = d.pad + 8.0f * s + d.tick_px * 1.2f;
  if (spec.x_secondary) bottom += d.small_px * 1.35f;
  if (!spec.x_title.empty()) bottom += d.axis_px * 1.6f;
  ch.plot_y1 = static_cast<int>(spec.height - bottom);
  if (ch.plot_x1 - ch.plot_x0 < 40 || ch.plot_y1 - ch.plot_y0 < 40)
    return make_error("chart too small for its labels");
  return ok_status();
}

// The grid lines at the ticks, and the vertical marks with their small labels.
void draw_grid_and_marks(ChartDraw& d) {
  Chart& ch = d.ch;
  Canvas& c = ch.canvas;
  const float s = d.s;
  for (double v : d.yt)
    c.fill_rect(ch.plot_x0, static_cast<int>(ch.px_y(v)), ch.plot_x1,
                static_cast<int>(ch.px_y(v)) + d.thin, kGrid);
  for (double v : d.xt)
    c.fill_rect(static_cast<int>(ch.px_x(v)), ch.plot_y0, static_cast<int>(ch.px_x(v)) + d.thin,
                ch.plot_y1, kGrid);
  for (double m : d.spec.x_marks) {
    if (m < ch.x_lo || m > ch.x_hi) continue;
    Coverage cov(c.width, c.height);
    const float x = std::floor(ch.px_x(m)) + 0.5f;
    cov.segment(x, static_cast<float>(ch.plot_y0), x, static_cast<float>(ch.plot_y1), 1.2f * s,
                5.0f * s, 4.0f * s);
    cov.composite(c, kMark, ch.plot_x0, ch.plot_y0, ch.plot_x1 + 1, ch.plot_y1);
    if (!d.spec.x_marks_label.empty())
      d.font.draw_up(c, d.spec.x_marks_label, d.small_px, x - 4.0f * s, ch.plot_y1 - 6.0f * s,
                     kMuted);
  }
}

// Each series as a polyline (dashed, with dots, or a lone point), clipped near the plot area.
void draw_series(ChartDraw& d) {
  Chart& ch = d.ch;
  Canvas& c = ch.canvas;
  const float s = d.s;
  const int clip = static_cast<int>(std::ceil(5.0f * s));
  for (const ChartSeries& ser : d.spec.series) {
    Coverage cov(c.width, c.height);
    float phase = 0.0f;
    bool have_prev = false;
    float px = 0, py = 0;
    const float w = ser.width_px * s;
    for (size_t i = 0; i < std::min(ser.x.size(), ser.y.size()); ++i) {
      if (!std::isfinite(ser.x[i]) || !std::isfinite(ser.y[i])) {
        have_prev = false;
        continue;
      }
      const float x = ch.px_x(ser.x[i]), y = ch.px_y(ser.y[i]);
      if (have_prev) {
        if (ser.dashed) {
          cov.segment(px, py, x, y, w, 7.0f * s, 5.0f * s, phase);
          phase += std::hypot(x - px, y - py);
        } else {
          cov.segment(px, py, x, y, w);
        }
      } else if (ser.x.size() == 1 && ser.dot_radius_px <= 0.0f) {
        cov.disc(x, y, w);  // a lone point stays visible
      }
      if (ser.dot_radius_px > 0.0f) cov.disc(x, y, ser.dot_radius_px * s);
      px = x;
      py = y;
      have_prev = true;
    }
    cov.composite(c, ser.colour, ch.plot_x0 - clip, ch.plot_y0 - clip, ch.plot_x1 + clip,
                  ch.plot_y1 + clip);
  }
}

// The x tick labels' rows under the axis (the numbers, then the second row and its caption);
// returns the baseline of the last row drawn.
float draw_x_labels(ChartDraw& d) {
  Chart& ch = d.ch;
  Canvas& c = ch.canvas;
  const ChartSpec& spec = d.spec;
  const float s = d.s;
  float row = ch.plot_y1 + d.tick_len + 4.0f * s + d.tick_px * kCap;
  for (double v : d.xt) {
    const int x = static_cast<int>(ch.px_x(v));
    c.fill_rect(x, ch.plot_y1, x + d.thin, ch.plot_y1 + d.tick_len, kAxis);
    const std::string l = tick_label(v, d.xstep);
    d.font.draw(c, l, d.tick_px, x + 0.5f - d.font.text_width(l, d.tick_px) * 0.5f, row, kText);
  }
  if (!spec.x_secondary) return row;
  row += d.small_px * 1.35f;
  for (double v : d.xt) {
    const std::string l = spec.x_secondary(v);
    d.font.draw(c, l, d.small_px, ch.px_x(v) + 0.5f - d.font.text_width(l, d.small_px) * 0.5f, row,
                kMuted);
  }
  if (!spec.x_secondary_title.empty()) {
    d.font.draw(
        c, spec.x_secondary_title, d.small_px,
        ch.plot_x0 - d.tick_len - 4.0f * s - d.font.text_width(spec.x_secondary_title, d.small_px),
        row, kMuted);
  }
  return row;
}

// The axes with their ticks and numbers, the axis titles and the chart's title.
void draw_axes(ChartDraw& d) {
  Chart& ch = d.ch;
  Canvas& c = ch.canvas;
  const ChartSpec& spec = d.spec;
  const float s = d.s;
  c.fill_rect(ch.plot_x0, ch.plot_y0, ch.plot_x0 + d.thin, ch.plot_y1 + d.thin, kAxis);
  c.fill_rect(ch.plot_x0, ch.plot_y1, ch.plot_x1 + d.thin, ch.plot_y1 + d.thin, kAxis);
  for (double v : d.yt) {
    const int y = static_cast<int>(ch.px_y(v));
    c.fill_rect(ch.plot_x0 - d.tick_len, y, ch.plot_x0, y + d.thin, kAxis);
    const std::string l = tick_label(v, d.ystep);
    d.font.draw(c, l, d.tick_px,
                ch.plot_x0 - d.tick_len - 4.0f * s - d.font.text_width(l, d.tick_px),
                y + 0.5f + d.tick_px * kCap * 0.5f, kText);
  }
  float row = draw_x_labels(d);
  if (!spec.x_title.empty()) {
    row += d.axis_px * 1.6f;
    d.font.draw(
        c, spec.x_title, d.axis_px,
        (ch.plot_x0 + ch.plot_x1) * 0.5f - d.font.text_width(spec.x_title, d.axis_px) * 0.5f, row,
        kText);
  }
  if (!spec.y_title.empty()) {
    d.font.draw_up(
        c, spec.y_title, d.axis_px, d.pad + d.axis_px * kCap + 2.0f * s,
        (ch.plot_y0 + ch.plot_y1) * 0.5f + d.font.text_width(spec.y_title, d.axis_px) * 0.5f,
        kText);
  }
  if (!spec.title.empty()) {
    d.title_font.draw(
        c, spec.title, d.title_px,
        (ch.plot_x0 + ch.plot_x1) * 0.5f - d.title_font.text_width(spec.title, d.title_px) * 0.5f,
        d.pad + d.title_px * 0.95f, kText);
  }
}

// The legend, top right inside the plot area: solid lines first, dashed (reference) lines after.
void draw_legend(ChartDraw& d) {
  Chart& ch = d.ch;
  Canvas& c = ch.canvas;
  const float s = d.s, tick_px = d.tick_px;
  std::vector<const ChartSeries*> listed;
  float label_w = 0.0f;
  for (int pass = 0; pass < 2; ++pass) {
    for (const ChartSeries& ser : d.spec.series) {
      if (ser.label.empty() || ser.dashed != (pass == 1)) continue;
      listed.push_back(&ser);
      label_w = std::max(label_w, d.font.text_width(ser.label, tick_px));
    }
  }
  if (listed.empty()) return;
  const float lpad = 9.0f * s, sample = 28.0f * s, line_h = tick_px * 1.55f;
  const float bw = lpad * 2 + sample + 8.0f * s + label_w,
              bh = lpad * 2 + line_h * listed.size() - (line_h - tick_px);
  const int bx1 = ch.plot_x1 - static_cast<int>(10.0f * s),
            by0 = ch.plot_y0 + static_cast<int>(10.0f * s);
  const int bx0 = bx1 - static_cast<int>(bw), by1 = by0 + static_cast<int>(bh);
  c.fill_rect(bx0, by0, bx1, by1, Rgb{214, 216, 222});
  c.fill_rect(bx0 + 1, by0 + 1, bx1 - 1, by1 - 1, kBackground);
  for (size_t i = 0; i < listed.size(); ++i) {
    const ChartSeries& ser = *listed[i];
    const float cy = by0 + lpad + tick_px * 0.5f + line_h * i;
    Coverage cov(c.width, c.height);
    if (ser.dashed) {
      cov.segment(bx0 + lpad, cy, bx0 + lpad + sample, cy, ser.width_px * s, 7.0f * s, 5.0f * s);
    } else {
      cov.segment(bx0 + lpad, cy, bx0 + lpad + sample, cy, ser.width_px * s);
    }
    if (ser.dot_radius_px > 0.0f) cov.disc(bx0 + lpad + sample * 0.5f, cy, ser.dot_radius_px * s);
    cov.composite(c, ser.colour, bx0, by0, bx1, by1);
    d.font.draw(c, ser.label, tick_px, bx0 + lpad + sample + 8.0f * s, cy + tick_px * kCap * 0.5f,
                kText);
  }
}

}  // namespace

Result<Chart> render_line_chart(const ChartSpec& spec) {
  if (spec.width < 200 || spec.width > 4000 || spec.height < 150 || spec.height > 4000)
    return make_error("chart size " + std::to_string(spec.width) + " x " +
                      std::to_string(spec.height) + " is outside 200..4000 x 150..4000");
  Range xr, yr;
  data_range(spec, xr, yr);
  if (xr.empty()) return make_error("nothing to plot: no series has a finite point");
  Result<std::unique_ptr<Font>> regular = Font::load(font_directory() + "/DejaVuSans.ttf");
  if (!regular.ok()) return regular.error();
  Result<std::unique_ptr<Font>> bold = Font::load(font_directory() + "/DejaVuSans-Bold.ttf");
  const Font& font = *regular.value();
  ChartDraw d(spec, font, bold.ok() ? *bold.value() : font);
  TS_TRY(lay_out(d, xr, yr));
  // Grid, then marks, then the series, then axes and text on top.
  draw_grid_and_marks(d);
  draw_series(d);
  draw_axes(d);
  draw_legend(d);
  return std::move(d.ch);
}

}  // namespace ts::cli
