// A small RGB canvas for charts drawn without any UI library: anti-aliased lines and dots
// (distance-to-segment coverage, so joins and ends are round and clean), filled rectangles,
// text rendered with stb_truetype (DejaVu Sans, kerned, optionally turned 90 degrees), and
// PNG output with stb_image_write. Used by `tokenscope plot-loss` (line_chart.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"

namespace ts::cli {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
};

struct Canvas {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // row-major, 3 bytes a pixel, top row first

  Canvas(int w, int h, Rgb fill);
  Rgb at(int x, int y) const;
  // Mixes `c` into the pixel with weight a in [0, 1]; outside the canvas is ignored.
  void blend(int x, int y, Rgb c, float a);
  void fill_rect(int x0, int y0, int x1, int y1, Rgb c);  // [x0, x1) x [y0, y1)
};

// Coverage of one colour, built up from shapes (max per pixel, so overlapping segments of one
// polyline do not darken at the joins), then composited once, clipped to a rectangle.
struct Coverage {
  int width = 0, height = 0;
  std::vector<float> a;
  Coverage(int w, int h) : width(w), height(h), a(static_cast<size_t>(w) * h, 0.0f) {}
  // A segment of width `w` px between two points in pixel coordinates (pixel centres at +0.5).
  // dash_on/dash_off > 0 make it dashed, the pattern starting at arc length `dash_phase`.
  void segment(float x0, float y0, float x1, float y1, float w, float dash_on = 0.0f,
               float dash_off = 0.0f, float dash_phase = 0.0f);
  void disc(float cx, float cy, float radius);
  void composite(Canvas& c, Rgb colour, int clip_x0, int clip_y0, int clip_x1, int clip_y1) const;
};

// A TrueType font loaded from a file, drawing at any pixel size.
class Font {
 public:
  static Result<std::unique_ptr<Font>> load(const std::string& path);
  ~Font();
  // Width in pixels of `text` (UTF-8) at size `px` (the em height).
  float text_width(const std::string& text, float px) const;
  // Draws `text` with its baseline's left end at (x, baseline).
  void draw(Canvas& c, const std::string& text, float px, float x, float baseline,
            Rgb colour) const;
  // Draws `text` turned 90 degrees counter-clockwise (reading bottom to top); (x, y) is where the
  // baseline starts (left end of the unturned text), so the text extends upward from y.
  void draw_up(Canvas& c, const std::string& text, float px, float x, float y, Rgb colour) const;

 private:
  Font();
  struct Impl;
  std::unique_ptr<Impl> impl_;
  // Renders the text as coverage into a w x h buffer (baseline at `baseline` rows from the top).
  std::vector<float> render_alpha(const std::string& text, float px, int& w, int& h,
                                  int& baseline) const;
};

// Writes the canvas as an RGB PNG; the error names the path.
Status write_png(const std::string& path, const Canvas& c);

}  // namespace ts::cli
