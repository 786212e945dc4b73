// A small sampler over the trainer's own forward pass, for the samples printed while training
// (the engine's instrumented Forward, with its KV cache, is what the app and `generate` use).
// Recomputes the whole window for every new token: simple and plenty fast for 60 tokens.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"
#include "train/params.h"

namespace ts {

// Continues `prompt` (BOS prepended) by up to n_tokens, stopping at EOS. temperature 0 = greedy;
// otherwise sampling with the counter-based RNG of `seed`. Returns the continuation text only.
std::string sample_text(const ParamLayout& layout, const std::vector<float>& params,
                        const Tokenizer& tok, const std::string& prompt, int n_tokens,
                        double temperature, uint64_t seed);

}  // namespace ts
