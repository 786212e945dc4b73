// The lesson command: `check FILE...` runs every page and every expect, printing one line per
// lesson and each failure as file:line; `show FILE` prints the pages for reading.
#include "cli/cmd_lesson.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/cli.h"
#include "lesson/lesson_runner.h"

namespace ts {

namespace {

LessonRenderFn g_lesson_render = nullptr;

// "1280x720:28" -> width, height, font size.
bool parse_render(const std::string& s, LessonRenderRequest* r) {
  int w = 0, h = 0, used = 0;
  float f = 0;
  if (std::sscanf(s.c_str(), "%dx%d:%f%n", &w, &h, &f, &used) != 3 ||
      used != static_cast<int>(s.size()))
    return false;
  r->width = w;
  r->height = h;
  r->font_size = f;
  return true;
}

}  // namespace

void set_lesson_render(LessonRenderFn fn) { g_lesson_render = fn; }

int lesson_main(int argc, char** argv, const char* source_dir) {
  CLI::App app{"Run and check guided lessons (lessons/*.md)", "tokenscope lesson"};
  app.require_subcommand(1);
  std::vector<std::string> files;
  auto* check = app.add_subcommand("check", "run every page of each lesson headless and verify its expects");
  check->add_option("files", files, "lesson files")->required()->check(CLI::ExistingFile);
  std::vector<std::string> renders;
  check->add_option("--render", renders,
                    "also draw every page with the app (headless, projector theme) at WxH:FONT, "
                    "e.g. 1280x720:28, and check each page's see lines and that its text fits "
                    "(repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  std::string show_file;
  auto* show = app.add_subcommand("show", "print a lesson's pages as plain text");
  show->add_option("file", show_file, "lesson file")->required()->check(CLI::ExistingFile);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // one line, as every other command
    std::string msg = e.what();
    for (char& c : msg) {
      if (c == '\n') c = ' ';
    }
    std::cerr << "tokenscope lesson: " << msg << " (see --help)\n";
    return 2;
  }
  LessonContext ctx{source_dir ? source_dir : "", argv[0]};
  if (*show) {
    auto l = load_lesson(show_file);
    if (!l.ok()) {
      std::cerr << "tokenscope: " << l.error().message << "\n";
      return 1;
    }
    std::cout << l->title << "\n";
    for (size_t i = 0; i < l->pages.size(); ++i) {
      const LessonPage& p = l->pages[i];
      std::cout << "\n[" << i + 1 << "/" << l->pages.size() << "] " << p.title << "\n" << p.text << "\n";
      if (!p.ask.empty()) std::cout << "  ? " << p.ask << "\n";
    }
    return 0;
  }
  int failed = 0, passed = 0;
  Session session;
  for (const std::string& f : files) {
    if (std::filesystem::path(f).filename() == "README.md") continue;  // the format reference
    auto l = load_lesson(f);
    if (!l.ok()) {
      std::cout << "FAIL " << l.error().message << "\n";
      ++failed;
      continue;
    }
    const LessonReport rep = check_lesson(session, l.value(), ctx);
    if (rep.failures.empty()) {
      std::cout << "ok   " << f << ": " << rep.pages << " pages, " << rep.checks << " checks\n";
      ++passed;
    } else {
      std::cout << "FAIL " << f << ": " << rep.failures.size() << " problem(s)\n";
      for (const CheckResult& r : rep.failures) std::cout << "     " << r.message << "\n";
      ++failed;
    }
  }
  std::cout << "lessons: " << passed << " passed, " << failed << " failed\n";
  int render_failed = 0;
  for (const std::string& r : renders) {
    LessonRenderRequest req{files, 0, 0, 0, ctx.source_dir, ctx.exe_path};
    if (!parse_render(r, &req)) {
      std::cerr << "tokenscope lesson: --render wants WxH:FONT (e.g. 1280x720:28), got '" << r
                << "'\n";
      return 2;
    }
    if (g_lesson_render == nullptr) {
      std::cerr << "tokenscope lesson: --render needs the app (built without it)\n";
      return 1;
    }
    const int rc = g_lesson_render(req, std::cout, std::cerr);
    if (rc == 2) return 2;
    render_failed += rc != 0;
  }
  return failed || render_failed ? 1 : 0;
}

}  // namespace ts
