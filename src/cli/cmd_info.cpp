// `tokenscope info`: what a model file holds (architecture, sizes, parameter count, tokenizer)
// and what running it costs in memory, read from the header only (no weights are loaded): the
// tensor count per stored type and the fp32 size the weights take once dequantized at load.
#include <cstdio>
#include <optional>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "formats/memory_budget.h"
#include "formats/model_file.h"
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

}  // namespace

int cmd_info(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Describe a model file without loading its weights.", "tokenscope info"};
  ModelOptions m;
  add_model_options(app, m);
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;

  Result<std::string> path = resolve_model_path(m);
  if (!path.ok()) return fail(err, "info", path.error().message);
  Result<ModelFileInfo> info = inspect_model_file(path.value());
  if (!info.ok()) return fail(err, "info", info.error().message);
  const ModelFileInfo& i = info.value();
  const ModelConfig& c = i.config;
  out << "file:          " << i.path << " (" << i.format << ", " << mib(i.file_bytes) << ")\n";
  out << "architecture:  " << c.architecture
      << (c.block == BlockType::Gpt2 ? " (GPT-2 block: LayerNorm, learned positions, GELU)"
                                     : " (Llama block: RMSNorm, RoPE, SwiGLU)")
      << "\n";
  if (!c.name.empty()) out << "name:          " << c.name << "\n";
  if (i.has_weights) {
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
    // Every weight is dequantized to fp32 at load, whatever the file stores.
    out << "memory:        weights " << mib(static_cast<double>(i.memory_bytes))
        << " (fp32 after dequantization) + KV cache " << mib(kv) << " per lane at full context ("
        << mib(kv / std::max(1, c.n_ctx)) << " per position)\n";
    const std::optional<uint64_t> avail = available_memory_bytes();
    if (avail && i.memory_bytes > *avail) {
      out << "warning:       this machine has only " << mib(static_cast<double>(*avail))
          << " available (MemAvailable minus a margin): loading will be refused\n";
    }
  } else {
    out << "weights:       none (a vocabulary-only file)\n";
  }
  // The tokenizer, when the file (or --tokenizer) has one.
  const std::string tok_path = m.tokenizer.empty() ? i.path : m.tokenizer;
  Result<TokenizerData> td = load_tokenizer_file(tok_path);
  if (td.ok()) {
    Result<Tokenizer> t = Tokenizer::create(std::move(td).value());
    if (t.ok()) {
      out << "tokenizer:     "
          << (t->data().kind == TokenizerKind::Spm ? "SentencePiece (scores, byte fallback)"
                                                    : "byte-level BPE (merges)")
          << ", vocab " << t->vocab_size() << ", BOS " << t->bos_id() << ", EOS "
          << t->eos_id() << (t->data().add_bos ? ", adds BOS" : "") << "\n";
    } else {
      out << "tokenizer:     invalid (" << t.error().message << ")\n";
    }
  } else {
    out << "tokenizer:     none in this file"
        << (i.format == "llama2c" ? " (give --tokenizer tokenizer.bin)" : "") << "\n";
  }
  for (const auto& [k, v] : i.metadata) {
    if (k.rfind("general.", 0) == 0 && k != "general.architecture" && k != "general.name") {
      out << k << ": " << v << "\n";
    }
  }
  return 0;
}

}  // namespace ts::cli
