// The widths of the shared surfaces the architecture keeps narrow (DESIGN.md), read from the
// sources themselves: Session's class lists at most 30 public members (commands and core
// queries; the other queries are free functions in their own files); every panel function takes
// the shared PanelEnv and at most its own state struct, never the whole UiState; and no panel or
// widget keeps state in ImGui's storage behind its struct's back.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "golden.h"

namespace {

// The declarations in `class NAME { public: ... private:` of a header: one entry per member (a
// declaration starts at the class's two-space indent; its continuation lines are indented more).
std::vector<std::string> public_members(const std::string& header, const std::string& name) {
  std::ifstream in(ts::test::source_dir() / header);
  std::vector<std::string> out;
  std::string line;
  bool in_class = false, in_public = false;
  const std::regex decl("^  [A-Za-z~].*");
  while (std::getline(in, line)) {
    if (!in_class) {
      in_class = line.rfind("class " + name + " {", 0) == 0;
      continue;
    }
    if (line == " public:")
      in_public = true;
    else if (line == " private:" || line == " protected:" || line == "};")
      in_public = false;
    if (line == "};") break;
    if (in_public && std::regex_match(line, decl)) out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("Session's class lists at most 30 public members") {
  const std::vector<std::string> members = public_members("src/session/session.h", "Session");
  REQUIRE(members.size() > 10);  // the parse found the class
  std::string list;
  for (const std::string& m : members) list += m + "\n";
  CHECK_MESSAGE(members.size() <= 30, members.size() << " public members:\n" << list);
}

TEST_CASE("the member counter counts declarations, not their continuation lines") {
  // A sample in the header's own style, written out and read back.
  const std::vector<std::string> m = public_members("tests/structure/sample_class.h", "Sample");
  REQUIRE(m.size() == 3);
  CHECK(m[0].find("Sample()") != std::string::npos);
  CHECK(m[1].find("Status go(") != std::string::npos);
  CHECK(m[2].find("int x()") != std::string::npos);
}

namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("each panel function takes the shared env and only its own state") {
  const std::string h = read_text(ts::test::source_dir() / "src/app/panels/panels.h");
  REQUIRE(!h.empty());
  // Each declaration `void draw_NAME_panel(...);` up to its closing parenthesis.
  const std::regex decl(R"(void (draw_\w+_panel|draw_read_only_trace)\(([^;]*)\);)");
  int panels = 0;
  for (auto it = std::sregex_iterator(h.begin(), h.end(), decl); it != std::sregex_iterator();
       ++it) {
    const std::string name = (*it)[1], params = (*it)[2];
    ++panels;
    CHECK_MESSAGE(params.find("UiState") == std::string::npos, name << " takes the whole UiState");
    CHECK_MESSAGE(params.find("const PanelEnv& env") != std::string::npos, name);
    // At most one writable state struct of its own (XPanelState& or TraceViewState&); a
    // read-only one is `const ...State&` (the space before it follows "const").
    const std::regex own(R"((^|[^t] )(\w+State)& )");
    int owns = 0;
    for (auto o = std::sregex_iterator(params.begin(), params.end(), own);
         o != std::sregex_iterator(); ++o)
      ++owns;
    CHECK_MESSAGE(owns <= 1, name << " may write " << owns << " state structs: " << params);
  }
  // Every row of the panel table has its function, and the read-only trace view one more.
  const std::string table = read_text(ts::test::source_dir() / "src/app/panel_table.cpp");
  const std::regex row(R"(\{PanelId::\w+, ")");
  const auto rows = std::distance(std::sregex_iterator(table.begin(), table.end(), row),
                                  std::sregex_iterator());
  REQUIRE(rows >= 12);
  CHECK(panels == rows + 1);
}

TEST_CASE("a panel's title and lesson name are written in one source file: its table row") {
  namespace fs = std::filesystem;
  const fs::path src = ts::test::source_dir() / "src";
  const std::string table = read_text(src / "app/panel_table.cpp");
  // {PanelId::X, "title", "lesson-name", "alias", "key", ...
  const std::regex row(R"re(\{PanelId::(\w+), "([^"]*)", "([^"]*)", "([^"]*)", "([^"]*)")re");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), row); it != std::sregex_iterator();
       ++it)
    for (int g : {2, 3, 4}) {
      const std::string n = (*it)[g];
      // Titles and names of more than one word are distinctive; single common words ("model",
      // "cost") are also JSON keys and option names elsewhere.
      if (n.find_first_of(" -&") != std::string::npos) names.push_back(n);
    }
  REQUIRE(names.size() >= 6);
  std::vector<std::pair<fs::path, std::string>> sources;
  for (const auto& e : fs::recursive_directory_iterator(src))
    if (e.path().extension() == ".cpp" || e.path().extension() == ".h")
      sources.emplace_back(e.path(), read_text(e.path()));
  for (const std::string& n : names) {
    std::string where;
    int files = 0;
    for (const auto& [path, text] : sources)
      if (text.find("\"" + n + "\"") != std::string::npos) {
        ++files;
        where += " " + path.lexically_relative(src).string();
      }
    CHECK_MESSAGE(files == 1, "\"" << n << "\" is written in" << where);
  }
}

TEST_CASE("no panel or widget keeps state in ImGui's storage") {
  int files = 0;
  for (const char* dir : {"src/app/panels", "src/app/widgets"}) {
    for (const auto& e : std::filesystem::directory_iterator(ts::test::source_dir() / dir)) {
      if (e.path().extension() != ".cpp" && e.path().extension() != ".h") continue;
      ++files;
      const std::string text = read_text(e.path());
      CHECK_MESSAGE(text.find("GetStateStorage") == std::string::npos, e.path().string());
      CHECK_MESSAGE(text.find("StateStorage.") == std::string::npos, e.path().string());
    }
  }
  CHECK(files > 20);
}
