// The presentation layout's input, through the whole app headless: a double-click on a panel's
// title puts it in focus (again: back to the overview), a click on a tab brings that panel up,
// the number keys and Escape, and dragging the splitters between two columns and two panels.
#include <doctest/doctest.h>

#include "app/app.h"
#include "harness.h"

namespace ts::test {
namespace {

AppOptions input_options() {
  AppOptions o;
  o.model = std::string(TS_SOURCE_DIR) + "/models/tales-4m.gguf";  // any model: the shipped one
  o.use_settings = false;
  o.synchronous = true;
  return o;
}

void input_frames(ImGuiHarness& h, App& app, int n) {
  for (int i = 0; i < n; ++i) h.frame([&] { app.frame(1.0 / 60.0); });
}

// A point on the panel's title bar, left of the close button.
ImVec2 input_title_point(const UiState& ui, PanelId id) {
  const PanelRect& r = ui.frame.rect(id);
  return ImVec2(r.x + r.w * 0.3f, r.y + 6.0f);
}

}  // namespace

TEST_CASE("presentation input: double-click a title, click a tab, number keys and Escape") {
  ImGuiHarness h(1600, 900);
  ImGui::GetIO().KeyMap[ImGuiKey_Escape] = 256;  // as the GLFW backend maps it
  App app(input_options());
  app.start();
  input_frames(h, app, 3);
  REQUIRE_FALSE(app.ui().prefs.presenting());
  auto body = [&] { app.frame(1.0 / 60.0); };

  const ImVec2 t = input_title_point(app.ui(), PanelId::Attention);
  h.click(t.x, t.y, body);
  h.click(t.x, t.y, body);  // the second press within the double-click time
  CHECK(app.ui().prefs.focus_panel == static_cast<int>(PanelId::Attention));
  input_frames(h, app, 1);
  CHECK(app.ui().prefs.presenting());
  CHECK(app.ui().frame.tabbed[static_cast<int>(PanelId::Tokens)]);

  // A tab: one click brings its panel up.
  const PanelRect tab = app.ui().frame.rect(PanelId::Tokens);
  h.click(tab.x + tab.w * 0.5f, tab.y + tab.h * 0.5f, body);
  CHECK(app.ui().prefs.focus_panel == static_cast<int>(PanelId::Tokens));
  input_frames(h, app, 1);
  const PanelRect big = app.ui().frame.rect(PanelId::Tokens);
  CHECK(big.w * big.h > 0.35f * 1600 * 900);

  // A double-click on the focus panel's title: back to the overview.
  const ImVec2 ft = input_title_point(app.ui(), PanelId::Tokens);
  h.click(ft.x - big.w * 0.25f, ft.y, body);
  h.click(ft.x - big.w * 0.25f, ft.y, body);
  CHECK(app.ui().prefs.focus_panel == -1);

  // Keys: 6 is the KV cache (shown if it was hidden), 6 again or Escape: the overview.
  app.ui().prefs.show[static_cast<int>(PanelId::KvCache)] = false;
  h.press_key('6', false, body);
  CHECK(app.ui().prefs.focus_panel == static_cast<int>(PanelId::KvCache));
  CHECK(app.ui().prefs.visible(PanelId::KvCache));
  h.press_key('6', false, body);
  CHECK(app.ui().prefs.focus_panel == -1);
  h.press_key('4', false, body);
  CHECK(app.ui().prefs.focus_panel == static_cast<int>(PanelId::Distribution));
  h.press_key(256, false, body);
  CHECK(app.ui().prefs.focus_panel == -1);
}

TEST_CASE("presentation input: dragging the border between two columns resizes them") {
  ImGuiHarness h(1600, 900);
  App app(input_options());
  app.start();
  input_frames(h, app, 3);
  const PanelRect before = app.ui().frame.rect(PanelId::Prompt);
  const float edge = before.x + before.w;
  const float y = before.y + before.h * 0.5f;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(edge, y);
  input_frames(h, app, 1);
  io.MouseDown[0] = true;
  ImGui::NewFrame();
  app.frame(1.0 / 60.0);
  ImGui::Render();
  for (int i = 1; i <= 8; ++i) {  // drag 80 px to the right, button held
    io.MousePos = ImVec2(edge + 10.0f * i, y);
    io.MouseDown[0] = true;
    ImGui::NewFrame();
    app.frame(1.0 / 60.0);
    ImGui::Render();
  }
  io.MouseDown[0] = false;
  input_frames(h, app, 2);
  const PanelRect after = app.ui().frame.rect(PanelId::Prompt);
  CHECK(after.w > before.w + 40.0f);
  CHECK(app.ui().prefs.layout_prefs.columns[0] > LayoutPrefs{}.columns[0]);

  // The border between the prompt and the KV cache under it: drag it 60 px down.
  REQUIRE(app.ui().prefs.visible(PanelId::KvCache));
  const PanelRect kv = app.ui().frame.rect(PanelId::KvCache);
  REQUIRE(kv.y == doctest::Approx(after.y + after.h));
  const float x = after.x + after.w * 0.5f;
  io.MousePos = ImVec2(x, kv.y);
  input_frames(h, app, 1);
  for (int i = 0; i <= 6; ++i) {
    io.MousePos = ImVec2(x, kv.y + 10.0f * i);
    io.MouseDown[0] = true;
    ImGui::NewFrame();
    app.frame(1.0 / 60.0);
    ImGui::Render();
  }
  io.MouseDown[0] = false;
  input_frames(h, app, 2);
  CHECK(app.ui().frame.rect(PanelId::Prompt).h > after.h + 40.0f);
  CHECK(app.ui().frame.rect(PanelId::KvCache).h < kv.h - 40.0f);
  CHECK(app.ui().prefs.layout_prefs.weight[static_cast<int>(PanelId::Prompt)] > 0);
}

}  // namespace ts::test
