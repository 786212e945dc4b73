// tokenscope's entry point: a known subcommand runs the command line (cli/); anything else
// (no arguments, or app options such as --model, --script, --screenshot) opens the app.
#include <cstdio>
#include <exception>
#include <new>
#include <string_view>

#include "cli/cli.h"
#ifdef TS_HAVE_APP
#include "app/desktop/app_main.h"
#include "app/app_options.h"
#include "app/lesson_render.h"
#include "app/panel_table.h"
#include "lesson/lesson_syntax.h"
#include "app/ui_bench.h"

namespace {
int ui_bench(const std::string& model, const std::string& tokenizer, int frames, bool json,
             std::ostream& out, std::ostream& err) {
  ts::UiBenchOptions o;
  o.model = model;
  o.tokenizer = tokenizer;
  o.frames = frames;
  o.json = json;
  return ts::run_ui_bench(o, out, err);
}
int lesson_render(const ts::LessonRenderRequest& req, std::ostream& out, std::ostream& err) {
  ts::LessonRenderOptions o;
  o.lessons = req.lessons;
  o.width = req.width;
  o.height = req.height;
  o.font_size = req.font_size;
  o.source_dir = req.source_dir;
  o.exe_path = req.exe_path;
  return ts::run_lesson_render(o, out, err);
}
}  // namespace
#endif

int main(int argc, char** argv) {
#ifdef TS_HAVE_APP
  ts::set_ui_bench(&ui_bench);
  ts::set_lesson_render(&lesson_render);
  ts::set_lesson_panel_names(ts::panel_lesson_names());  // lessons name the app's panels
#endif
#ifdef TS_HAVE_APP
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h"))
    std::printf("%s\n", ts::app_usage());  // the app's options, then the commands
#endif
  if (argc >= 2 && ts::is_cli_command(argv[1])) return ts::cli_main(argc, argv);
#ifdef TS_HAVE_APP
  // The app's loads catch out of memory themselves (keeping the previous model); anything that
  // escapes them still ends with one line and exit 1 rather than an abort.
  try {
    return ts::app_main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "tokenscope: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tokenscope: %s\n", e.what());
    return 1;
  }
#else
  std::fprintf(stderr, "tokenscope: built without the app; run 'tokenscope --help'\n");
  return ts::cli_main(argc, argv);
#endif
}
