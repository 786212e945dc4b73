// What the web page reports on the browser's console for its test (tests/web/): one line each,
// starting with a TS_ tag the test looks for. No drawing here.
#pragma once
#include <string>

#include "session/session.h"
#include "app/web/web_bench.h"

namespace ts {

void console_line(const std::string& line);
// TS_FIRST_FRAME <milliseconds since the page began loading>
void console_report_first_frame();
// TS_SHOT {"path", "png" (base64), "drawn" (the JSON the app wrote beside the PNG)}
void console_report_screenshot(const std::string& png_path);
// TS_LESSON ok|FAIL <file> <pages> <checks> [problems], then TS_LESSONS <passed> <failed>:
// every lesson in `lessons_dir` run headless in the page, every expect evaluated.
void console_report_lessons(const std::string& source_dir, const std::string& lessons_dir);
// TS_STATE {"cursor", "tokens", "model", "error"}
void console_report_state(const Session& s);
// TS_BENCH {"steps_per_s", ...}
void console_report_bench(const WebBench& b);

}  // namespace ts
