// The checks the unity batches would hide stay in `make test`: the Makefile's test target runs
// the solo check (every src/ .cpp compiled on its own, scripts/solo_check.py) next to the
// sanitizer tests and the fuzzers; the solo check parses each file alone, with the
// missing-declaration warning, and fails a file it has no flags for instead of skipping it; the
// top-level CMakeLists asks both compilers for that warning.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "golden.h"

namespace {

std::string read_text(const char* rel) {
  std::ifstream in(ts::test::source_dir() / rel);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The prerequisites of `NAME:` in a Makefile, one word each.
std::vector<std::string> prerequisites(const std::string& make, const std::string& name) {
  std::istringstream in(make);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + ":", 0) != 0) continue;
    std::istringstream words(line.substr(name.size() + 1));
    std::vector<std::string> out;
    for (std::string w; words >> w;) out.push_back(w);
    return out;
  }
  return {};
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  for (const std::string& e : v)
    if (e == x) return true;
  return false;
}

}  // namespace

TEST_CASE("make test runs the solo check, the sanitizer tests and the fuzzers") {
  const std::string make = read_text("Makefile");
  REQUIRE_FALSE(make.empty());
  const std::vector<std::string> test = prerequisites(make, "test");
  CHECK(has(test, "test-fast"));
  CHECK(has(test, "solo-check"));
  CHECK(has(test, "asan-test"));
  CHECK(has(test, "fuzz-short"));
  CHECK(make.find("scripts/solo_check.py $(BUILD)") != std::string::npos);
}

TEST_CASE("the solo check fails a file it cannot compile on its own or has no flags for") {
  const std::string py = read_text("scripts/solo_check.py");
  REQUIRE_FALSE(py.empty());
  CHECK(py.find("-fsyntax-only") != std::string::npos);
  CHECK(py.find("-Wmissing-prototypes") != std::string::npos);
  CHECK(py.find("sys.exit(1 if failed or skipped else 0)") != std::string::npos);
  const std::string cmake = read_text("CMakeLists.txt");
  CHECK(cmake.find("-Wmissing-declarations") != std::string::npos);
  CHECK(cmake.find("-Wmissing-prototypes") != std::string::npos);
}
