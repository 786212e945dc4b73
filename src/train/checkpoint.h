// The trainer's own checkpoint file: training config, tokenizer, parameters, AdamW moments and
// progress, so `--resume` continues exactly (same batches, same schedule). Little-endian binary,
// written to a temporary file and renamed, so a crash never leaves a half-written checkpoint.
// The shipped model is GGUF (formats/model_file.h); this format is internal to training.
#pragma once
#include <map>
#include <string>

#include "base/error.h"
#include "tokenizer/tokenizer.h"
#include "train/train_loop.h"

namespace ts {

struct Checkpoint {
  TrainConfig config;
  TokenizerData tokenizer;
  TrainState state;
  std::map<std::string, std::string> info;  // free text: corpus description, command line ...
};

Status save_checkpoint(const std::string& path, const Checkpoint& ckpt);
Result<Checkpoint> load_checkpoint(const std::string& path);

}  // namespace ts
