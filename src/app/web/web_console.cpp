// The web page's console reports (see web_console.h). Screenshots are read back from the
// in-memory file system where the window wrote them and printed as base64.
#include "app/web/web_console.h"

#include <emscripten.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "lesson/lesson_runner.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

void console_line(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

void console_report_first_frame() {
  EM_ASM({ console.log('TS_FIRST_FRAME ' + performance.now().toFixed(0)); });
}

void console_report_screenshot(const std::string& png_path) {
  EM_ASM(
      {
        const p = UTF8ToString($0);
        const png = FS.readFile(p);
        let bin = String();
        for (let i = 0; i < png.length; i += 0x8000)
          bin += String.fromCharCode.apply(null, png.subarray(i, i + 0x8000));
        let drawn = null;
        try {
          drawn = JSON.parse(FS.readFile(p + '.json', {encoding : 'utf8'}));
        } catch (e) {
        }
        console.log('TS_SHOT ' + JSON.stringify({path : p, png : btoa(bin), drawn : drawn}));
      },
      png_path.c_str());
}

void console_report_lessons(const std::string& source_dir, const std::string& lessons_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(lessons_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!name.empty() && name[0] >= '0' && name[0] <= '9' && e.path().extension() == ".md")
      files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  LessonContext ctx{source_dir, ""};
  Session session;
  int passed = 0, failed = 0;
  for (const std::string& f : files) {
    auto l = load_lesson(f);
    if (!l.ok()) {
      console_line("TS_LESSON FAIL " + f + " 0 0 " + l.error().message);
      ++failed;
      continue;
    }
    const LessonReport rep = check_lesson(session, l.value(), ctx);
    std::string problems;
    for (const CheckResult& r : rep.failures) problems += " | " + r.message;
    console_line(std::string("TS_LESSON ") + (rep.failures.empty() ? "ok " : "FAIL ") + f + " " +
                 std::to_string(rep.pages) + " " + std::to_string(rep.checks) + problems);
    (rep.failures.empty() ? passed : failed) += 1;
  }
  console_line("TS_LESSONS " + std::to_string(passed) + " " + std::to_string(failed));
}

void console_report_state(const Session& s) {
  nlohmann::json tokens = nlohmann::json::array();
  if (has_model(s))
    for (const PathToken& t : path_tokens(s, 0, true))
      tokens.push_back(s.tokenizer().display_piece(t.id));
  const nlohmann::json state = {{"cursor", s.cursor()},
                                {"tokens", tokens},
                                {"model", has_model(s) ? model_info(s).path : ""},
                                {"error", s.last_error()}};
  console_line("TS_STATE " + state.dump());
}

void console_report_bench(const WebBench& b) {
  nlohmann::json j = {{"model", b.model},
                      {"ok", b.error.empty()},
                      {"error", b.error},
                      {"steps", b.steps},
                      {"seconds", b.seconds},
                      {"steps_per_s", b.steps_per_s},
                      {"summary_steps_per_s", b.summary_steps_per_s},
                      {"forward_per_s", b.forward_per_s}};
  console_line("TS_BENCH " + j.dump());
}

}  // namespace ts
