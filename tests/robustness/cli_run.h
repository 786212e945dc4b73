// Running `tokenscope <args>` in-process for the robustness tests: exit code, stdout, stderr.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"

namespace ts::test {

struct CliRun {
  int code = -1;
  std::string out, err;
};

inline CliRun cli(std::vector<std::string> args) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  CliRun r;
  r.code = cli_run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace ts::test
