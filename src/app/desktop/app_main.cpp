// The app's entry point: parse options, open the window, run the example_glfw_opengl3 frame loop
// around App::frame, serve the app's requests for font rebuilds and screenshots, quit.
// Everything that is not the loop lives in App (testable without a window).
#include "app/desktop/app_main.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "app/app.h"
#include "app/theme.h"
#include "app/window/window.h"
#include "imgui.h"

namespace ts {

int app_main(int argc, char** argv) {
  Result<AppOptions> parsed = parse_app_options(argc, argv);
  if (!parsed.ok()) {
    std::fprintf(stderr, "tokenscope: %s\n%s", parsed.error().message.c_str(), app_usage());
    return 2;
  }
  AppOptions opt = parsed.value();
#ifdef TS_SOURCE_DIR
  if (opt.source_dir.empty()) opt.source_dir = TS_SOURCE_DIR;  // models/ and lessons/ live there
#endif
  if (opt.help) {
    std::fputs(app_usage(), stdout);
    return 0;
  }
  Result<std::unique_ptr<Window>> opened = Window::open(opt.width, opt.height, "tokenscope");
  if (!opened.ok()) {
    std::fprintf(stderr, "tokenscope: %s\n", opened.error().message.c_str());
    return 1;
  }
  std::unique_ptr<Window> window = std::move(opened.value());
  int code = 0;
  {
    App app(opt);
    app.start();
    double last = window->time();
    while (!window->should_close() && !app.wants_quit()) {
      if (app.take_font_rebuild()) {
        std::string err;
        window->rebuild_fonts(app.ui().prefs.font_size, &err);
        if (!err.empty()) app.ui().status.set_message(err, true);
      }
      if (app.ui().status.want_fullscreen != window->fullscreen()) {
        window->set_fullscreen(app.ui().status.want_fullscreen);
        app.ui().status.want_fullscreen = window->fullscreen();  // no monitor: stays windowed
      }
      app.ui().status.fullscreen = window->fullscreen();
      window->begin_frame(app.screenshot_pending());
      const double now = window->time();
      app.frame(now - last);
      last = now;
      const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(palette(app.ui().prefs.theme).window_bg);
      window->end_frame(bg.x, bg.y, bg.z);
      if (std::optional<std::string> shot = app.screenshot_due())
        app.screenshot_written(*shot, window->write_png(*shot));
      window->present();
    }
    code = app.exit_code();
  }
  return code;
}

}  // namespace ts
