// The widths of the shared surfaces the architecture keeps narrow (DESIGN.md): Session's class
// lists at most 30 public members (commands and core queries; the other queries are free
// functions in their own files), read from src/session/session.h itself.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
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
    if (line == " public:") in_public = true;
    else if (line == " private:" || line == " protected:" || line == "};") in_public = false;
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
