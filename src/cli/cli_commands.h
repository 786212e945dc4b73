// The CLI's commands, one function per file (cmd_<name>.cpp). args[0] is the command's name;
// output goes to `out`, one-line errors to `err`; the return value is the exit code.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace ts::cli {

using Args = std::vector<std::string>;

int cmd_generate(const Args& args, std::ostream& out, std::ostream& err);
int cmd_tokenize(const Args& args, std::ostream& out, std::ostream& err);
int cmd_info(const Args& args, std::ostream& out, std::ostream& err);
int cmd_trace(const Args& args, std::ostream& out, std::ostream& err);
int cmd_explain(const Args& args, std::ostream& out, std::ostream& err);
int cmd_convert(const Args& args, std::ostream& out, std::ostream& err);
int cmd_bench(const Args& args, std::ostream& out, std::ostream& err);
int cmd_eval(const Args& args, std::ostream& out, std::ostream& err);
int cmd_plot_loss(const Args& args, std::ostream& out, std::ostream& err);

}  // namespace ts::cli
