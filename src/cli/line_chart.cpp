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

Result<Chart> render_line_chart(const ChartSpec& spec) {
  if (spec.width < 200 || spec.width > 4000 || spec.height < 150 || spec.height > 4000)
    return make_error("chart size " + std::to_string(spec.width) + " x " +
                      std::to_string(spec.height) + " is outside 200..4000 x 150..4000");
  Range xr, yr;
  for (const ChartSeries& s : spec.series) {
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      xr.add(s.x[i]);
      yr.add(s.y[i]);
    }
  }
  if (xr.empty()) return make_error("nothing to plot: no series has a finite point");
  Result<std::unique_ptr<Font>> regular = Font::load(font_directory() + "/DejaVuSans.ttf");
  if (!regular.ok()) return regular.error();
  Result<std::unique_ptr<Font>> bold = Font::load(font_directory() + "/DejaVuSans-Bold.ttf");
  const Font& font = *regular.value();
  const Font& title_font = bold.ok() ? *bold.value() : font;

  const float s = std::clamp(std::min(spec.width / 900.0f, spec.height / 500.0f), 0.6f, 4.0f);
  const float tick_px = 14.0f * s, title_px = 19.0f * s, axis_px = 14.0f * s, small_px = 12.0f * s;
  const float cap = 0.73f;  // cap height of digits / em, to centre labels on ticks

  const std::vector<double> xt =
      nice_ticks(xr.lo, xr.hi, std::max(3, static_cast<int>(spec.width / (120.0f * s))));
  const std::vector<double> yt =
      nice_ticks(yr.lo, yr.hi, std::max(3, static_cast<int>(spec.height / (80.0f * s))));
  const int thin = std::max(1, static_cast<int>(std::lround(s)));  // grid and axis lines
  const double xstep = xt.size() > 1 ? xt[1] - xt[0] : 1.0,
               ystep = yt.size() > 1 ? yt[1] - yt[0] : 1.0;

  Chart ch;
  ch.canvas = Canvas(spec.width, spec.height, kBackground);
  Canvas& c = ch.canvas;
  ch.x_lo = xt.front();
  ch.x_hi = xt.back() > xt.front() ? xt.back() : xt.front() + 1.0;
  ch.y_lo = yt.front();
  ch.y_hi = yt.back() > yt.front() ? yt.back() : yt.front() + 1.0;

  float ylab_w = 0.0f;
  for (double v : yt) ylab_w = std::max(ylab_w, font.text_width(tick_label(v, ystep), tick_px));
  if (spec.x_secondary && !spec.x_secondary_title.empty())
    ylab_w = std::max(ylab_w, font.text_width(spec.x_secondary_title, small_px));
  const float last_half = font.text_width(tick_label(xt.back(), xstep), tick_px) * 0.5f;
  const float pad = 12.0f * s;
  ch.plot_x0 =
      static_cast<int>(pad + (spec.y_title.empty() ? 0.0f : axis_px * 1.4f) + ylab_w + 10.0f * s);
  ch.plot_x1 = static_cast<int>(spec.width - std::max(22.0f * s, last_half + 6.0f * s));
  ch.plot_y0 = static_cast<int>(pad + (spec.title.empty() ? 0.0f : title_px * 1.5f) + 4.0f * s);
  float bottom = pad + 8.0f * s + tick_px * 1.2f;
  if (spec.x_secondary) bottom += small_px * 1.35f;
  if (!spec.x_title.empty()) bottom += axis_px * 1.6f;
  ch.plot_y1 = static_cast<int>(spec.height - bottom);
  if (ch.plot_x1 - ch.plot_x0 < 40 || ch.plot_y1 - ch.plot_y0 < 40)
    return make_error("chart too small for its labels");

  // Grid, then marks, then the series, then axes and text on top.
  for (double v : yt)
    c.fill_rect(ch.plot_x0, static_cast<int>(ch.px_y(v)), ch.plot_x1,
                static_cast<int>(ch.px_y(v)) + thin, kGrid);
  for (double v : xt)
    c.fill_rect(static_cast<int>(ch.px_x(v)), ch.plot_y0, static_cast<int>(ch.px_x(v)) + thin,
                ch.plot_y1, kGrid);
  for (double m : spec.x_marks) {
    if (m < ch.x_lo || m > ch.x_hi) continue;
    Coverage cov(c.width, c.height);
    const float x = std::floor(ch.px_x(m)) + 0.5f;
    cov.segment(x, static_cast<float>(ch.plot_y0), x, static_cast<float>(ch.plot_y1), 1.2f * s,
                5.0f * s, 4.0f * s);
    cov.composite(c, kMark, ch.plot_x0, ch.plot_y0, ch.plot_x1 + 1, ch.plot_y1);
    if (!spec.x_marks_label.empty())
      font.draw_up(c, spec.x_marks_label, small_px, x - 4.0f * s, ch.plot_y1 - 6.0f * s, kMuted);
  }
  const int clip = static_cast<int>(std::ceil(5.0f * s));
  for (const ChartSeries& ser : spec.series) {
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
  c.fill_rect(ch.plot_x0, ch.plot_y0, ch.plot_x0 + thin, ch.plot_y1 + thin, kAxis);
  c.fill_rect(ch.plot_x0, ch.plot_y1, ch.plot_x1 + thin, ch.plot_y1 + thin, kAxis);
  const int tick_len = static_cast<int>(std::lround(5.0f * s));
  for (double v : yt) {
    const int y = static_cast<int>(ch.px_y(v));
    c.fill_rect(ch.plot_x0 - tick_len, y, ch.plot_x0, y + thin, kAxis);
    const std::string l = tick_label(v, ystep);
    font.draw(c, l, tick_px, ch.plot_x0 - tick_len - 4.0f * s - font.text_width(l, tick_px),
              y + 0.5f + tick_px * cap * 0.5f, kText);
  }
  float row = ch.plot_y1 + tick_len + 4.0f * s + tick_px * cap;
  for (double v : xt) {
    const int x = static_cast<int>(ch.px_x(v));
    c.fill_rect(x, ch.plot_y1, x + thin, ch.plot_y1 + tick_len, kAxis);
    const std::string l = tick_label(v, xstep);
    font.draw(c, l, tick_px, x + 0.5f - font.text_width(l, tick_px) * 0.5f, row, kText);
  }
  if (spec.x_secondary) {
    row += small_px * 1.35f;
    for (double v : xt) {
      const std::string l = spec.x_secondary(v);
      font.draw(c, l, small_px, ch.px_x(v) + 0.5f - font.text_width(l, small_px) * 0.5f, row,
                kMuted);
    }
    if (!spec.x_secondary_title.empty()) {
      font.draw(
          c, spec.x_secondary_title, small_px,
          ch.plot_x0 - tick_len - 4.0f * s - font.text_width(spec.x_secondary_title, small_px), row,
          kMuted);
    }
  }
  if (!spec.x_title.empty()) {
    row += axis_px * 1.6f;
    font.draw(c, spec.x_title, axis_px,
              (ch.plot_x0 + ch.plot_x1) * 0.5f - font.text_width(spec.x_title, axis_px) * 0.5f, row,
              kText);
  }
  if (!spec.y_title.empty()) {
    font.draw_up(c, spec.y_title, axis_px, pad + axis_px * cap + 2.0f * s,
                 (ch.plot_y0 + ch.plot_y1) * 0.5f + font.text_width(spec.y_title, axis_px) * 0.5f,
                 kText);
  }
  if (!spec.title.empty()) {
    title_font.draw(
        c, spec.title, title_px,
        (ch.plot_x0 + ch.plot_x1) * 0.5f - title_font.text_width(spec.title, title_px) * 0.5f,
        pad + title_px * 0.95f, kText);
  }

  // Legend: top right inside the plot area.
  std::vector<const ChartSeries*> listed;
  float label_w = 0.0f;
  for (int pass = 0; pass < 2; ++pass) {  // solid lines first, dashed (reference) lines after
    for (const ChartSeries& ser : spec.series) {
      if (ser.label.empty() || ser.dashed != (pass == 1)) continue;
      listed.push_back(&ser);
      label_w = std::max(label_w, font.text_width(ser.label, tick_px));
    }
  }
  if (!listed.empty()) {
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
      font.draw(c, ser.label, tick_px, bx0 + lpad + sample + 8.0f * s, cy + tick_px * cap * 0.5f,
                kText);
    }
  }
  return ch;
}

}  // namespace ts::cli
