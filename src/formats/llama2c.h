// Import of llama2.c "version 0" checkpoints (7 int32 header, then fp32 arrays) and of its
// tokenizer.bin (max length, then score/length/bytes per token). Import only: tokenscope saves
// GGUF. The layout is described in shared/golden/llama2c/README.md.
#pragma once
#include <string>

#include "base/error.h"
#include "engine/model.h"
#include "formats/byte_source.h"
#include "tokenizer/tokenizer.h"

namespace ts {

// A llama2.c checkpoint has no magic: true when the first 28 bytes read as its header (seven
// positive sizes of a plausible magnitude; a negative vocab_size marks an unshared classifier)
// or as the "ak42" magic of
// its later export versions. Used to name the format before blaming one.
bool looks_like_llama2c_checkpoint(const ByteSource& src);
// tokenizer.bin: at most this many bytes and tokens are read.
constexpr uint64_t kMaxLlama2cTokenizerBytes = uint64_t{256} << 20;
constexpr size_t kMaxLlama2cTokens = size_t{1} << 22;
// The header only, checked (positive sizes, divisibility, file size matches exactly).
Result<ModelConfig> read_llama2c_config(const ByteSource& src);
// Header and every weight; the two legacy RoPE tables are skipped. Weights must be finite.
Result<Model> read_llama2c_model(const ByteSource& src);
// read_llama2c_model's verdict without loading: header, then every weight checked for NaN/Inf
// in order, a chunk at a time (bounded memory); the same message.
Status check_llama2c_weights(const ByteSource& src);
// Tokenizer: kind Spm, space " ", ids 0/1/2 = <unk>/BOS/EOS, "<0xNN>" at id byte+3 typed Byte.
// The vocabulary size is the number of entries the file holds.
Result<TokenizerData> read_llama2c_tokenizer(const ByteSource& src);

}  // namespace ts
