// A damaged settings file never silently costs the teacher the saved prompt: each variant is
// read field by field (or searched for the prompt), moved aside as settings.json.bad-DATE and
// reported; saving replaces only a regular file or a new one (a symlink's target, never a
// device or the link). App builds only (the settings file belongs to the app).
#include <doctest/doctest.h>

#ifdef TS_HAVE_APP
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "app/settings.h"
#include "raw_gguf.h"

namespace ts {

namespace {

namespace fs = std::filesystem;

const char* kPrompt = "Once a fox \\\"quoted\\\" \xC3\xA9";  // as JSON text
const char* kPromptValue = "Once a fox \"quoted\" \xC3\xA9";

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::vector<fs::path> bad_copies(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("settings.json.bad-", 0) == 0) out.push_back(e.path());
  }
  return out;
}

enum class Kept { None, Whole, Start };  // what of the prompt can be recovered

struct Variant {
  const char* name;
  std::string text;
  Kept kept;
};

std::vector<Variant> variants() {
  const std::string good = std::string("{\"version\": 1, \"ui\": {\"font_size\": 20}, "
                                       "\"session\": {\"model\": \"m.gguf\", \"prompt\": \"") +
                           kPrompt + "\", \"max_tokens\": 12}}";
  return {
      {"garbage", "\x01\x02garbage\xFF", Kept::None},
      {"empty", "", Kept::None},
      {"truncated after the prompt", good.substr(0, good.find("max_tokens")), Kept::Whole},
      {"truncated inside the prompt", good.substr(0, good.find("quoted")), Kept::Start},
      {"a field of the wrong type",
       std::string("{\"ui\": {\"font_size\": \"big\"}, \"session\": {\"prompt\": \"") + kPrompt +
           "\", \"max_tokens\": \"many\"}}",
       Kept::Whole},
      {"the session section is a string", "{\"session\": \"oops\"}", Kept::None},
      {"a top-level array", "[1, 2, 3]", Kept::None},
      {"NUL bytes before valid JSON", std::string("\0\0", 2) + good, Kept::Whole},
      {"a prompt that is a number", "{\"session\": {\"prompt\": 42}}", Kept::None},
  };
}

}  // namespace

TEST_CASE("settings file: every damaged variant is moved aside, reported, and the prompt kept") {
  const fs::path dir = test::scratch_dir() / "settings";
  for (const Variant& v : variants()) {
    INFO("variant: " << v.name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path path = dir / "settings.json";
    {
      std::ofstream f(path, std::ios::binary);
      f << v.text;
    }
    UiState ui;
    SessionSettings ss;
    const Status st = load_settings(path.string(), ui, ss);
    REQUIRE_FALSE(st.ok());
    const std::string& msg = st.error().message;
    CHECK(msg.find('\n') == std::string::npos);
    CHECK(msg.find(path.string()) != std::string::npos);
    CHECK(msg.find("moved to " + path.string() + ".bad-") != std::string::npos);
    // The damaged bytes are kept, byte for byte, and the original name is free.
    const std::vector<fs::path> bad = bad_copies(dir);
    REQUIRE(bad.size() == 1);
    CHECK(read_text(bad[0]) == v.text);
    CHECK_FALSE(fs::exists(path));
    if (v.kept != Kept::None) {
      CHECK(ss.has_prompt);
      if (v.kept == Kept::Whole) CHECK(ss.prompt == kPromptValue);
      CHECK(!ss.prompt.empty());
      CHECK(std::string(kPromptValue).rfind(ss.prompt, 0) == 0);  // the start, at least
      CHECK(msg.find("the prompt and what else could be read were kept") != std::string::npos);
    } else {
      CHECK(msg.find("no prompt could be recovered") != std::string::npos);
    }
    // The next save writes a fresh file and leaves the copy alone.
    REQUIRE(save_settings(path.string(), ui, ss).ok());
    CHECK(bad_copies(dir).size() == 1);
    UiState ui2;
    SessionSettings ss2;
    REQUIRE(load_settings(path.string(), ui2, ss2).ok());
    if (v.kept != Kept::None) CHECK(ss2.prompt == ss.prompt);
  }
  fs::remove_all(dir);
}

TEST_CASE("settings file: a field of the wrong type keeps every other field") {
  UiState ui;
  SessionSettings ss;
  const Status st = settings_from_json(
      "{\"ui\": {\"font_size\": \"big\", \"play_speed\": 4}, \"session\": {\"prompt\": \"hi\", "
      "\"max_tokens\": [1], \"model\": \"a.gguf\"}}",
      ui, ss);
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("font_size") != std::string::npos);
  CHECK(st.error().message.find("max_tokens") != std::string::npos);
  CHECK(ui.timeline.play_speed == 4);
  CHECK(ss.prompt == "hi");
  CHECK(ss.model_path == "a.gguf");
  CHECK(ss.max_tokens == SessionSettings{}.max_tokens);
}

TEST_CASE("settings file: saving replaces only a regular file or a new one") {
  const fs::path dir = test::scratch_dir() / "settings-save";
  fs::remove_all(dir);
  fs::create_directories(dir);
  UiState ui;
  SessionSettings ss;
  ss.prompt = "kept";
  ss.has_prompt = true;
  // Through a symlink: the link stays a link, its target gets the settings.
  const fs::path target = dir / "real.json";
  { std::ofstream(target) << "{}"; }
  const fs::path link = dir / "settings.json";
  fs::create_symlink(target, link);
  REQUIRE(save_settings(link.string(), ui, ss).ok());
  CHECK(fs::is_symlink(link));
  CHECK(read_text(target).find("\"kept\"") != std::string::npos);
  // A FIFO (like a device) is refused and left as it is; so is a directory.
  const fs::path fifo = dir / "fifo.json";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const Status f = save_settings(fifo.string(), ui, ss);
  REQUIRE_FALSE(f.ok());
  CHECK(f.error().message.find("not a regular file") != std::string::npos);
  CHECK(fs::is_fifo(fifo));
  UiState ui2;
  SessionSettings ss2;
  const Status rf = load_settings(fifo.string(), ui2, ss2);  // never opened: no hang
  REQUIRE_FALSE(rf.ok());
  CHECK(rf.error().message.find("a pipe") != std::string::npos);
  CHECK(fs::is_fifo(fifo));
  const fs::path sub = dir / "sub.json";
  fs::create_directory(sub);
  CHECK_FALSE(save_settings(sub.string(), ui, ss).ok());
  CHECK(fs::is_directory(sub));
  // No temporary file is left behind.
  for (const auto& e : fs::directory_iterator(dir)) {
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
  }
  fs::remove_all(dir);
}

}  // namespace ts
#endif
