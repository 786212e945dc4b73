// Model <-> GGUF, with llama.cpp's key and tensor names, for the architectures tokenscope runs:
// `llama` (RMSNorm, adjacent-pair RoPE, SwiGLU, GQA, optional Q/K/V biases), `qwen2` (the same
// block with Q/K/V biases and NeoX RoPE) and `gpt2` (LayerNorm, learned positions, GELU, biases,
// fused attn_qkv). GGUF lists dimensions fastest first, so a row-major (out, in) matrix has
// ne = {in, out}. The container itself is gguf.h; this file only maps names and shapes.
#pragma once
#include "formats/load_progress.h"
#include <map>
#include <string>

#include "base/error.h"
#include "engine/model.h"
#include "formats/gguf.h"
#include "tokenizer/tokenizer.h"

namespace ts {

// The hyper-parameters the metadata describes. Vocabulary size: token_embd's rows when the file
// has weights, else the token list, else <arch>.vocab_size. Unknown architecture, a missing or
// non-positive size, or partial RoPE give an error naming the key.
Result<ModelConfig> config_from_gguf(const GgufFile& f);
// Config plus every weight, decoded to fp32 and checked: shapes (the message names the GGUF
// tensor), finiteness, no missing and no unused tensors, then validate_model. `progress` (may be
// empty) is called after each tensor; returning false stops with "<file>: loading cancelled".
Result<Model> model_from_gguf(const GgufFile& f, const LoadProgressFn& progress = {});
// Every check model_from_gguf makes (config, each tensor's shape and type, missing and unused
// tensors) without loading the weights: the same verdict and message. scan_weights: the values
// are also checked for NaN/Inf, a few blocks at a time (bounded memory, time ~ the file size);
// without it, no tensor data is read and NaN/Inf in the weights is left to the load.
Status check_gguf_model(const GgufFile& f, bool scan_weights = false);

// Matrices (embeddings, projections) are written as `matrix_type` (F32, F16, Q8_0, Q4_0, Q4_1,
// Q5_0, Q5_1, Q4_K, Q5_K or Q6_K; a matrix whose rows do not fill whole blocks of that type falls back to Q8_0
// when they fill blocks of 32, else to F16); norms and biases stay F32.
// `tok` is written when it has tokens; `extra` becomes string metadata.
Status model_to_gguf(const Model& m, const TokenizerData& tok,
                     const std::map<std::string, std::string>& extra, GgmlType matrix_type,
                     GgufWriter& w);
// save_gguf_model (model_file.h) with a choice of matrix type.
Status save_gguf_model_as(const std::string& path, const Model& model, const TokenizerData& tok,
                          GgmlType matrix_type,
                          const std::map<std::string, std::string>& extra = {});

}  // namespace ts
