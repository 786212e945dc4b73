// The command line: `tokenscope <command> [options]` (generate, tokenize, info, trace, bench,
// train, convert, lesson). Prints to stdout/stderr; exit code non-zero with a one-line reason.
#pragma once
#include <string_view>

namespace ts {

bool is_cli_command(std::string_view arg);  // also true for --help / --version
int cli_main(int argc, char** argv);

}  // namespace ts
