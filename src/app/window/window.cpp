// Window implementation (see window.h). GLFW error messages are collected into the Error the
// caller shows; PNGs are written with stb_image_write (libstb), rows flipped from GL's order.
// The same code serves the web page: emscripten's GLFW on a WebGL 2 canvas (OpenGL ES 3,
// GLSL "300 es"); the page sets the canvas size, so the window takes the size it is given.
#include "app/window/window.h"

#ifdef __EMSCRIPTEN__
#define GLFW_INCLUDE_ES3
#endif
#include <GLFW/glfw3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cfloat>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "backends/imgui_impl_glfw.h"
#include "backends/imgui_impl_opengl3.h"
#include "base/atomic_write.h"
#include "imgui.h"

namespace ts {
namespace {

// The last GLFW error, as text.
std::string glfw_error_text() {
#ifdef __EMSCRIPTEN__
  return "the browser could not create a WebGL 2 context";
#else
  const char* description = nullptr;
  const int code = glfwGetError(&description);
  if (code == GLFW_NO_ERROR) return "no GLFW error reported";
  return "GLFW error " + std::to_string(code) + ": " + (description ? description : "");
#endif
}

#ifdef __EMSCRIPTEN__
constexpr const char* kGlslVersion = "#version 300 es";
#else
constexpr const char* kGlslVersion = "#version 130";
#endif

}  // namespace

Result<std::unique_ptr<Window>> Window::open(int width, int height, const char* title) {
  if (!glfwInit())
    return Error{"cannot open a window (" + glfw_error_text() +
                 "); is a display available? Use the command line, or run under xvfb-run"};
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
#ifndef __EMSCRIPTEN__
  if (width <= 0 || height <= 0) {
    int x = 0, y = 0, w = 1280, h = 800;
    if (GLFWmonitor* m = glfwGetPrimaryMonitor()) glfwGetMonitorWorkarea(m, &x, &y, &w, &h);
    width = std::max(640, static_cast<int>(w * 0.92f));
    height = std::max(480, static_cast<int>(h * 0.92f));
    if (w <= 1600 && h <= 900) {  // small screens (and Xvfb): use all of it
      width = w;
      height = h;
    }
  }
#endif
  if (width <= 0 || height <= 0) {  // the page passes its size; this is a last resort
    width = 1280;
    height = 800;
  }
  GLFWwindow* w = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!w) {
    glfwTerminate();
    return Error{"cannot create an OpenGL 3 window (" + glfw_error_text() + ")"};
  }
  glfwMakeContextCurrent(w);
  glfwSwapInterval(1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed, nothing to remember
  ImGui_ImplGlfw_InitForOpenGL(w, true);
  ImGui_ImplOpenGL3_Init(kGlslVersion);
  return std::unique_ptr<Window>(new Window(w));
}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_); }
double Window::time() const { return glfwGetTime(); }

void Window::resize(int width, int height) {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  if (width > 0 && height > 0 && (w != width || h != height))
    glfwSetWindowSize(window_, width, height);
}

void Window::set_fullscreen(bool on) {
#ifndef __EMSCRIPTEN__
  if (on == fullscreen_) return;
  GLFWmonitor* m = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = m ? glfwGetVideoMode(m) : nullptr;
  if (on && mode) {
    glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
    glfwSetWindowMonitor(window_, m, 0, 0, mode->width, mode->height, mode->refreshRate);
    fullscreen_ = true;
  } else if (!on) {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1],
                         std::max(320, windowed_[2]), std::max(240, windowed_[3]), 0);
    fullscreen_ = false;
  }
#else
  (void)on;
#endif
}

void Window::begin_frame(bool hide_mouse) {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  device_ready_ = true;
  ImGui_ImplGlfw_NewFrame();
  if (hide_mouse) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ImGui::NewFrame();
}

void Window::end_frame(float r, float g, float b) {
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::present() { glfwSwapBuffers(window_); }

void Window::rebuild_fonts(float size_px, std::string* error) {
  build_fonts(size_px, error);
  // The OpenGL3 backend keeps the atlas as a GPU texture: replace it. Before the first frame
  // the backend has no device objects yet and uploads the atlas itself in its first NewFrame.
  if (!device_ready_) return;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

Status Window::write_png(const std::string& path) const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  if (w <= 0 || h <= 0) return Error{"the window has no pixels"};
  std::vector<unsigned char> pixels(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  std::vector<unsigned char> flipped(pixels.size());
  const size_t row = static_cast<size_t>(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy_n(pixels.data() + row * (h - 1 - y), row, flipped.data() + row * y);
  for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;  // opaque
  // Encoded in memory, then written atomically: a failed write leaves an older PNG untouched.
  std::string png;
  auto append = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data),
                                           static_cast<size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, w, h, 4, flipped.data(), static_cast<int>(row)))
    return Error{"cannot encode " + path};
  return write_file_atomically(path, [&](std::ostream& out) {
    out.write(png.data(), static_cast<std::streamsize>(png.size()));
    return out ? ok_status() : Status(Error{"error while writing " + path});
  });
}

}  // namespace ts
