// `tokenscope train ...`: the trainer's command line (corpus, tokenizer training, the training
// loop with progress, checkpoints, --resume, Ctrl-C handling, GGUF output).
#pragma once

namespace ts {

int train_main(int argc, char** argv);  // argv[0] is "train"

}  // namespace ts
