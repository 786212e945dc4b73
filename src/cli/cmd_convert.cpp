// `tokenscope convert`: a llama2.c checkpoint + its tokenizer.bin (or a GGUF model, e.g. one
// trained here) -> one GGUF file (weights, hyper-parameters and vocabulary together), its
// matrices as --type (f32 by default; matrices whose rows do not fill whole blocks of that type
// fall back as the GGUF writer does), then reads the result back as a check and prints the
// tensor types written. A GGUF input keeps only what tokenscope reads from it (no other keys).
// The result is written to a temporary file beside the output, loaded back and checked as
// generate would check it, and only then renamed over the output (a regular file or a new one;
// a device or directory is refused): convert never leaves a file that generate refuses.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "base/atomic_write.h"

#include "cli/cli_common.h"
#include "cli/cli_commands.h"
#include "formats/gguf_model.h"
#include "formats/model_file.h"
#include "session/session.h"

namespace ts::cli {

namespace {

// The --type names, lower case as llama.cpp's quantize tool spells them.
const std::pair<const char*, GgmlType> kConvertTypes[] = {
    {"f32", GgmlType::F32},   {"f16", GgmlType::F16},   {"q8_0", GgmlType::Q8_0},
    {"q4_0", GgmlType::Q4_0}, {"q4_k", GgmlType::Q4_K}, {"q5_k", GgmlType::Q5_K},
    {"q6_k", GgmlType::Q6_K},
};

}  // namespace

int cmd_convert(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Convert a llama2.c checkpoint and its tokenizer.bin (or a GGUF model) to GGUF.",
               "tokenscope convert"};
  std::string model, tokenizer, output, type_name = "f32";
  app.add_option("--model", model, "llama2.c checkpoint (.bin), or a GGUF model to re-write")
      ->required();
  app.add_option("--tokenizer", tokenizer, "llama2.c tokenizer.bin (needed for a checkpoint)");
  app.add_option("--output,-o", output, "GGUF file to write")->required();
  std::vector<std::string> type_names;
  for (const auto& [name, type] : kConvertTypes) type_names.emplace_back(name);
  app.add_option("--type", type_name,
                 "type of the matrices: f32, f16, q8_0, q4_0, q4_k, q5_k or q6_k (rows that do not "
                 "fill whole blocks fall back to q8_0, else f16; norms stay f32)")
      ->check(CLI::IsMember(type_names))
      ->capture_default_str();
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;
  GgmlType matrix_type = GgmlType::F32;
  for (const auto& [name, type] : kConvertTypes) {
    if (type_name == name) matrix_type = type;
  }

  Result<std::string> target = atomic_write_target(output);
  if (!target.ok()) return fail(err, "convert", target.error().message);
  Result<LoadedModel> lm = load_model_file(model, tokenizer);
  if (lm) dequantize_weights(lm->model);  // re-encoded from the values the file holds
  if (!lm.ok()) return fail(err, "convert", lm.error().message);
  const bool from_gguf = lm->info.format == "gguf";
  if (lm->tokenizer.tokens.empty()) {
    return fail(err, "convert",
                tokenizer.empty() ? model + ": no vocabulary (give --tokenizer tokenizer.bin)"
                                  : tokenizer + ": no vocabulary");
  }
  if (Result<Tokenizer> ok = check_model_runnable(lm->model.config, lm->tokenizer, model);
      !ok.ok()) {
    return fail(err, "convert", "generate would refuse the result: " + ok.error().message);
  }
  const std::map<std::string, std::string> extra = {
      {"general.description", from_gguf ? "re-written by tokenscope convert"
                                        : "converted from llama2.c by tokenscope convert"},
      {"tokenscope.source", model}};
  const std::string tmp =
      target.value() + ".convert-" + std::to_string(static_cast<long>(::getpid()));
  auto refuse = [&](const std::string& msg) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    return fail(err, "convert", msg);
  };
  if (Status st = save_gguf_model_as(tmp, lm->model, lm->tokenizer, matrix_type, extra);
      !st.ok()) {
    return refuse(st.error().message);
  }
  Result<LoadedModel> back = load_model_file(tmp);
  if (!back.ok()) {
    return refuse("the converted model cannot be read back (" + output +
                  " is left as it was): " + back.error().message);
  }
  if (Result<Tokenizer> ok = check_model_runnable(back->model.config, back->tokenizer, output);
      !ok.ok()) {
    return refuse("generate would refuse the converted model (" + output +
                  " is left as it was): " + ok.error().message);
  }
  if (back->model.parameter_count() != lm->model.parameter_count() ||
      back->tokenizer.tokens.size() != lm->tokenizer.tokens.size()) {
    return refuse("the converted model reads back differently (" + output +
                  " is left as it was)");
  }
  if (std::rename(tmp.c_str(), target->c_str()) != 0) {
    return refuse(output + ": cannot replace the file (" + std::strerror(errno) + ")");
  }
  out << "wrote " << output << ": " << lm->model.parameter_count() << " parameters, vocab "
      << lm->tokenizer.tokens.size() << ", n_ctx " << lm->model.config.n_ctx << "\n";
  out << "tensor types: " << back->info.tensor_types << " (" << back->info.file_bytes
      << " bytes)\n";
  return 0;
}

}  // namespace ts::cli
