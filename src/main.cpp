// tokenscope's entry point: a known subcommand runs the command line (cli/); anything else
// (no arguments, or app options such as --model, --script, --screenshot) opens the app.
#include <cstdio>
#include <string_view>

#include "cli/cli.h"
#ifdef TS_HAVE_APP
#include "app/app_main.h"
#endif

int main(int argc, char** argv) {
  if (argc >= 2 && ts::is_cli_command(argv[1])) return ts::cli_main(argc, argv);
#ifdef TS_HAVE_APP
  return ts::app_main(argc, argv);
#else
  std::fprintf(stderr, "tokenscope: built without the app; run 'tokenscope --help'\n");
  return ts::cli_main(argc, argv);
#endif
}
