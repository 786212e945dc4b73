// `tokenscope info`: what a model file holds (architecture, sizes, parameter count, tokenizer)
// and what running it costs in memory, read from the header only (no weights are loaded): the
// tensor count per stored type and the memory the weights take once loaded (Q8_0, Q4_0, Q4_K,
// Q5_K and Q6_K matrices stay in their blocks; everything else becomes fp32).
// --json prints the container instead (every metadata key with its GGUF type and full value,
// every tensor's name, shape, type, offset and size), for checks against other GGUF readers.
// The verdict is generate's: the same checks (verify_model_file and check_model_runnable), the
// weights scanned for NaN/Inf a chunk at a time instead of loaded (--quick: not read at all);
// exit 1 with the reason when generate would refuse the file. --families lists the model
// families this build runs (engine/family.h), one line each, and needs no model.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/cli_common.h"
#include "cli/cli_commands.h"
#include "formats/gguf.h"
#include "formats/memory_budget.h"
#include "formats/model_file.h"
#include "session/session.h"
#include "tokenizer/tokenizer.h"

namespace ts::cli {

namespace {

std::string mib(double bytes) {
  char buf[32];
  if (bytes < 1024.0 * 1024.0) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f MiB", bytes / (1024.0 * 1024.0));
  }
  return buf;
}

// A metadata value as JSON: numbers, booleans, strings, and arrays of them (nested arrays too).
nlohmann::json value_json(const GgufValue& v) {
  if (v.is_array()) {
    nlohmann::json a = nlohmann::json::array();
    for (size_t k = 0; k < v.array_size(); ++k) {
      switch (gguf_value_kind(v.elem)) {
        case 'u':
          a.push_back(v.elem == GgufValueType::Bool ? nlohmann::json(v.arr_u[k] != 0)
                                                    : nlohmann::json(v.arr_u[k]));
          break;
        case 'i':
          a.push_back(v.arr_i[k]);
          break;
        case 'f':
          a.push_back(v.arr_f[k]);
          break;
        case 's':
          a.push_back(v.arr_s[k]);
          break;
        default:
          a.push_back(value_json(v.arr_a[k]));
      }
    }
    return a;
  }
  switch (gguf_value_kind(v.type)) {
    case 'u':
      return v.type == GgufValueType::Bool ? nlohmann::json(v.u != 0) : nlohmann::json(v.u);
    case 'i':
      return v.i;
    case 'f':
      return v.f;
    default:
      return v.s;
  }
}

// The GGUF container as read by tokenscope's reader (offsets: tensor offsets are relative to
// data_offset, the absolute start of the tensor data).
nlohmann::json gguf_json(const GgufFile& f) {
  nlohmann::json j = {{"version", f.version()},
                      {"alignment", f.alignment()},
                      {"data_offset", f.data_offset()},
                      {"file_bytes", f.file_size()}};
  nlohmann::json& md = j["metadata"] = nlohmann::json::array();
  for (const auto& [key, v] : f.metadata()) {
    nlohmann::json e = {
        {"key", key}, {"type", gguf_value_type_name(v.type)}, {"value", value_json(v)}};
    if (v.is_array()) e["array_type"] = gguf_value_type_name(v.elem);
    md.push_back(std::move(e));
  }
  nlohmann::json& ts = j["tensors"] = nlohmann::json::array();
  for (const GgufTensorInfo& t : f.tensors()) {
    ts.push_back({{"name", t.name},
                  {"shape", t.ne},
                  {"type", ggml_type_name(t.type)},
                  {"type_id", t.type},
                  {"offset", t.offset},
                  {"bytes", t.n_bytes}});
  }
  return j;
}

int print_json(const ModelFileInfo& i, const Status& verdict, std::ostream& out,
               std::ostream& err) {
  const ModelConfig& c = i.config;
  nlohmann::json j = {{"file", i.path},
                      {"format", i.format},
                      {"architecture", c.architecture},
                      {"block", block_summary(c)},
                      {"norm", c.norm == NormKind::Layer ? "layernorm" : "rmsnorm"},
                      {"positions", c.learned_positions() ? "learned" : "rope"},
                      {"rope_dims", c.learned_positions() ? 0 : c.rotary_dims()},
                      {"mlp", c.mlp == MlpKind::Gelu ? "gelu" : "swiglu"},
                      {"has_weights", i.has_weights},
                      {"n_params", i.n_params},
                      {"n_layers", c.n_layers},
                      {"n_heads", c.n_heads},
                      {"n_kv_heads", c.n_kv_heads},
                      {"d_model", c.d_model},
                      {"d_ff", c.d_ff},
                      {"vocab_size", c.vocab_size},
                      {"n_ctx", c.n_ctx},
                      {"tensor_types", i.tensor_types},
                      {"runnable", verdict.ok()}};
  if (!verdict.ok()) j["refused"] = verdict.error().message;
  if (i.format == "gguf") {
    Result<GgufFile> f = GgufFile::open(i.path);
    if (!f.ok()) return fail(err, "info", f.error().message);
    j["gguf"] = gguf_json(f.value());
  }
  // Strings from the file that are not valid UTF-8 are printed with U+FFFD in their place.
  out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return verdict.ok() ? 0 : fail(err, "info", "generate would refuse this file: " +
                                                  verdict.error().message);
}

// One line per row of the family table: its GGUF name, what people call it, its block.
void print_families(std::ostream& out) {
  for (const Family& f : families()) {
    char name[16];
    std::snprintf(name, sizeof name, "%-10s", f.arch);
    out << name << f.label << ": " << family_summary(f) << "\n";
  }
}

}  // namespace

namespace {

// The sizes of a file with weights: layers, heads, widths, memory at load and for the KV cache.
void print_sizes(const ModelFileInfo& i, std::ostream& out) {
  const ModelConfig& c = i.config;
  out << "parameters:    " << i.n_params << "\n";
  out << "layers:        " << c.n_layers << "\n";
  out << "heads:         " << c.n_heads << " (kv heads " << c.n_kv_heads << ", head_dim "
      << c.head_dim() << ")\n";
  out << "d_model:       " << c.d_model << "\n";
  out << "d_ff:          " << c.d_ff << "\n";
  out << "vocab_size:    " << c.vocab_size << "\n";
  out << "n_ctx:         " << c.n_ctx << "\n";
  out << "tensors:       " << i.tensor_types << "\n";
  const double kv = 2.0 * c.n_layers * c.kv_dim() * sizeof(float) * c.n_ctx;
  out << "memory:        weights " << mib(static_cast<double>(i.memory_bytes))
      << " (quantized matrices as stored, the rest fp32) + KV cache " << mib(kv)
      << " per lane at full context (" << mib(kv / std::max(1, c.n_ctx)) << " per position)\n";
  out << "load peak:     " << mib(static_cast<double>(i.peak_bytes))
      << " (weights, one tensor being decoded, one lane's KV cache)\n";
}

// The tokenizer, when the file (or --tokenizer) has one and it is valid; else why not.
void print_tokenizer(const ModelFileInfo& i, const std::optional<Tokenizer>& tok,
                     const TokenizerData& td, bool verified, std::ostream& out) {
  if (tok) {
    out << "tokenizer:     "
        << (tok->data().kind == TokenizerKind::Spm ? "SentencePiece (scores, byte fallback)"
                                                   : "byte-level BPE (merges)")
        << ", vocab " << tok->vocab_size() << ", BOS " << tok->bos_id() << ", EOS " << tok->eos_id()
        << (tok->data().add_bos ? ", adds BOS" : "") << "\n";
  } else if (verified && td.tokens.empty()) {
    out << "tokenizer:     none in this file"
        << (i.format == "llama2c" ? " (give --tokenizer tokenizer.bin)" : "") << "\n";
  } else if (verified) {
    out << "tokenizer:     invalid (see the verdict)\n";
  } else {
    out << "tokenizer:     not known (the file is refused first, see the verdict)\n";
  }
}

}  // namespace

int cmd_info(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Describe a model file without loading its weights.", "tokenscope info"};
  ModelOptions m;
  add_model_options(app, m);
  bool json = false;
  app.add_flag("--json", json,
               "print JSON instead: the sizes, and for a GGUF every metadata key (type, value) and "
               "every tensor (name, shape, type, offset, bytes)");
  bool quick = false;
  app.add_flag("--quick", quick,
               "read no weight: skip the NaN/Inf scan (the verdict then leaves a NaN inside the "
               "weights to the load)");
  bool list_families = false;
  app.add_flag("--families", list_families,
               "list the model families (GGUF general.architecture) this build runs, and stop");
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;
  if (list_families) {
    print_families(out);
    return 0;
  }

  Result<std::string> path = resolve_model_path(m);
  if (!path.ok()) return fail(err, "info", path.error().message);
  Result<ModelFileInfo> info = inspect_model_file(path.value());
  if (!info.ok()) return fail(err, "info", info.error().message);
  const ModelFileInfo& i = info.value();
  // generate's verdict, without reading a weight; the tokenizer comes with it.
  TokenizerData td;
  Status verdict = verify_model_file(path.value(), m.tokenizer, td, !quick);
  const bool verified = verdict.ok();
  std::optional<Tokenizer> tok;
  if (verdict.ok()) {
    Result<Tokenizer> t = check_model_runnable(i.config, td, i.path);
    if (t.ok()) {
      tok = std::move(t).value();
    } else {
      verdict = t.error();
    }
  }
  if (json) return print_json(i, verdict, out, err);
  const ModelConfig& c = i.config;
  out << "file:          " << i.path << " (" << i.format << ", " << mib(i.file_bytes) << ")\n";
  out << "architecture:  " << gguf_printable(c.architecture) << " (" << block_summary(c) << ")\n";
  // Text from the file is escaped: control characters never reach the terminal raw.
  if (!c.name.empty()) out << "name:          " << gguf_printable(c.name) << "\n";
  if (i.has_weights)
    print_sizes(i, out);
  else
    out << "weights:       none (a vocabulary-only file)\n";
  print_tokenizer(i, tok, td, verified, out);
  for (const auto& [k, v] : i.metadata) {
    if (k.rfind("general.", 0) == 0 && k != "general.architecture" && k != "general.name") {
      out << k << ": " << v << "\n";
    }
  }
  if (!verdict.ok()) {
    out << "verdict:       generate would refuse this file\n";
    return fail(err, "info", verdict.error().message);
  }
  out << "verdict:       generate can run it\n";
  return 0;
}

}  // namespace ts::cli
