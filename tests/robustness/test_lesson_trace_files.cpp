// Malformed lesson and trace files: each is written to disk and loaded the way the app and the
// CLI load them (load_lesson, read_trace_json); each must be refused with one line that names the
// file and, for lessons, the line (file:line: ...), and for traces the line or the field.
#include <doctest/doctest.h>

#include <filesystem>

#include "lesson/lesson.h"
#include "raw_gguf.h"
#include "trace/trace_json.h"

namespace ts {

namespace {

struct BadFile {
  const char* name;
  std::string text;
  const char* expect;  // e.g. ":3: " (a line) and a phrase of the message
};

template <size_t N>
std::string lit(const char (&s)[N]) {  // a literal with embedded NULs, whole
  return std::string(s, N - 1);
}

const char* kGood = "---\ntitle: T\n---\n## Page\ntext\n```do\nstep\n```\n";

}  // namespace

TEST_CASE("malformed lessons: error with file and line") {
  const BadFile cases[] = {
      {"empty file", "", ":1: "},
      {"no page", "---\ntitle: T\n---\n", ":1: "},
      {"front matter never closed", "---\ntitle: T\n## Page\n", ":1: "},
      {"front matter line without colon", "---\ntitle: T\nnonsense\n---\n## P\n", ":3: "},
      {"unknown directive", "---\ntitle: T\n---\n## P\n```do\nstepp 3\n```\n", ":6: "},
      {"unknown block kind", "---\ntitle: T\n---\n## P\n```python\n```\n", ":5: "},
      {"block never closed", "---\ntitle: T\n---\n## P\n```do\nstep\n", ":5: "},
      {"block before any page", "---\ntitle: T\n---\n```do\nstep\n```\n", ":4: "},
      {"text before any page", "---\ntitle: T\n---\nhello\n## P\n", ":4: "},
      {"bad check", "---\ntitle: T\n---\n## P\n```expect\ntop-1 is\n```\n", ":6: "},
      {"truncated good lesson", std::string(kGood).substr(0, 40), ":"},
      {"invalid UTF-8", "---\ntitle: \xFF\n---\n## P\n", ":1: "},
      {"NUL bytes", lit("---\ntitle: T\n---\n## P\n```do\nst\0ep\n```\n"), ":6: "},
      {"carriage return inside a line",
       "---\ntitle: T\n---\n## P\n```do\nlanes greedy; temp=1.0 seed=7\rshow x\n```\n", ":6: "},
      {"CRLF and a bad verb", "---\r\ntitle: T\r\n---\r\n## P\r\n```do\r\nbogus\r\n```\r\n", ":6: "},
  };
  for (const BadFile& c : cases) {
    INFO("lesson: " << std::string(c.name));
    const std::string path = test::write_scratch_text("bad-lesson.md", c.text);
    Result<Lesson> l = load_lesson(path);
    REQUIRE_FALSE(l.ok());
    test::check_refusal(l.error(), path + c.expect, "");
  }
  const std::string ok = test::write_scratch_text("good-lesson.md", kGood);
  CHECK(load_lesson(ok).ok());
  CHECK_FALSE(load_lesson(test::scratch_dir().string() + "/missing.md").ok());
  CHECK_FALSE(load_lesson(test::scratch_dir().string()).ok());  // a directory
}

TEST_CASE("malformed traces: error with file and line or field") {
  const BadFile cases[] = {
      {"empty file", "", "line 1"},
      {"not JSON", "hello", "line 1"},
      {"truncated object", "{\n \"version\": 1,\n \"lanes\": [\n", "line 4"},
      {"wrong type at the top", "[1, 2, 3]", "field"},
      {"missing fields", "{\"version\": 1}", "field"},
      {"wrong version", "{\"format\": \"tokenscope-trace\", \"version\": 999}", "version"},
      {"a string where a number goes", "{\"format\": \"tokenscope-trace\", \"version\": \"1\"}",
       "version"},
      {"NUL byte", lit("{\"ver\0sion\": 1}"), "line 1"},
      {"invalid UTF-8 in a string", "{\"prompt\": \"\xFF\xFE\"}", "line 1"},
      {"a number beyond double", "{\"format\": \"tokenscope-trace\", \"version\": 1e999}",
       "number overflow"},
      {"a huge integer", "{\"format\": \"tokenscope-trace\", \"version\": 99999999999999999999}",
       "version"},
      {"deep nesting", std::string(100000, '[') + std::string(100000, ']'), "field"},
  };
  for (const BadFile& c : cases) {
    INFO("trace: " << std::string(c.name));
    const std::string path = test::write_scratch_text("bad-trace.json", c.text);
    Result<Trace> t = read_trace_json(path);
    REQUIRE_FALSE(t.ok());
    test::check_refusal(t.error(), path, c.expect);
  }
  CHECK_FALSE(read_trace_json(test::scratch_dir().string() + "/missing.json").ok());
}

TEST_CASE("trace export: written atomically over an old file; refused targets give one line") {
  const std::string path = test::write_scratch_text("kept-trace.json", "earlier export\n");
  Trace t;  // an empty run is enough: the write path is what is checked
  CHECK(write_trace_json(t, path).ok());
  CHECK(read_trace_json(path).ok());  // the old text was replaced whole
  // A directory in the way, a device, a missing folder: refused with one line, nothing written.
  const std::filesystem::path dir = test::scratch_dir() / "a-directory.json";
  std::filesystem::create_directories(dir);
  for (const std::string& bad : {dir.string(), std::string("/dev/full"),
                                (test::scratch_dir() / "no-such-dir" / "t.json").string()}) {
    INFO(bad);
    const Status st = write_trace_json(t, bad);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().message.find('\n') == std::string::npos);
  }
  CHECK(std::filesystem::is_directory(dir));
  // No temporary file is left beside the target.
  int leftovers = 0;
  for (const auto& e : std::filesystem::directory_iterator(test::scratch_dir()))
    leftovers += e.path().filename().string().find(".tmp") != std::string::npos;
  CHECK(leftovers == 0);
}

}  // namespace ts
