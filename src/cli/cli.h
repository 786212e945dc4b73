// The command line: `tokenscope <command> [options]` (generate, tokenize, info, trace, bench,
// eval, train, convert, lesson). Prints to stdout/stderr; exit code non-zero with a one-line
// reason.
#pragma once
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

bool is_cli_command(std::string_view arg);  // also true for --help / --version
int cli_main(int argc, char** argv);
// The same with the arguments as strings (args[0] is the program name) and the streams to write
// to, so tests run commands in-process and read their output. train and lesson print to
// std::cout / std::cerr themselves.
int cli_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `bench --ui` measures the app's frame build, which lives in the app module; the core must not
// depend on it, so the executable registers the measurement here (main.cpp). Arguments: model,
// tokenizer, frames, json; returns the exit code.
using UiBenchFn = int (*)(const std::string& model, const std::string& tokenizer, int frames,
                          bool json, std::ostream& out, std::ostream& err);
void set_ui_bench(UiBenchFn fn);

// `lesson check --render WxH:FONT` draws every page with the app (headless), which the core must
// not depend on either: the executable registers it (main.cpp). Returns the exit code.
struct LessonRenderRequest {
  std::vector<std::string> lessons;
  int width = 0, height = 0;
  float font_size = 0;
  std::string source_dir, exe_path;
};
using LessonRenderFn = int (*)(const LessonRenderRequest& req, std::ostream& out,
                               std::ostream& err);
void set_lesson_render(LessonRenderFn fn);

}  // namespace ts
