// Where the reference data lives (../shared/golden beside the checkout) and how tests treat its
// absence. A case that reads it is tagged TEST_CASE("..." * doctest::test_suite("golden")) and
// runs in its module's own ctest entry (MODULE_golden, tests/CMakeLists.txt): without the data
// that entry reports "skipped" (exit code kSkipExitCode); under CI (CI=true) it fails.
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

// Which cases a test executable runs (test_main.cpp reads --unit / --golden): Unit leaves the
// golden suite out, Golden runs only it, All (no flag, a run by hand) runs everything.
enum class RunMode { All, Unit, Golden };
RunMode& run_mode();
// How many have_golden calls found nothing (outside CI): the run then exits kSkipExitCode
// when no case failed, which ctest shows as skipped.
int& golden_skips();
inline constexpr int kSkipExitCode = 77;

// Returns true when `rel` (a path under the golden folder) exists. Otherwise: under CI the current
// test fails; elsewhere the run is counted as skipped. Use: if (!have_golden(x)) return;
// Called from a case outside the golden suite in a --unit run, it fails: tag the case.
inline bool have_golden(const std::string& rel) {
  if (run_mode() == RunMode::Unit) {
    FAIL("have_golden(" << rel << ") in a case outside the golden suite: tag it with "
                        << "doctest::test_suite(\"golden\")");
    return false;
  }
  const auto p = golden_dir() / rel;
  if (std::filesystem::exists(p)) return true;
  if (running_in_ci()) {
    FAIL("golden file missing under CI: " << p.string());
  } else {
    ++golden_skips();
    MESSAGE("SKIPPED (golden data absent, not in CI): " << p.string());
  }
  return false;
}

}  // namespace ts::test
