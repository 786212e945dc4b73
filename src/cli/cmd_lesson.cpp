// The lesson command: `check FILE...` runs every page and every expect, printing one line per
// lesson and each failure as file:line; `show FILE` prints the pages for reading.
#include "cli/cmd_lesson.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "lesson/lesson_runner.h"

namespace ts {

int lesson_main(int argc, char** argv, const char* source_dir) {
  CLI::App app{"Run and check guided lessons (lessons/*.md)", "tokenscope lesson"};
  app.require_subcommand(1);
  std::vector<std::string> files;
  auto* check = app.add_subcommand("check", "run every page of each lesson headless and verify its expects");
  check->add_option("files", files, "lesson files")->required()->check(CLI::ExistingFile);
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
  return failed ? 1 : 0;
}

}  // namespace ts
