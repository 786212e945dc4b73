// Fixed layout (see layout.h). Columns share the width by weight; inside a column the visible
// panels share the height by weight, except the tokens panel, which gets what its chips need.
#include "app/layout.h"

#include <algorithm>
#include <vector>

namespace ts {
namespace {

struct Slot {
  PanelId id;
  float weight;
};

// Stacks the visible panels of `slots` into the column (x, y, w, h).
void stack(UiState& ui, const std::vector<Slot>& slots, float x, float y, float w, float h) {
  float total = 0;
  for (const Slot& s : slots)
    if (ui.visible(s.id)) total += s.weight;
  if (total <= 0) return;
  float cy = y;
  for (const Slot& s : slots) {
    if (!ui.visible(s.id)) continue;
    const float ph = h * s.weight / total;
    ui.layout[static_cast<int>(s.id)] = PanelRect{x, cy, w, ph};
    cy += ph;
  }
}

bool any_visible(const UiState& ui, const std::vector<Slot>& slots) {
  return std::any_of(slots.begin(), slots.end(), [&](const Slot& s) { return ui.visible(s.id); });
}

}  // namespace

void compute_layout(UiState& ui, float width, float height, float menu_height, float font_size) {
  ui.layout.fill(PanelRect{});
  ui.menu_bar_height = menu_height;
  const float fs = std::max(8.0f, font_size);
  float top = menu_height;
  float bottom = height;

  // Heights of the fixed strips follow apply_theme's paddings (scaled with the font).
  const float sc = std::max(0.75f, fs / 16.0f);
  const float pad = 8.0f * sc, frame = fs + 8.0f * sc, spacing = 6.0f * sc;
  if (ui.visible(PanelId::Status)) {
    const float h = fs + pad * 2.0f + 4.0f;
    ui.layout[static_cast<int>(PanelId::Status)] = PanelRect{0, bottom - h, width, h};
    bottom -= h;
  }
  if (ui.visible(PanelId::Transport)) {
    // Title bar, a row of buttons + speed, the phase strip and the scrubber.
    const float want =
        frame + pad * 2.0f + frame * 1.3f + fs * 1.25f + fs * 1.4f + spacing * 3.0f + 8.0f;
    const float h = std::min(want, (bottom - top) * 0.45f);
    ui.layout[static_cast<int>(PanelId::Transport)] = PanelRect{0, bottom - h, width, h};
    bottom -= h;
  }
  const float body_h = std::max(0.0f, bottom - top);

  // The KV cache sits under the prompt, the distribution keeps the centre's height and the
  // attention map gets the right column's, so a projector shows both large.
  const std::vector<Slot> left = {{PanelId::Lesson, 6.0f},
                                  {PanelId::Prompt, 2.5f},
                                  {PanelId::KvCache, 2.0f},
                                  {PanelId::Model, 2.0f}};
  std::vector<Slot> centre = {
      {PanelId::Tokens, 0.8f}, {PanelId::Distribution, 2.2f}, {PanelId::Compare, 1.3f}};
  std::vector<Slot> right = {
      {PanelId::Attention, 3.0f}, {PanelId::Cost, 1.2f}, {PanelId::Branches, 1.0f}};
  const bool narrow = width < 1000.0f;
  std::vector<Slot> left_all = left;
  if (narrow) {  // two columns: the right column's panels go under the prompt, on the left, so
                 // the tokens and the distribution keep the whole centre height
    left_all.insert(left_all.end(), right.begin(), right.end());
    right.clear();
  }
  float wl = any_visible(ui, left_all) ? (narrow ? 0.42f : 0.25f) : 0.0f;
  float wc = any_visible(ui, centre) ? (narrow ? 0.58f : 0.42f) : 0.0f;
  float wr = any_visible(ui, right) ? 0.33f : 0.0f;
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
  stack(ui, left_all, 0, top, wl, body_h);
  // The tokens panel takes the height its chips need (as measured last frame), within limits;
  // the rest of the centre column is shared by weight.
  float centre_top = top;
  if (ui.visible(PanelId::Tokens) && ui.tokens_wanted_height > 0 && body_h > 0) {
    const float min_h = frame + pad * 2.0f + fs * 1.3f + fs * 1.8f + 12.0f;
    const float h =
        std::clamp(ui.tokens_wanted_height, std::min(min_h, body_h * 0.4f), body_h * 0.4f);
    ui.layout[static_cast<int>(PanelId::Tokens)] = PanelRect{wl, top, wc, h};
    centre_top += h;
    centre.erase(centre.begin());  // Tokens is the first centre slot
  }
  stack(ui, centre, wl, centre_top, wc, top + body_h - centre_top);
  stack(ui, right, wl + wc, top, wr, body_h);
}

}  // namespace ts
