// Random-weight models built in memory for `tokenscope bench` (no files needed): a GPT-2-124M-
// shaped model, or any ModelConfig, with a synthetic SentencePiece-style vocabulary of the right
// size (specials, 256 byte pieces, the space, filler pieces). Not for generation quality: the
// weights are noise.
#pragma once
#include <cstdint>

#include "formats/model_file.h"

namespace ts::bench {

ModelConfig gpt2_124m_config();  // 12 layers x 12 heads, d 768, ff 3072, vocab 50257, ctx 1024
// Weights ~ uniform with standard deviation `std`, norms at 1, biases 0; fixed by seed.
LoadedModel random_model(const ModelConfig& c, uint64_t seed, float std = 0.02f);

}  // namespace ts::bench
