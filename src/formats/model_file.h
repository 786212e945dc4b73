// Opening and saving model files: GGUF (native; llama / gpt2 / qwen2 architectures, tokenizer in
// the metadata) and llama2.c checkpoints (+ tokenizer.bin). The one entry point the session, the
// CLI and the trainer use; the GGUF container itself is in gguf.h.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "engine/model.h"
#include "formats/load_progress.h"
#include "tokenizer/tokenizer.h"

namespace ts {

struct ModelFileInfo {
  std::string path;
  std::string format;  // "gguf" or "llama2c"
  ModelConfig config;  // filled from the metadata / header
  bool has_weights = true;      // false for a vocabulary-only GGUF
  size_t n_params = 0;
  size_t file_bytes = 0;
  size_t memory_bytes = 0;       // bytes the loaded weights will take (Q8_0/Q4_0/Q4_K/Q5_K/Q6_K
                                 // matrices as stored, everything else as fp32)
  uint64_t peak_bytes = 0;       // the most memory loading takes (weights, one tensor's raw
                                 // bytes and fp32 copies, one lane's KV cache): the budget check
  std::string tensor_types;      // e.g. "57 Q4_K, 12 F32" (most frequent first)
  std::vector<std::pair<std::string, std::string>> metadata;  // printable key -> value (short)
};

struct LoadedModel {
  Model model;
  TokenizerData tokenizer;  // tokens empty when the file carries none (llama2.c without .bin)
  ModelFileInfo info;
};

// Reads the header and metadata only: cheap, for the model picker and `tokenscope info`.
Result<ModelFileInfo> inspect_model_file(const std::string& path);
// Every check load_model_file makes, without reading a weight (memory and time bounded by the
// metadata caps): the format, the config, each tensor's shape and type, missing and unused
// tensors, the memory budget, and the tokenizer (from `tokenizer_path` when given, else the
// GGUF's own; a llama2.c checkpoint has none). `tok` receives the tokenizer when there is one.
// scan_weights: every weight is also checked for NaN/Inf, a chunk at a time (memory bounded,
// time ~ the file size), so the verdict is exactly the load's; without it, NaN/Inf inside the
// weights is left to the load.
Status verify_model_file(const std::string& path, const std::string& tokenizer_path,
                         TokenizerData& tok, bool scan_weights = true);
// GGUF, or a llama2.c checkpoint (then tokenizer_path names its tokenizer.bin; may be empty).
// Q8_0, Q4_0, Q4_K, Q5_K and Q6_K matrices keep their blocks (engine/quant/qmat.h); the rest is
// decoded to fp32. Refused before any weight is read when the weights exceed
// available_memory_bytes() (memory_budget.h). `progress` (may be empty) follows the GGUF weights
// tensor by tensor and can cancel the load (a llama2.c checkpoint is read in one piece: reported
// once, at the end).
Result<LoadedModel> load_model_file(const std::string& path, const std::string& tokenizer_path = "",
                                    const LoadProgressFn& progress = {});
// A vocabulary-only (or full) GGUF, or a llama2.c tokenizer.bin.
Result<TokenizerData> load_tokenizer_file(const std::string& path);
// Writes GGUF v3 (F32 tensors; general.architecture from model.config), tokenizer.ggml.* from
// `tok`, and extra string metadata (e.g. general.description, tokenscope.train.command).
Status save_gguf_model(const std::string& path, const Model& model, const TokenizerData& tok,
                       const std::map<std::string, std::string>& extra = {});

}  // namespace ts
