// Random-weight models built in memory for `tokenscope bench` (no files needed): a GPT-2-124M-
// shaped model, or any ModelConfig, with a synthetic SentencePiece-style vocabulary of the right
// size (specials, 256 byte pieces, the space, filler pieces). Not for generation quality: the
// weights are noise.
#pragma once
#include <cstdint>
#include <string>

#include "base/error.h"
#include "formats/gguf_model.h"
#include "formats/model_file.h"

namespace ts::bench {

ModelConfig gpt2_124m_config();  // 12 layers x 12 heads, d 768, ff 3072, vocab 50257, ctx 1024
// Weights ~ uniform with standard deviation `std`, norms at 1, biases 0; fixed by seed.
LoadedModel random_model(const ModelConfig& c, uint64_t seed, float std = 0.02f);
// random_model(c, seed, std) written to `path` as GGUF with the matrices in `type` by our writer
// (the model in memory freed before it returns). Returns the parameter count.
Result<size_t> write_random_gguf(const ModelConfig& c, uint64_t seed, float std, GgmlType type,
                                 const std::string& path);
// The same file read back like any model (then removed): how a real-size model is measured.
Result<LoadedModel> random_model_as(const ModelConfig& c, uint64_t seed, GgmlType type);

}  // namespace ts::bench
