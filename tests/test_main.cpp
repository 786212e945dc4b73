// The one doctest main shared by every test executable. Besides doctest's own options it takes
// --unit (every case but the golden suite) or --golden (only the golden suite); a run whose
// golden data was absent exits with kSkipExitCode when nothing failed (golden.h).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "golden.h"

namespace ts::test {

RunMode& run_mode() {
  static RunMode mode = RunMode::All;
  return mode;
}

int& golden_skips() {
  static int n = 0;
  return n;
}

}  // namespace ts::test

int main(int argc, char** argv) {
  using ts::test::RunMode;
  std::vector<const char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--unit") == 0)
      ts::test::run_mode() = RunMode::Unit;
    else if (std::strcmp(argv[i], "--golden") == 0)
      ts::test::run_mode() = RunMode::Golden;
    else
      args.push_back(argv[i]);
  }
  doctest::Context ctx;
  ctx.applyCommandLine(static_cast<int>(args.size()), args.data());
  if (ts::test::run_mode() == RunMode::Unit) ctx.addFilter("test-suite-exclude", "golden");
  if (ts::test::run_mode() == RunMode::Golden) ctx.addFilter("test-suite", "golden");
  const int res = ctx.run();
  if (ctx.shouldExit()) return res;
  if (res == 0 && ts::test::golden_skips() > 0) {
    std::printf("SKIPPED: %d golden file(s) absent (%s); under CI=true that is a failure\n",
                ts::test::golden_skips(), ts::test::golden_dir().string().c_str());
    return ts::test::kSkipExitCode;
  }
  return res;
}
