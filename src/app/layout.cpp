// The layout (see layout.h): the overview (three columns sharing the width by the teacher's
// splitter fractions, panels sharing a column's height by weight, never below a readable
// minimum: what does not fit becomes a tab) and the presentation layout (the lesson column on
// the left, the focus panel filling the rest, every other panel a tab above it).
#include "app/layout.h"

#include "app/panel_table.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace ts {
namespace {

struct Slot {
  PanelId id;
  float weight;
};

// Sizes of the fixed parts, following apply_theme's paddings (scaled with the font).
struct Metrics {
  float fs, sc, pad, frame, spacing;
  explicit Metrics(float font_size) {
    fs = std::max(8.0f, font_size);
    sc = std::max(0.75f, fs / 16.0f);
    pad = 8.0f * sc;
    frame = fs + 8.0f * sc;
    spacing = 6.0f * sc;
  }
  // A panel is readable with its title and three lines of content.
  float min_panel_h() const { return frame + pad * 2.0f + fs * 3.0f; }
  // Tabs are title bars in the small font (kSmallFontRatio of the text size), without a close
  // button.
  float tab_h() const { return fs * kSmallFontRatio + 8.0f * sc; }
};

float text_width(const LayoutMeasure& m, const Metrics& mt, const char* s) {
  if (m.text_width) return m.text_width(s);
  int chars = 0;  // UTF-8 code points
  for (const char* p = s; *p; ++p) chars += (static_cast<unsigned char>(*p) & 0xC0) != 0x80;
  return static_cast<float>(chars) * mt.fs * 0.62f;
}

PanelRect& rect_of(UiState& ui, PanelId id) { return ui.frame.rects[static_cast<int>(id)]; }

float tab_width(const PanelId id, const Metrics& mt, const LayoutMeasure& m) {
  return text_width(m, mt, panel_title(id)) * kSmallFontRatio + 7.0f * mt.sc * 2.0f + 2.0f;
}

// Places tabs (title bars) left to right in one row from (x, y) within width w. Those that do
// not fit go behind a "+N more" tab at the row's end. Returns true when all fitted without it.
// With ui == nullptr it only measures.
bool place_tabs(UiState* ui, const std::vector<PanelId>& tabs, float x, float y, float w,
                const Metrics& mt, const LayoutMeasure& m) {
  float total = 0;
  for (PanelId id : tabs) total += tab_width(id, mt, m);
  const bool all = total <= w + 0.5f;
  const float more_w = all ? 0.0f : text_width(m, mt, "+9 more ▾") * kSmallFontRatio + 7.0f * mt.sc * 2.0f;
  float cx = x;
  for (PanelId id : tabs) {
    const float tw = tab_width(id, mt, m);
    const bool fits = cx + tw <= x + w - more_w + 0.5f;
    if (ui && fits) {
      rect_of(*ui, id) = PanelRect{cx, y, tw, mt.tab_h()};
      ui->frame.tabbed[static_cast<int>(id)] = true;
    } else if (ui) {  // reachable from the "more" tab only
      ui->frame.tabbed[static_cast<int>(id)] = true;
      ui->frame.more_tabs.push_back(static_cast<int>(id));
    }
    if (fits) cx += tw;
  }
  if (ui && !all) ui->frame.more_tab = PanelRect{cx, y, std::min(more_w, x + w - cx), mt.tab_h()};
  return all;
}

// Stacks the visible panels of `slots` into the column (x, y, w, h). Panels that would get less
// than the readable minimum become tabs at the column's bottom, the last slots first.
void stack(UiState& ui, const std::vector<Slot>& slots, float x, float y, float w, float h,
           const Metrics& mt, const LayoutMeasure& m) {
  std::vector<Slot> vis;
  for (const Slot& s : slots) {  // the teacher's dragged weights replace the defaults
    const float w = ui.prefs.layout_prefs.weight[static_cast<int>(s.id)];
    if (ui.prefs.visible(s.id)) vis.push_back(Slot{s.id, w > 0 ? w : s.weight});
  }
  std::vector<PanelId> tabs;
  for (;;) {
    const float tabs_h = tabs.empty() ? 0.0f : mt.tab_h() * static_cast<float>(tabs.size());
    const float avail = h - tabs_h;
    // A share set by `size PANEL N%` takes that part of the column; the rest is by weight.
    float fixed = 0, total = 0;
    for (const Slot& s : vis) {
      const float share = ui.frame.size_override[static_cast<int>(s.id)];
      if (share > 0 && vis.size() > 1)
        fixed += std::min(share, 0.9f) * avail;
      else
        total += s.weight;
    }
    fixed = std::min(fixed, avail * 0.9f);
    std::vector<float> hs;
    bool ok = true;
    for (const Slot& s : vis) {
      const float share = ui.frame.size_override[static_cast<int>(s.id)];
      const float ph = share > 0 && vis.size() > 1 ? std::min(share, 0.9f) * avail
                                                   : (avail - fixed) * s.weight / total;
      hs.push_back(ph);
      ok = ok && ph >= mt.min_panel_h();
    }
    if (ok || vis.size() <= 1) {
      float cy = y;
      for (size_t i = 0; i < vis.size(); ++i) {
        rect_of(ui, vis[i].id) = PanelRect{x, cy, w, hs[i]};
        cy += hs[i];
      }
      for (PanelId id : tabs) {
        rect_of(ui, id) = PanelRect{x, cy, w, mt.tab_h()};
        ui.frame.tabbed[static_cast<int>(id)] = true;
        cy += mt.tab_h();
      }
      return;
    }
    // The last panel that is not the lesson becomes a tab.
    auto it = std::find_if(vis.rbegin(), vis.rend(),
                           [](const Slot& s) { return s.id != PanelId::Lesson; });
    if (it == vis.rend()) it = vis.rbegin();
    tabs.insert(tabs.begin(), it->id);
    vis.erase(std::next(it).base());
  }
}

bool any_visible(const UiState& ui, const std::vector<Slot>& slots) {
  return std::any_of(slots.begin(), slots.end(),
                     [&](const Slot& s) { return ui.prefs.visible(s.id); });
}

// The compact timeline of the presentation layout: one row of buttons and the scrubber, no title.
float compact_transport_height(const Metrics& mt) { return mt.frame + mt.pad * 2.0f + 2.0f; }

float transport_height(const UiState& ui, const Metrics& mt) {
  float want = mt.frame + mt.pad * 2.0f + mt.frame * 1.3f + mt.fs * 1.4f + mt.spacing * 2.0f + 8.0f;
  if (ui.timeline.phases) want += mt.fs * 1.25f + mt.spacing;
  return want;
}

// The presentation layout inside (0, top, width, bottom - top); the status bar is already placed.
void focus_layout(UiState& ui, float width, float height, float top, float bottom,
                  const Metrics& mt, const LayoutMeasure& m) {
  const PanelId focus = static_cast<PanelId>(ui.prefs.focus_panel);
  const bool lesson = ui.prefs.visible(PanelId::Lesson);
  std::vector<PanelId> tabs;
  for (int i = 0; i < kPanelCount; ++i) {
    const PanelId id = static_cast<PanelId>(i);
    if (ui.prefs.show[i] && id != focus && id != PanelId::Lesson && id != PanelId::Status &&
        id != PanelId::Transport)
      tabs.push_back(id);
  }
  // The timeline shrinks to one row (buttons and scrubber) unless it shows the phases of a
  // step into.
  const bool strip = ui.prefs.visible(PanelId::Transport) && focus != PanelId::Transport;
  ui.frame.timeline_compact = strip && !ui.timeline.phases;
  const float strip_h = !strip ? 0.0f
                        : ui.frame.timeline_compact
                            ? compact_transport_height(mt)
                            : std::min(transport_height(ui, mt), (bottom - top) * 0.36f);
  // The tabs sit in the focus panel's title bar, right of its title, when they all fit there
  // (leaving the close button free); else in a row above the focus panel.
  auto title_end = [&](float lw) {
    return lw + text_width(m, mt, panel_title(focus)) + 7.0f * mt.sc * 2.0f + mt.fs * 1.5f;
  };
  // In the title bar when all fit, or when at least the widest tab and "+N more" do (the rest
  // then wait behind "+N more"); a row of their own only when not even that fits.
  auto in_title = [&](float lw) {
    if (tabs.empty()) return true;
    const float room = width - mt.fs * 1.6f - title_end(lw);
    if (place_tabs(nullptr, tabs, title_end(lw), top, room, mt, m)) return true;
    float widest = 0;
    for (PanelId id : tabs) widest = std::max(widest, tab_width(id, mt, m));
    return room >= widest * 2.0f + text_width(m, mt, "+9 more ▾") * kSmallFontRatio + 14.0f * mt.sc;
  };
  auto focus_h = [&](float lw) {  // the focus panel's height when the lesson column is lw wide
    return std::max(0.0f, bottom - top - strip_h - (in_title(lw) ? 0.0f : mt.tab_h()));
  };
  float lw = 0;
  if (lesson) {
    const float lo = std::min(width * 0.45f, std::max(mt.fs * 12.0f, width * 0.2f));
    const float hi = width * 0.5f;
    const float pref = ui.frame.size_override[static_cast<int>(PanelId::Lesson)] > 0
                           ? ui.frame.size_override[static_cast<int>(PanelId::Lesson)]
                           : ui.prefs.layout_prefs.lesson_width;
    lw = std::clamp(pref * width, lo, hi);
    // Widen the lesson column until the lesson's tallest page fits (one width for the whole
    // lesson, so the focus panel does not move from page to page), as long as the focus panel
    // keeps 37% of the window; past that the lesson panel scrolls (with a visible cue).
    if (m.lesson_height) {
      const float lesson_h = bottom - top;
      float best = lw;
      for (int i = 0; i <= 16 && m.lesson_height(best) > lesson_h; ++i) {
        const float next = lw + (hi - lw) * static_cast<float>(i + 1) / 16.0f;
        if ((width - next) * focus_h(next) < 0.37f * width * height) break;
        best = next;
      }
      lw = std::floor(best);
    }
    // Never so wide that the focus panel drops below 37% of the window (large fonts on a small
    // window), as long as the lesson keeps about ten characters a line.
    while (lw > mt.fs * 10.0f && (width - lw) * focus_h(lw) < 0.37f * width * height)
      lw = std::max(mt.fs * 10.0f, lw - width * 0.01f);
    rect_of(ui, PanelId::Lesson) = PanelRect{0, top, lw, bottom - top};
  }
  float tabs_h = 0;
  if (in_title(lw)) {
    place_tabs(&ui, tabs, title_end(lw), top, width - mt.fs * 1.6f - title_end(lw), mt, m);
  } else {
    place_tabs(&ui, tabs, lw, top, width - lw, mt, m);
    tabs_h = mt.tab_h();
  }
  if (strip) rect_of(ui, PanelId::Transport) = PanelRect{lw, bottom - strip_h, width - lw, strip_h};
  rect_of(ui, focus) = PanelRect{lw, top + tabs_h, width - lw, bottom - strip_h - top - tabs_h};
}

}  // namespace

void compute_layout(UiState& ui, float width, float height, float menu_height, float font_size,
                    const LayoutMeasure& m) {
  ui.frame.rects.fill(PanelRect{});
  ui.frame.tabbed.fill(false);
  ui.frame.more_tabs.clear();
  ui.frame.more_tab = PanelRect{};
  ui.frame.menu_bar_height = menu_height;
  ui.frame.timeline_compact = false;
  const Metrics mt(font_size);
  const float fs = mt.fs;
  float top = menu_height;
  float bottom = height;

  if (ui.prefs.visible(PanelId::Status)) {
    const float h = fs + mt.pad * 2.0f + 4.0f;
    rect_of(ui, PanelId::Status) = PanelRect{0, bottom - h, width, h};
    bottom -= h;
  }
  if (ui.prefs.presenting()) {
    focus_layout(ui, width, height, top, bottom, mt, m);
    return;
  }
  if (ui.prefs.visible(PanelId::Transport)) {
    // Title bar, a row of buttons + speed, the scrubber, and the phase strip during step into.
    const float h =
        std::min(transport_height(ui, mt), (bottom - top) * (ui.timeline.phases ? 0.36f : 0.3f));
    rect_of(ui, PanelId::Transport) = PanelRect{0, bottom - h, width, h};
    bottom -= h;
  }
  const float body_h = std::max(0.0f, bottom - top);

  // The KV cache sits under the prompt, the distribution keeps the centre's height and the
  // attention map gets the right column's, so a projector shows both large.
  // The columns and their panels' weights come from the panel table.
  std::vector<Slot> left, centre, right;
  for (const PanelSpec& p : panel_table()) {
    if (p.column == Column::Left) left.push_back({p.id, p.weight});
    if (p.column == Column::Centre) centre.push_back({p.id, p.weight});
    if (p.column == Column::Right) right.push_back({p.id, p.weight});
  }
  const bool narrow = width < 1000.0f;
  std::vector<Slot> left_all = left;
  if (narrow) {  // two columns: the right column's panels go under the prompt, on the left, so
                 // the tokens and the distribution keep the whole centre height
    left_all.insert(left_all.end(), right.begin(), right.end());
    right.clear();
  }
  const auto& cols = ui.prefs.layout_prefs.columns;
  float wl = any_visible(ui, left_all) ? (narrow ? 0.42f : std::max(0.1f, cols[0])) : 0.0f;
  float wc = any_visible(ui, centre) ? (narrow ? 0.58f : std::max(0.1f, cols[1])) : 0.0f;
  float wr = any_visible(ui, right) ? std::max(0.1f, cols[2]) : 0.0f;
  const float sum = wl + wc + wr;
  if (sum <= 0) return;
  wl *= width / sum;
  wc *= width / sum;
  wr *= width / sum;
  // The left column never gets thinner than ~22 characters.
  const float min_left = std::min(width * 0.5f, fs * 16.0f);
  if (wl > 0 && wl < min_left) {
    const float take = min_left - wl;
    wl = min_left;
    const float rest = wc + wr;
    if (rest > 0) {
      wc -= take * wc / rest;
      wr -= take * wr / rest;
    }
  }
  stack(ui, left_all, 0, top, wl, body_h, mt, m);
  // The tokens panel takes the height its chips need (as measured last frame), within limits;
  // the rest of the centre column is shared by weight.
  float centre_top = top;
  if (ui.prefs.visible(PanelId::Tokens) && ui.tokens.wanted_height > 0 && body_h > 0) {
    const float min_h = mt.frame + mt.pad * 2.0f + fs * 1.3f + fs * 1.8f + 12.0f;
    const float h =
        std::clamp(ui.tokens.wanted_height, std::min(min_h, body_h * 0.4f), body_h * 0.4f);
    rect_of(ui, PanelId::Tokens) = PanelRect{wl, top, wc, h};
    centre_top += h;
    centre.erase(std::remove_if(centre.begin(), centre.end(),
                                [](const Slot& sl) { return sl.id == PanelId::Tokens; }),
                 centre.end());
  }
  stack(ui, centre, wl, centre_top, wc, top + body_h - centre_top, mt, m);
  stack(ui, right, wl + wc, top, wr, body_h, mt, m);
}

}  // namespace ts
