// The window: GLFW + OpenGL 3 + the Dear ImGui backends, in the shape of Dear ImGui's
// example_glfw_opengl3. The only code that touches GLFW or GL: opening a window that fits the
// screen, the frame begin/end, rebuilding the font texture, and reading the pixels for a PNG.
#pragma once
#include <memory>
#include <string>

#include "base/error.h"

struct GLFWwindow;

namespace ts {

class Window {
 public:
  // Opens a window of (width, height), or 90% of the primary monitor's work area when 0.
  static Result<std::unique_ptr<Window>> open(int width, int height, const char* title);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  bool should_close() const;
  // Polls events, runs the backends NewFrame and ImGui::NewFrame. hide_mouse: the pointer is
  // treated as outside the window (screenshots show no hover highlights or tooltips).
  void begin_frame(bool hide_mouse = false);
  void end_frame(float r, float g, float b);  // ImGui::Render, clear, draw; no swap yet
  void present();                             // swap buffers
  // Rebuilds the font atlas (fonts.h) at `size_px` and re-uploads its texture.
  void rebuild_fonts(float size_px, std::string* error);
  // Writes the current back buffer (after end_frame, before present) as a PNG.
  Status write_png(const std::string& path) const;
  double time() const;
  // The web page: the browser window was resized to (width, height) CSS pixels.
  void resize(int width, int height);
  // The desktop: the primary monitor's whole screen (true) or back to the window it was (false).
  void set_fullscreen(bool on);
  bool fullscreen() const { return fullscreen_; }

 private:
  explicit Window(GLFWwindow* w) : window_(w) {}
  GLFWwindow* window_ = nullptr;
  bool device_ready_ = false;  // the GL backend created its objects (first NewFrame ran)
  bool fullscreen_ = false;
  [[maybe_unused]] int windowed_[4] = {0, 0, 0, 0};  // x, y, w, h before full screen (desktop only)
};

}  // namespace ts
