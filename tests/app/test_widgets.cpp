// Headless tests of the app's widgets: unit formatting, the theme colour ramps, the heatmap (hover,
// masked cells, cell size against the font and the given area) and the bar chart (hover, click).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panel_env.h"
#include "app/theme.h"
#include "app/widgets/charts.h"
#include "app/widgets/colormap.h"
#include "app/widgets/heatmap.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "headless.h"
#include "imgui.h"

namespace ts {

using test::Headless;

TEST_CASE("units: SI, binary and time formatting") {
  CHECK(format_si(1234567, "FLOP") == "1.23 MFLOP");
  CHECK(format_si(999, "FLOP") == "999 FLOP");
  CHECK(format_si(45600, "") == "45.6 k");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(1536) == "1.50 KiB");
  CHECK(format_bytes(3.0 * 1024 * 1024) == "3.00 MiB");
  CHECK(format_seconds(0.00085) == "850 \xC2\xB5s");
  CHECK(format_seconds(0.0123) == "12.3 ms");
  CHECK(format_seconds(0) == "-");
  CHECK(format_ratio(12.34) == "12.3x");
}

TEST_CASE("colormap: theme ramps run from the low to the high anchor with monotonic lightness") {
  for (ThemeKind t : {ThemeKind::Light, ThemeKind::Dark, ThemeKind::Projector}) {
    const HeatRamp& r = theme_heat_ramp(t);
    const Palette& p = palette(t);
    CHECK(r.color(0.0f) == p.heat_lo);
    CHECK(r.color(1.0f) == p.heat_hi);
    CHECK(r.color(std::nanf("")) == p.heat_lo);
    // Lightness moves one way only (up for the dark theme, down for light and projector).
    const float dir = r.lightness.back() > r.lightness.front() ? 1.0f : -1.0f;
    for (size_t i = 1; i < r.lightness.size(); ++i)
      CHECK((r.lightness[i] - r.lightness[i - 1]) * dir >= -1e-6f);
    // Text on the ramp: dark text on the light end, light text on the dark end.
    const ImU32 light_end_text = r.text_color(dir > 0 ? 1.0f : 0.0f);
    CHECK((light_end_text & 0xFF) < 128);
  }
  ColorScale lin;
  CHECK(lin.to_unit(0.5f) == doctest::Approx(0.5f));
  CHECK(lin.to_unit(2.0f) == doctest::Approx(1.0f));
  ColorScale log;
  log.log = true;
  CHECK(log.to_unit(1.0f) == doctest::Approx(1.0f));
  CHECK(log.to_unit(0.1f) == doctest::Approx(2.0f / 3.0f));
  CHECK(log.to_unit(1e-4f) == doctest::Approx(0.0f));
  CHECK(log.to_unit(0.0f) == 0.0f);
}

TEST_CASE("heatmap widget: hover reports row, column and value; the mask is reported masked") {
  Headless hl;
  // 3 x 3 causal map: row r holds weights for keys 0..r.
  const std::vector<float> v = {1.0f, 0, 0, 0.25f, 0.75f, 0, 0.5f, 0.125f, 0.375f};
  const std::vector<std::string> labels = {"A", "B", "C"};
  HeatmapStyle st;
  st.size = ImVec2(300, 300);
  HeatmapLayout L;
  HeatmapHit hit;
  auto draw = [&] {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(400, 400));
    ImGui::Begin("hm");
    L = heatmap_layout(ImGui::GetCursorScreenPos(), 3, 3, st, labels, labels);
    hit = draw_heatmap("map", v, 3, 3, st, labels, labels);
    ImGui::End();
  };
  hl.frame(draw);
  CHECK(L.cell > 0);
  CHECK(L.left > 0);  // room for the row labels
  CHECK(L.top > 0);   // and the rotated column labels

  const ImVec2 c21 = L.cell_center(2, 1);
  hl.mouse(c21.x, c21.y);
  hl.frame(draw);
  REQUIRE(hit.hovered);
  CHECK(hit.row == 2);
  CHECK(hit.col == 1);
  CHECK(hit.value == doctest::Approx(0.125f));
  CHECK_FALSE(hit.masked);

  const ImVec2 c02 = L.cell_center(0, 2);
  hl.mouse(c02.x, c02.y);
  hl.frame(draw);
  REQUIRE(hit.hovered);
  CHECK(hit.row == 0);
  CHECK(hit.col == 2);
  CHECK(hit.masked);
  CHECK(hit.value == 0.0f);

  // Over a row label, not a cell: no hit.
  hl.mouse(L.grid_min.x - 5, c21.y);
  hl.frame(draw);
  CHECK_FALSE(hit.hovered);

  // A click (press, release) on a cell.
  hl.mouse(c21.x, c21.y, true);
  hl.frame(draw);
  hl.mouse(c21.x, c21.y, false);
  hl.frame(draw);
  CHECK(hit.clicked);
  CHECK(hit.row == 2);
}

TEST_CASE("heatmap widget: cells scale with the font and stay inside the given size") {
  for (float font : {13.0f, 26.0f}) {
    Headless hl(1600, 900, font);
    HeatmapStyle st;
    st.size = ImVec2(2000, 2000);  // more room than cells may use: capped by max_cell_em
    HeatmapLayout L;
    hl.frame([&] {
      ImGui::Begin("w");
      L = heatmap_layout(ImGui::GetCursorScreenPos(), 4, 4, st, {}, {});
      ImGui::End();
    });
    CHECK(L.cell == doctest::Approx(st.max_cell_em * font));
    st.size = ImVec2(200, 120);  // less room: fits the height
    hl.frame([&] {
      ImGui::Begin("w");
      L = heatmap_layout(ImGui::GetCursorScreenPos(), 4, 4, st, {}, {});
      ImGui::End();
    });
    CHECK(L.total.y <= 120.5f);
    CHECK(L.total.x <= 200.5f);
  }
}

TEST_CASE("bar chart widget: hover and click report the bar under the mouse") {
  Headless hl;
  const std::vector<double> v = {10, 1, 1, 2};
  ChartHit hit;
  ImVec2 a, b;
  auto draw = [&] {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(500, 300));
    ImGui::Begin("bars");
    BarChartStyle st;
    st.size = ImVec2(400, 150);
    hit = draw_bar_chart("c", v, {}, st);
    a = ImGui::GetItemRectMin();
    b = ImGui::GetItemRectMax();
    ImGui::End();
  };
  hl.frame(draw);
  hl.mouse(b.x - ImGui::GetFontSize(), (a.y + b.y) * 0.5f, true);
  hl.frame(draw);
  CHECK(hit.hovered);
  CHECK(hit.index == 3);
  hl.mouse(b.x - ImGui::GetFontSize(), (a.y + b.y) * 0.5f, false);
  hl.frame(draw);
  CHECK(hit.clicked);
  CHECK(hit.index == 3);
}

TEST_CASE("roofline widget: its captions keep clear of the points") {
  test::Headless hl(1600, 900, 28);
  // Points on a grid over the memory-bound side (intensity 0.1 .. 5, below the ridge at 6.7),
  // from far under the roof up to it: wherever a memory-side caption goes, a point is there.
  std::vector<RooflinePoint> pts;
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 16; ++j) {
      const double x = 0.1 * std::pow(50.0, i / 23.0);
      pts.push_back({x, 1.5e10 * x * std::pow(10.0, -3.0 * j / 15.0), 0});
    }
  DrawLog log;
  log.record = true;
  auto draw = [&](std::span<const RooflinePoint> p) {
    log.clear();
    log.record = true;
    set_text_record_target(&log);
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1000, 600));
    ImGui::Begin("roof");
    RooflineStyle st;
    st.size = ImVec2(900, 420);
    st.peak_flops = 1e11;
    st.bandwidth = 1.5e10;
    st.slow_bandwidth = 5e9;
    draw_roofline("r", p, st);
    ImGui::End();
    set_text_record_target(nullptr);
  };
  auto items = [&](const char* kind) {
    std::vector<DrawnItem> out;
    for (const DrawnItem& d : log.drawn)
      if (d.kind == kind) out.push_back(d);
    return out;
  };
  auto overlap = [](const PanelRect& a, const PanelRect& b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  };
  // Without points every caption finds its place.
  hl.frame([&] { draw({}); });
  std::vector<std::string> alone;
  for (const DrawnItem& c : items("chart_caption")) alone.push_back(c.label);
  auto named = [](const std::vector<std::string>& words, const char* side) {
    return std::any_of(words.begin(), words.end(),
                       [&](const std::string& w) { return w.rfind(side, 0) == 0; });
  };
  CHECK(named(alone, "memory-bound"));
  CHECK(named(alone, "compute-bound"));
  // With them, none of the captions drawn covers a point, and the compute side keeps its own.
  hl.frame([&] { draw(pts); });
  const std::vector<DrawnItem> caps = items("chart_caption"), dots = items("roof_point");
  CHECK(dots.size() == pts.size());
  std::vector<std::string> with;
  for (const DrawnItem& c : caps) {
    with.push_back(c.label);
    for (const DrawnItem& d : dots) {
      INFO(c.label, " over point ", d.label);
      CHECK_FALSE(overlap(c.rect, d.rect));
    }
  }
  CHECK(named(with, "compute-bound"));
}

}  // namespace ts
