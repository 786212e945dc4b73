// A line chart rendered to a Canvas (raster.h): series as anti-aliased polylines (optionally with
// dots, or dashed), "nice" axis ticks with numbers and light grid lines, an optional second row
// of x tick labels (e.g. tokens seen at that step), vertical marks, a legend and a title. Text
// in DejaVu Sans found through font_directory(). Pure drawing: no files besides the fonts.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "base/error.h"
#include "cli/raster.h"

namespace ts::cli {

struct ChartSeries {
  std::string label;  // in the legend; empty: not listed
  std::vector<double> x, y;
  Rgb colour;
  float width_px = 2.0f;
  float dot_radius_px = 0.0f;  // > 0: a dot at each point
  bool dashed = false;
};

struct ChartSpec {
  int width = 900, height = 500;
  std::string title, x_title, y_title;
  std::vector<ChartSeries> series;  // drawn in order (the last on top)
  // Second row of x tick labels, from the tick's x value (none when empty), and its caption.
  std::function<std::string(double)> x_secondary;
  std::string x_secondary_title;
  std::vector<double> x_marks;  // faint vertical dashed lines (e.g. where a run was resumed)
  std::string x_marks_label;    // small text by each mark
};

struct Chart {
  Canvas canvas{1, 1, Rgb{255, 255, 255}};
  int plot_x0 = 0, plot_y0 = 0, plot_x1 = 0, plot_y1 = 0;  // the data area, in pixels
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;           // the data range it shows
  float px_x(double x) const;                              // data -> pixel coordinates
  float px_y(double y) const;
};

// "Nice" tick positions covering [lo, hi] (steps of 1, 2, 2.5 or 5 x 10^k), about `target` many.
std::vector<double> nice_ticks(double lo, double hi, int target);

// Errors: the size is outside 200..4000 x 150..4000, no series has a finite point, or the font
// cannot be loaded.
Result<Chart> render_line_chart(const ChartSpec& spec);

}  // namespace ts::cli
