// The web page's entry point: the same App and Window as the desktop (app_main.cpp), driven by
// the browser's animation frames instead of a loop. The page's loader (web/loader.js) turns the
// URL's parameters into the usual options (--script, --lesson, --theme, --font-size, ...) and
// puts the models, lessons and fonts in the in-memory file system under /. Lines the page's
// test reads from the console start with "TS_": the first frame's time, each screenshot's PNG
// and drawn-items JSON, the in-page step speed, the lessons' checks, and the exit.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/panel_table.h"
#include "app/theme.h"
#include "app/window/window.h"
#include "base/read_file.h"
#include "imgui.h"
#include "lesson/lesson_syntax.h"
#include "app/web/web_bench.h"
#include "app/web/web_console.h"

// The page's OpenGL ES backend cannot draw a mesh by vertex offset (WebGL has no
// glDrawElementsBaseVertex): only 32-bit indices let one window hold more than 65,536 vertices
// (cmake/web.cmake defines ImDrawIdx).
static_assert(sizeof(ImDrawIdx) == 4, "the web build needs 32-bit ImGui vertex indices");

namespace ts {
namespace {

struct Page {
  std::unique_ptr<Window> window;
  std::unique_ptr<App> app;
  double last = 0;
  int frames = 0;
  bool run_bench = false;
  bool check_lessons = false;
};

Page* g_page = nullptr;  // the one page; the exported functions below reach the app through it

// The browser window's size in CSS pixels (the canvas fills it).
void page_size(int* w, int* h) {
  double cw = 0, ch = 0;
  emscripten_get_element_css_size("#canvas", &cw, &ch);
  *w = static_cast<int>(cw);
  *h = static_cast<int>(ch);
}

void frame(void* arg) {
  Page& p = *static_cast<Page*>(arg);
  App& app = *p.app;
  Window& window = *p.window;
  int w = 0, h = 0;
  page_size(&w, &h);
  window.resize(w, h);
  if (app.take_font_rebuild()) {
    std::string err;
    window.rebuild_fonts(app.ui().prefs.font_size, &err);
    if (!err.empty()) app.ui().status.set_message(err, true);
  }
  window.begin_frame(app.screenshot_pending());
  const double now = window.time();
  app.frame(now - p.last);
  p.last = now;
  const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(palette(app.ui().prefs.theme).window_bg);
  window.end_frame(bg.x, bg.y, bg.z);
  if (std::optional<std::string> shot = app.screenshot_due()) {
    const Status st = window.write_png(*shot);
    app.screenshot_written(*shot, st);
    if (st.ok()) console_report_screenshot(*shot);
  }
  window.present();
  if (++p.frames == 1) console_report_first_frame();
  if (p.frames == 3 && p.check_lessons) console_report_lessons("/", "/lessons");
  if (p.frames == 3 && p.run_bench) console_report_bench(run_web_bench("/models/tales-4m.gguf"));
  if (app.wants_quit()) {
    emscripten_cancel_main_loop();
    console_line("TS_QUIT " + std::to_string(app.exit_code()));
  }
}

}  // namespace
}  // namespace ts

extern "C" {

// Called by the page's JavaScript (loader.js, the web test), never from C++: declared here.
void ts_web_model_chosen(const char* path);
void ts_web_report_state();
void ts_web_message(const char* text, int is_error);

// The browser's file picker delivered a model file (written to `path` by the loader).
EMSCRIPTEN_KEEPALIVE void ts_web_model_chosen(const char* path) {
  if (ts::g_page && ts::g_page->app) ts::g_page->app->push(ts::cmd::LoadModel{path, ""});
}

// TS_STATE {"cursor", "tokens"}: where the session stands (the web test asks after a tap).
EMSCRIPTEN_KEEPALIVE void ts_web_report_state() {
  if (ts::g_page && ts::g_page->app) ts::console_report_state(ts::g_page->app->session());
}

// A message for the status bar (the loader's errors: a file too large for the page, ...).
EMSCRIPTEN_KEEPALIVE void ts_web_message(const char* text, int is_error) {
  if (ts::g_page && ts::g_page->app) ts::g_page->app->ui().status.set_message(text, is_error != 0);
}

}  // extern "C"

int main(int argc, char** argv) {
  ts::set_lesson_panel_names(ts::panel_lesson_names());  // lessons name the app's panels
  using namespace ts;
  setenv("TOKENSCOPE_FONT_DIR", "/fonts", 1);  // the fonts the page carries (base/font_path.h)
  std::vector<char*> args;
  static Page page;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--web-bench") {
      page.run_bench = true;
    } else if (a == "--web-check-lessons") {
      page.check_lessons = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  Result<AppOptions> parsed = parse_app_options(static_cast<int>(args.size()), args.data());
  if (!parsed.ok()) {
    console_line("TS_ERROR " + parsed.error().message);
    return 2;
  }
  AppOptions opt = parsed.value();
  opt.source_dir = "/";  // models/ and lessons/ are in the page's file system
  if (opt.settings_path.empty()) opt.settings_path = "/settings/tokenscope.json";
  int w = 0, h = 0;
  page_size(&w, &h);
  Result<std::unique_ptr<Window>> opened = Window::open(w, h, "tokenscope");
  if (!opened.ok()) {
    console_line("TS_ERROR " + opened.error().message);
    return 1;
  }
  page.window = std::move(opened.value());
  page.app = std::make_unique<App>(opt);
  page.app->start();
  page.last = page.window->time();
  g_page = &page;
  emscripten_set_main_loop_arg(frame, &page, 0, true);
  return 0;
}
