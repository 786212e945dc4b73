// The layer graph of src/ (DESIGN.md, "Layers"): every `#include "module/..."` of every source
// file is checked against the modules its own module may include, UI headers (ImGui, GLFW, GL,
// the ImGui backends, emscripten) appear only under src/app, the window's own (GLFW, GL,
// backends, emscripten) only in src/app/window, src/app/desktop and src/app/web, and
// the allowed graph itself has no cycle. A new include that crosses a layer fails here with the
// file and the line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "golden.h"

namespace fs = std::filesystem;

namespace {

// Which modules each module may include (besides itself). bench/ (probes, roofline, the step,
// the soak, the F32 / Q8_0 / Q4_K timing) sits under lesson/: the CLI runs it, the app's Cost
// panel uses its probes, and a lesson's compare-formats its format timing.
// chat/ (chat templates: a Jinja2 engine) needs only the vocabulary's special tokens; the
// session renders a chat message into its prompt with it (session/chat_prompt.h).
// decode/ (beam search, speculative decoding: loops straight on the engine and the sampler) sits
// below session/, so the session and everything above it may drive them.
// poll/ (the class poll's server, state and tally) knows only base and the tokenizer: the app
// hands it the model's distribution as plain numbers.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> g = {
      {"base", {}},
      {"tokenizer", {"base"}},
      {"engine", {"base"}},
      {"sampling", {"base", "engine"}},
      {"formats", {"base", "engine", "tokenizer"}},
      {"decode", {"base", "engine", "sampling"}},
      {"session", {"base", "chat", "decode", "engine", "formats", "sampling", "tokenizer"}},
      {"poll", {"base", "tokenizer"}},
      {"trace", {"base", "decode", "engine", "formats", "sampling", "session", "tokenizer"}},
      {"lesson", {"base", "bench", "decode", "engine", "formats", "sampling", "session", "tokenizer"}},
      {"train", {"base", "engine", "formats", "tokenizer"}},
      {"chat", {"base", "tokenizer"}},
      {"bench", {"base", "decode", "engine", "formats", "sampling", "session", "tokenizer"}},
      {"cli",
       {"base", "bench", "chat", "decode", "engine", "formats", "lesson", "sampling", "session",
        "tokenizer", "trace", "train"}},
      {"app",
       {"base", "bench", "chat", "decode", "engine", "formats", "lesson", "poll", "sampling",
        "session", "tokenizer", "trace"}},
  };
  return g;
}

bool is_ui_header(const std::string& h) {
  return h.rfind("imgui", 0) == 0 || h.rfind("GLFW/", 0) == 0 || h.rfind("GL/", 0) == 0 ||
         h.rfind("backends/", 0) == 0 || h.rfind("emscripten", 0) == 0;
}

// The window's headers (GLFW, GL, the ImGui backends, emscripten): only the window itself
// (src/app/window/), the desktop's frame loop (src/app/desktop/) and the web page (src/app/web/).
bool is_window_header(const std::string& h) {
  return h.rfind("GLFW/", 0) == 0 || h.rfind("GL/", 0) == 0 || h.rfind("backends/", 0) == 0 ||
         h.rfind("emscripten", 0) == 0;
}

}  // namespace

TEST_CASE("the allowed layer graph has no cycle") {
  std::map<std::string, int> state;  // 0 new, 1 on the path, 2 done
  std::function<bool(const std::string&)> acyclic = [&](const std::string& m) {
    if (state[m] == 1) return false;
    if (state[m] == 2) return true;
    state[m] = 1;
    for (const std::string& d : allowed().at(m))
      if (!acyclic(d)) return false;
    state[m] = 2;
    return true;
  };
  for (const auto& entry : allowed()) {
    const std::string m = entry.first;  // (a copy: clang 14 cannot capture a structured binding)
    CHECK_MESSAGE(acyclic(m), m);
  }
}

TEST_CASE("every include in src/ follows the layer graph; UI headers only in app/") {
  const fs::path src = ts::test::source_dir() / "src";
  REQUIRE(fs::is_directory(src));
  const std::regex inc("^\\s*#\\s*include\\s*([<\"])([^>\"]+)[>\"]");
  int files = 0, includes = 0;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(src)) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".h" && ext != ".cpp") continue;
    const fs::path rel = fs::relative(e.path(), src);
    if (rel.begin() == rel.end() || std::next(rel.begin()) == rel.end()) continue;  // src/main.cpp
    const std::string module = rel.begin()->string();
    REQUIRE_MESSAGE(allowed().count(module), "a module the layer graph does not know: " << module);
    ++files;
    std::ifstream in(e.path());
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      std::smatch m;
      if (!std::regex_search(line, m, inc)) continue;
      ++includes;
      const std::string header = m[2];
      const std::string where = rel.string() + ":" + std::to_string(n) + ": " + header;
      if (is_ui_header(header)) {
        CHECK_MESSAGE(module == "app", where << " (UI headers belong in src/app only)");
        const std::string r = rel.generic_string();
        const bool window_part = r.rfind("app/window/", 0) == 0 ||
                                 r.rfind("app/desktop/", 0) == 0 || r.rfind("app/web/", 0) == 0;
        if (is_window_header(header))
          CHECK_MESSAGE(window_part, where << " (GLFW, GL and the backends belong in "
                                              "src/app/window, src/app/desktop or src/app/web)");
        continue;
      }
      if (m[1] != "\"") continue;  // a system or library header
      const size_t slash = header.find('/');
      if (slash == std::string::npos) continue;
      const std::string target = header.substr(0, slash);
      if (target == module || !allowed().count(target)) continue;
      const bool ok = allowed().at(module).count(target) > 0;
      CHECK_MESSAGE(ok, where << " (" << module << " may not include " << target << ")");
    }
  }
  CHECK(files > 100);
  CHECK(includes > 500);
}
