// The one verb table (src/lesson/verb_table.h): every verb's name is written in exactly one of the
// files that read or apply lines of verbs (the session's words in session/command.cpp, the
// others in lesson/verb_table.cpp), so no second parser or whitelist can drift from it; and
// every Verb alternative has its handler in the lesson runner and in the app's script runner.
// Read from the sources: the names are the quoted words of command.cpp's kVerbs and of the
// table's rows.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "golden.h"

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE_MESSAGE(in.good(), "cannot read " << p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The text between `open` and the next `close` in `text` ("" when absent).
std::string between(const std::string& text, const std::string& open, const std::string& close) {
  const size_t a = text.find(open);
  if (a == std::string::npos) return "";
  const size_t b = text.find(close, a + open.size());
  return text.substr(a + open.size(), b == std::string::npos ? std::string::npos : b - a);
}

std::vector<std::string> all(const std::string& text, const std::regex& re) {
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1].str());
  return out;
}

// The files that parse or apply a line of verbs: scripts, lessons, the session's text form, the
// app's commands and keys, the web page's start-up, the CLI's lesson command.
std::vector<fs::path> verb_surfaces() {
  const fs::path src = ts::test::source_dir() / "src";
  std::vector<fs::path> out = {src / "session/command.cpp", src / "app/script.cpp",
                               src / "app/app_script.cpp",  src / "app/app.cpp",
                               src / "app/commands.cpp",    src / "app/switchboard.cpp",
                               src / "cli/cmd_lesson.cpp"};
  for (const char* dir : {"lesson", "app/web"})
    for (const auto& e : fs::directory_iterator(src / dir))
      if (e.path().extension() == ".cpp") out.push_back(e.path());
  return out;
}

// Words these files use for another grammar than the verbs': a lesson's front matter keys
// (model, tokenizer, sampler), its ```reveal block, the ```expect quantities (step, lanes ...),
// the `tokenscope lesson show` subcommand, a key of the web page's JSON report.
const std::map<std::string, std::set<std::string>>& other_grammars() {
  static const std::map<std::string, std::set<std::string>> m = {
      {"lesson_runner.cpp", {"model", "tokenizer", "sampler"}},
      {"lesson_parse.cpp", {"reveal"}},
      {"lesson_syntax.cpp", {"step", "lanes"}},
      {"lesson_checks.cpp", {"step", "lanes", "max-tokens"}},
      {"cmd_lesson.cpp", {"show"}},
      {"web_console.cpp", {"model"}},
  };
  return m;
}

}  // namespace

TEST_CASE("verb table: each verb name is written in exactly one file that reads verbs") {
  const fs::path src = ts::test::source_dir() / "src";
  const std::regex quoted("\"([a-z][a-z-]*)\"");
  const std::vector<std::string> session =
      all(between(read(src / "session/command.cpp"), "kVerbs[] = {", "};"), quoted);
  const std::vector<std::string> table = all(
      between(read(src / "lesson/verb_table.cpp"), "std::vector<VerbRow> rows = {", "};"),
      std::regex("\\{\"([a-z][a-z-]*)\","));
  CHECK(session.size() >= 18);
  CHECK(table.size() >= 26);
  std::map<std::string, std::string> owner;
  for (const std::string& n : session) owner[n] = "command.cpp";
  for (const std::string& n : table) {
    CAPTURE(n);
    CHECK_MESSAGE(owner.count(n) == 0, "a table verb that is also a session word");
    owner[n] = "verb_table.cpp";
  }
  for (const fs::path& f : verb_surfaces()) {
    const std::string text = read(f);
    const std::string file = f.filename().string();
    const auto skip = other_grammars().find(file);
    for (const auto& entry : owner) {  // no structured binding: clang 14 cannot capture one
      const auto& name = entry.first;
      const auto& home = entry.second;
      if (file == home) continue;
      if (skip != other_grammars().end() && skip->second.count(name)) continue;
      CAPTURE(name);
      CHECK_MESSAGE(text.find("\"" + name + "\"") == std::string::npos,
                    f.string() << " names the verb '" << name << "' (its home is " << home
                               << ": read the table instead)");
    }
  }
}

TEST_CASE("verb table: every Verb alternative has a handler in the lesson runner and the app") {
  const fs::path src = ts::test::source_dir() / "src";
  const std::string variant =
      between(read(src / "lesson/verb_table.h"), "using Verb =", ">;");
  const std::vector<std::string> alts = all(variant, std::regex("verb::(\\w+)"));
  const std::string rows =
      between(read(src / "lesson/verb_table.cpp"), "std::vector<VerbRow> rows = {", "};");
  // The session's words are one alternative; each table row yields one more.
  CHECK(alts.size() == 1 + all(rows, std::regex("\\{\"([a-z][a-z-]*)\",")).size());
  for (const char* file : {"lesson/lesson_runner.cpp", "app/app_script.cpp"}) {
    const std::string text = read(src / file);
    for (const std::string& a : alts) {
      CAPTURE(file);
      CAPTURE(a);
      CHECK(std::regex_search(text, std::regex("operator\\(\\)\\(const verb::" + a + "&")));
    }
  }
}
