// The command dispatcher: `tokenscope <command> ...` -> the command's function; top-level
// --help and --version. train and lesson forward to their own modules' entry points.
#include <iostream>
#include <new>
#include <stdexcept>
#include <system_error>

#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_commands.h"
#include "cli/cmd_lesson.h"
#include "cli/cmd_train.h"

#ifndef TS_VERSION
#define TS_VERSION "0.1.0"
#endif

namespace ts {

namespace {

struct Command {
  const char* name;
  const char* help;
};

constexpr Command kCommands[] = {
    {"generate", "generate text from a prompt (--top N, --lanes \"greedy; temp=0.8\")"},
    {"tokenize", "show the tokens of a text"},
    {"info", "describe a model file (without loading its weights)"},
    {"trace", "run a generation and write its full record as JSON (--json FILE)"},
    {"explain", "why step K chose its token, not --vs PIECE (--json); --map: when it decided"},
    {"convert", "llama2.c checkpoint + tokenizer.bin (or a GGUF) -> GGUF (--type)"},
    {"train", "train a small model (see tokenscope train --help)"},
    {"bench", "record memory vs budgets, seek time, decode speed (--memory, --json)"},
    {"eval", "measure a model as a teaching instrument (confidence, loops, words, bits/byte)"},
    {"lesson", "check or show the guided lessons"},
    {"plot-loss", "a training log's loss curve as a PNG (--log FILE --out FILE.png)"},
};

void print_help(std::ostream& out) {
  out << "tokenscope: a microscope for autoregressive text generation\n\n"
         "usage: tokenscope [options]            open the app (tokenscope --app-help lists "
         "its options)\n"
         "       tokenscope <command> [options]  run a command; <command> --help for its "
         "options\n\ncommands:\n";
  for (const Command& c : kCommands) {
    std::string name = c.name;
    name.resize(10, ' ');
    out << "  " << name << c.help << "\n";
  }
}

// Runs a module entry point that takes (argc, argv) with argv[0] = the command name.
template <class F>
int forward_argv(const std::vector<std::string>& args, F&& f) {
  std::vector<std::string> copy(args.begin() + 1, args.end());
  std::vector<char*> argv;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  return f(static_cast<int>(copy.size()), argv.data());
}

int run_command(const std::string& cmd, const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err) {
  const cli::Args rest(args.begin() + 1, args.end());  // rest[0] = the command
  if (cmd == "generate") return cli::cmd_generate(rest, out, err);
  if (cmd == "tokenize") return cli::cmd_tokenize(rest, out, err);
  if (cmd == "info") return cli::cmd_info(rest, out, err);
  if (cmd == "trace") return cli::cmd_trace(rest, out, err);
  if (cmd == "explain") return cli::cmd_explain(rest, out, err);
  if (cmd == "convert") return cli::cmd_convert(rest, out, err);
  if (cmd == "bench") return cli::cmd_bench(rest, out, err);
  if (cmd == "eval") return cli::cmd_eval(rest, out, err);
  if (cmd == "plot-loss") return cli::cmd_plot_loss(rest, out, err);
  if (cmd == "train") return forward_argv(args, [](int c, char** v) { return train_main(c, v); });
  if (cmd == "lesson") {
    return forward_argv(args, [](int c, char** v) { return lesson_main(c, v, cli::source_dir()); });
  }
  err << "tokenscope: unknown command '" << cmd << "' (see tokenscope --help)\n";
  return 2;
}

}  // namespace

bool is_cli_command(std::string_view arg) {
  if (arg == "--help" || arg == "-h" || arg == "help" || arg == "--version") return true;
  for (const Command& c : kCommands) {
    if (arg == c.name) return true;
  }
  return false;
}

int cli_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "help") {
    print_help(out);
    return args.size() < 2 ? 2 : 0;
  }
  const std::string& cmd = args[1];
  if (cmd == "--version") {
    out << "tokenscope " << TS_VERSION << "\n";
    return 0;
  }
  // Out of memory in any command is one line and exit 1, never an abort.
  try {
    return run_command(cmd, args, out, err);
  } catch (const std::bad_alloc&) {
    return cli::fail(err, cmd, "out of memory (the input asks for more than this process may use)");
  } catch (const std::length_error&) {
    return cli::fail(err, cmd, "out of memory (a size beyond what this process can allocate)");
  } catch (const std::system_error& e) {  // e.g. no thread could be started under a low limit
    return cli::fail(err, cmd, std::string("system error: ") + e.what());
  } catch (const std::exception& e) {
    return cli::fail(err, cmd, std::string("internal error: ") + e.what());
  }
}

int cli_main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  return cli_run(args, std::cout, std::cerr);
}

}  // namespace ts
