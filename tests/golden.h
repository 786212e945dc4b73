// Where the reference data lives (../shared/golden beside the checkout) and how tests treat its
// absence: a user's own clone skips those tests with a message; under CI (CI=true) it is a failure.
#pragma once
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace ts::test {

inline std::filesystem::path golden_dir() { return std::filesystem::path(TS_GOLDEN_DIR); }
inline std::filesystem::path source_dir() { return std::filesystem::path(TS_SOURCE_DIR); }

inline bool running_in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

// Returns true when `rel` (a path under the golden folder) exists. Otherwise: under CI the current
// test fails; elsewhere it prints that the golden test is skipped. Use: if (!have_golden(x)) return;
inline bool have_golden(const std::string& rel) {
  const auto p = golden_dir() / rel;
  if (std::filesystem::exists(p)) return true;
  if (running_in_ci()) {
    FAIL("golden file missing under CI: " << p.string());
  } else {
    MESSAGE("SKIPPED (golden data absent, not in CI): " << p.string());
  }
  return false;
}

}  // namespace ts::test
