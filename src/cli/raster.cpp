// The chart canvas (see raster.h). stb_truetype and stb_image_write come compiled in Debian's
// libstb (libstb-dev), so no STB_*_IMPLEMENTATION is defined here. Text is rasterised glyph by
// glyph into a coverage buffer with subpixel x positions, then blended (or turned, for draw_up).
#include "cli/raster.h"

#include <stb_image_write.h>
#include <stb_truetype.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include "base/atomic_write.h"
#include "base/utf8.h"

namespace ts::cli {

Canvas::Canvas(int w, int h, Rgb fill) : width(w), height(h), rgb(static_cast<size_t>(w) * h * 3) {
  fill_rect(0, 0, w, h, fill);
}

Rgb Canvas::at(int x, int y) const {
  const size_t i = (static_cast<size_t>(y) * width + x) * 3;
  return {rgb[i], rgb[i + 1], rgb[i + 2]};
}

void Canvas::blend(int x, int y, Rgb c, float a) {
  if (x < 0 || y < 0 || x >= width || y >= height || a <= 0.0f) return;
  a = std::min(a, 1.0f);
  uint8_t* p = &rgb[(static_cast<size_t>(y) * width + x) * 3];
  const uint8_t src[3] = {c.r, c.g, c.b};
  for (int k = 0; k < 3; ++k) p[k] = static_cast<uint8_t>(std::lround(p[k] + (src[k] - p[k]) * a));
}

void Canvas::fill_rect(int x0, int y0, int x1, int y1, Rgb c) {
  for (int y = std::max(0, y0); y < std::min(height, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(width, x1); ++x) blend(x, y, c, 1.0f);
}

void Coverage::segment(float x0, float y0, float x1, float y1, float w, float dash_on,
                       float dash_off, float dash_phase) {
  const float hw = w * 0.5f;
  const float dx = x1 - x0, dy = y1 - y0;
  const float len2 = dx * dx + dy * dy;
  const float len = std::sqrt(len2);
  const int bx0 = std::max(0, static_cast<int>(std::floor(std::min(x0, x1) - hw - 1)));
  const int bx1 = std::min(width - 1, static_cast<int>(std::ceil(std::max(x0, x1) + hw + 1)));
  const int by0 = std::max(0, static_cast<int>(std::floor(std::min(y0, y1) - hw - 1)));
  const int by1 = std::min(height - 1, static_cast<int>(std::ceil(std::max(y0, y1) + hw + 1)));
  for (int py = by0; py <= by1; ++py) {
    for (int px = bx0; px <= bx1; ++px) {
      const float cx = px + 0.5f, cy = py + 0.5f;
      float t = len2 > 0.0f ? ((cx - x0) * dx + (cy - y0) * dy) / len2 : 0.0f;
      t = std::clamp(t, 0.0f, 1.0f);
      if (dash_on > 0.0f && dash_off > 0.0f) {
        const float s = std::fmod(dash_phase + t * len, dash_on + dash_off);
        if (s > dash_on) continue;
      }
      const float ex = x0 + t * dx - cx, ey = y0 + t * dy - cy;
      const float cov = std::clamp(hw + 0.5f - std::sqrt(ex * ex + ey * ey), 0.0f, 1.0f);
      float& dst = a[static_cast<size_t>(py) * width + px];
      dst = std::max(dst, cov);
    }
  }
}

void Coverage::disc(float cx, float cy, float radius) { segment(cx, cy, cx, cy, 2.0f * radius); }

void Coverage::composite(Canvas& c, Rgb colour, int clip_x0, int clip_y0, int clip_x1,
                         int clip_y1) const {
  for (int y = std::max(0, clip_y0); y < std::min(height, clip_y1); ++y)
    for (int x = std::max(0, clip_x0); x < std::min(width, clip_x1); ++x)
      c.blend(x, y, colour, a[static_cast<size_t>(y) * width + x]);
}

struct Font::Impl {
  std::vector<unsigned char> data;
  stbtt_fontinfo info{};
};

Font::Font() : impl_(std::make_unique<Impl>()) {}
Font::~Font() = default;

Result<std::unique_ptr<Font>> Font::load(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return make_error("font not found: " + path + " (install fonts-dejavu-core)");
  std::unique_ptr<Font> font(new Font());
  font->impl_->data.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  const unsigned char* d = font->impl_->data.data();
  if (font->impl_->data.size() < 12 ||
      !stbtt_InitFont(&font->impl_->info, d, stbtt_GetFontOffsetForIndex(d, 0)))
    return make_error("not a TrueType font: " + path);
  return font;
}

namespace {
std::vector<uint32_t> codepoints(const std::string& s) {
  std::vector<uint32_t> r;
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_seq_len(s, i);
    r.push_back(n > 0 ? utf8_decode_at(s, i) : 0xFFFD);
    i += n > 0 ? static_cast<size_t>(n) : 1;
  }
  return r;
}
}  // namespace

float Font::text_width(const std::string& text, float px) const {
  const float scale = stbtt_ScaleForPixelHeight(&impl_->info, px);
  const std::vector<uint32_t> cps = codepoints(text);
  float x = 0.0f;
  for (size_t i = 0; i < cps.size(); ++i) {
    int adv = 0, lsb = 0;
    stbtt_GetCodepointHMetrics(&impl_->info, static_cast<int>(cps[i]), &adv, &lsb);
    x += adv * scale;
    if (i + 1 < cps.size())
      x += scale * stbtt_GetCodepointKernAdvance(&impl_->info, static_cast<int>(cps[i]),
                                                 static_cast<int>(cps[i + 1]));
  }
  return x;
}

std::vector<float> Font::render_alpha(const std::string& text, float px, int& w, int& h,
                                      int& baseline) const {
  const float scale = stbtt_ScaleForPixelHeight(&impl_->info, px);
  int asc = 0, desc = 0, gap = 0;
  stbtt_GetFontVMetrics(&impl_->info, &asc, &desc, &gap);
  baseline = static_cast<int>(std::ceil(asc * scale));
  h = baseline + static_cast<int>(std::ceil(-desc * scale)) + 1;
  w = static_cast<int>(std::ceil(text_width(text, px))) + 4;
  std::vector<float> out(static_cast<size_t>(w) * h, 0.0f);
  const std::vector<uint32_t> cps = codepoints(text);
  float x = 1.0f;
  std::vector<unsigned char> glyph;
  for (size_t i = 0; i < cps.size(); ++i) {
    const int cp = static_cast<int>(cps[i]);
    int adv = 0, lsb = 0;
    stbtt_GetCodepointHMetrics(&impl_->info, cp, &adv, &lsb);
    const float fx = x - std::floor(x);
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    stbtt_GetCodepointBitmapBoxSubpixel(&impl_->info, cp, scale, scale, fx, 0.0f, &x0, &y0, &x1,
                                        &y1);
    const int gw = x1 - x0, gh = y1 - y0;
    if (gw > 0 && gh > 0) {
      glyph.assign(static_cast<size_t>(gw) * gh, 0);
      stbtt_MakeCodepointBitmapSubpixel(&impl_->info, glyph.data(), gw, gh, gw, scale, scale, fx,
                                        0.0f, cp);
      for (int gy = 0; gy < gh; ++gy) {
        for (int gx = 0; gx < gw; ++gx) {
          const int ox = static_cast<int>(std::floor(x)) + x0 + gx, oy = baseline + y0 + gy;
          if (ox < 0 || oy < 0 || ox >= w || oy >= h) continue;
          float& d = out[static_cast<size_t>(oy) * w + ox];
          d = std::min(1.0f, d + glyph[static_cast<size_t>(gy) * gw + gx] / 255.0f);
        }
      }
    }
    x += adv * scale;
    if (i + 1 < cps.size())
      x += scale * stbtt_GetCodepointKernAdvance(&impl_->info, cp, static_cast<int>(cps[i + 1]));
  }
  return out;
}

void Font::draw(Canvas& c, const std::string& text, float px, float x, float baseline,
                Rgb colour) const {
  int w = 0, h = 0, base = 0;
  const std::vector<float> a = render_alpha(text, px, w, h, base);
  const int ox = static_cast<int>(std::lround(x)) - 1,
            oy = static_cast<int>(std::lround(baseline)) - base;
  for (int y = 0; y < h; ++y)
    for (int xx = 0; xx < w; ++xx)
      c.blend(ox + xx, oy + y, colour, a[static_cast<size_t>(y) * w + xx]);
}

void Font::draw_up(Canvas& c, const std::string& text, float px, float x, float y,
                   Rgb colour) const {
  int w = 0, h = 0, base = 0;
  const std::vector<float> a = render_alpha(text, px, w, h, base);
  // Unturned (u, v) -> turned: column x - base + v, row y + 1 - u (text runs upward).
  const int bx = static_cast<int>(std::lround(x)) - base, by = static_cast<int>(std::lround(y)) + 1;
  for (int v = 0; v < h; ++v)
    for (int u = 0; u < w; ++u) c.blend(bx + v, by - u, colour, a[static_cast<size_t>(v) * w + u]);
}

Status write_png(const std::string& path, const Canvas& c) {
  if (c.width <= 0 || c.height <= 0) return make_error(path + ": empty image");
  // Encoded in memory, then written atomically: a failed write leaves an older PNG untouched.
  std::string png;
  auto append = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data),
                                           static_cast<size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, c.width, c.height, 3, c.rgb.data(), c.width * 3))
    return make_error("cannot encode " + path);
  return write_file_atomically(path, [&](std::ostream& out) {
    out.write(png.data(), static_cast<std::streamsize>(png.size()));
    return out ? ok_status() : make_error("error while writing " + path);
  });
}

}  // namespace ts::cli
