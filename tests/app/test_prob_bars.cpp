// The probability bars as a class reads them: the cut label in a strip of its own, clear of
// every percentage; a nearly flat list magnified under a line saying so, its words clear of its
// bars; linear and log bar lengths. Hand-made rows, drawn headless.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/ui_state.h"
#include "app/widgets/prob_bars.h"
#include "harness.h"

namespace ts::test {
namespace {

bool rects_meet(const PanelRect& a, const PanelRect& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

}  // namespace

TEST_CASE("prob bars: the cut label has its own strip and never covers a percentage") {
  ImGuiHarness h(900, 600);
  UiState ui;
  ui.log.record = true;
  std::vector<BarRow> rows(5);
  const float ps[] = {0.45f, 0.30f, 0.20f, 0.04f, 0.01f};
  for (int i = 0; i < 5; ++i) {
    rows[i].id = i;
    rows[i].label = "tok" + std::to_string(i);
    rows[i].p = ps[i];
    rows[i].kept = i < 3;
  }
  BarListStyle style;
  style.scale_max = 0.20f;  // the last kept bar runs to the right edge, its % at the far right
  style.cut_after = 2;
  style.cut_label = "top-p 0.90 cut here: 3 tokens remain, a long label for a narrow panel";
  for (float width : {900.0f, 320.0f}) {
    ui.log.drawn.clear();
    h.frame([&] {
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(width, 500));
      ImGui::Begin("bars");
      draw_prob_bars("b", rows, style, palette(ThemeKind::Light), ui.log);
      ImGui::End();
    });
    const DrawnItem* label = find_drawn(ui, "cut_label");
    REQUIRE(label != nullptr);
    int pcts = 0;
    for (const DrawnItem& it : ui.log.drawn)
      if (it.kind == "pct") {
        ++pcts;
        CHECK_MESSAGE(!rects_meet(it.rect, label->rect), it.label);
      }
    CHECK(pcts == 5);
  }
  CHECK(bar_row_top(3, 20, 2, 12) == doctest::Approx(72.0f));  // below the cut: + the strip
  CHECK(bar_row_top(2, 20, 2, 12) == doctest::Approx(40.0f));
  CHECK(bar_row_top(3, 20, -1, 12) == doctest::Approx(60.0f));
}

TEST_CASE("prob bars: a nearly flat list is magnified, says so, and keeps its words clear") {
  ImGuiHarness h(900, 600);
  REQUIRE(build_fonts(28.0f));  // projector text: "0.0029%" is wider than the "100.0%" template
  unsigned char* px = nullptr;
  int tw = 0, th = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&px, &tw, &th);
  UiState ui;
  ui.log.record = true;
  // The top of a 150k-token random model: every candidate near 1 / 35,000.
  std::vector<BarRow> rows(4);
  const float ps[] = {2.9e-5f, 2.7e-5f, 2.5e-5f, 2.4e-5f};
  for (int i = 0; i < 4; ++i) {
    rows[i].id = i;
    rows[i].label = "w" + std::to_string(i);
    rows[i].p = ps[i];
  }
  BarListStyle style;
  set_linear_scale(style, ps[0]);
  CHECK(style.scale_max == doctest::Approx(ps[0]));
  CHECK(style.scale_note == "bars magnified: a full bar is 0.0029%");
  h.frame([&] {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(900, 500));
    ImGui::Begin("bars");
    draw_prob_bars("b", rows, style, palette(ThemeKind::Light), ui.log);
    ImGui::End();
  });
  const DrawnItem* note = nullptr;
  for (const DrawnItem& it : ui.log.drawn)
    if (it.kind == "text" && it.label == style.scale_note) note = &it;
  REQUIRE(note != nullptr);
  float widest = 0;
  std::vector<const DrawnItem*> bars, pcts;
  for (const DrawnItem& it : ui.log.drawn) {
    if (it.kind == "bar" || it.kind == "bar_chosen") bars.push_back(&it);
    if (it.kind == "pct") pcts.push_back(&it);
  }
  REQUIRE(bars.size() == 4);
  REQUIRE(pcts.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    widest = std::max(widest, bars[i]->rect.w);
    CHECK(bars[i]->rect.y >= note->rect.y + note->rect.h);  // the note above the rows
    CHECK_MESSAGE(!rects_meet(bars[i]->rect, pcts[i]->rect), pcts[i]->label);  // "0.0029%" clear
  }
  CHECK(widest > 600);  // the top bar spans the list, not 0.06% of it
  // A peaked list keeps the top bar full width without a note; a low top reads low.
  set_linear_scale(style, 0.45f);
  CHECK(style.scale_max == doctest::Approx(0.45f));
  CHECK(style.scale_note.empty());
  set_linear_scale(style, 0.02f);
  CHECK(style.scale_max == doctest::Approx(kScaleFloor));
  CHECK(style.scale_note.empty());
}

TEST_CASE("prob bars: linear and log bar lengths") {
  CHECK(bar_fraction(0.25f, 0.5f, false) == doctest::Approx(0.5f));
  CHECK(bar_fraction(0.9f, 0.5f, false) == doctest::Approx(1.0f));
  CHECK(bar_fraction(0.0f, 0.5f, true) == 0.0f);
  CHECK(bar_fraction(kLogFloor, 1.0f, true) == doctest::Approx(0.0f));
  CHECK(bar_fraction(1.0f, 1.0f, true) == doctest::Approx(1.0f));
  CHECK(bar_fraction(0.01f, 1.0f, true) == doctest::Approx(0.5f));  // 1e-2 halfway to 1e-4..1
  CHECK(bar_fraction(0.001f, 1.0f, true) > bar_fraction(0.001f, 1.0f, false) * 50);
}

}  // namespace ts::test
