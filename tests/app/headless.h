// A Dear ImGui context without a window for the widget and visual-panel tests: a display size,
// an optional default font at a given pixel size, the atlas built on the CPU, no ini file.
#pragma once
#include <doctest/doctest.h>

#include <functional>

#include "imgui.h"
#include "imgui_internal.h"

namespace ts::test {

// One ImGui context without a window, for the lifetime of a test.
struct Headless {
  explicit Headless(float w = 1600, float h = 900, float font_px = 0) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(w, h);
    io.DeltaTime = 1.0f / 60.0f;
    if (font_px > 0) {
      ImFontConfig cfg;
      cfg.SizePixels = font_px;
      io.Fonts->AddFontDefault(&cfg);
    }
    unsigned char* pixels = nullptr;
    int tw = 0, th = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
  }
  ~Headless() { ImGui::DestroyContext(); }
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  // One frame: body() draws; afterwards only the implicit "Debug" window may remain open.
  void frame(const std::function<void()>& body) {
    ImGui::NewFrame();
    body();
    CHECK(GImGui->CurrentWindowStack.Size == 1);
    ImGui::Render();
  }
  void mouse(float x, float y, bool down = false) {
    ImGui::GetIO().MousePos = ImVec2(x, y);
    ImGui::GetIO().MouseDown[0] = down;
  }
};

}  // namespace ts::test
