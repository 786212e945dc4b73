// `tokenscope convert`: a llama2.c checkpoint + its tokenizer.bin -> one GGUF file (weights,
// hyper-parameters and vocabulary together), then reads the result back as a check.
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "formats/model_file.h"

namespace ts::cli {

int cmd_convert(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Convert a llama2.c checkpoint and its tokenizer.bin to GGUF.",
               "tokenscope convert"};
  std::string model, tokenizer, output;
  app.add_option("--model", model, "llama2.c checkpoint (.bin)")->required();
  app.add_option("--tokenizer", tokenizer, "llama2.c tokenizer.bin")->required();
  app.add_option("--output,-o", output, "GGUF file to write")->required();
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;

  Result<LoadedModel> lm = load_model_file(model, tokenizer);
  if (!lm.ok()) return fail(err, "convert", lm.error().message);
  if (lm->tokenizer.tokens.empty()) return fail(err, "convert", tokenizer + ": no vocabulary");
  const std::map<std::string, std::string> extra = {
      {"general.description", "converted from llama2.c by tokenscope convert"},
      {"tokenscope.source", model}};
  if (Status st = save_gguf_model(output, lm->model, lm->tokenizer, extra); !st.ok()) {
    return fail(err, "convert", st.error().message);
  }
  Result<LoadedModel> back = load_model_file(output);
  if (!back.ok()) return fail(err, "convert", "wrote " + output + " but cannot read it back: " +
                                                   back.error().message);
  if (back->model.parameter_count() != lm->model.parameter_count() ||
      back->tokenizer.tokens.size() != lm->tokenizer.tokens.size()) {
    return fail(err, "convert", "wrote " + output + " but it reads back differently");
  }
  out << "wrote " << output << ": " << lm->model.parameter_count() << " parameters, vocab "
      << lm->tokenizer.tokens.size() << ", n_ctx " << lm->model.config.n_ctx << "\n";
  return 0;
}

}  // namespace ts::cli
