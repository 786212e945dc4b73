// The name -> harness table behind harness_table.h.
#include "fuzz/harness_table.h"

#include "fuzz/harness_chat.h"
#include "fuzz/harness_formats.h"
#include "fuzz/harness_text.h"
#include "fuzz/harness_tokenizer.h"

namespace ts::fuzz {

Harness find_harness(std::string_view name) {
  if (name == "gguf") return run_gguf;
  if (name == "llama2c") return run_llama2c;
  if (name == "bpe") return run_bpe;
  if (name == "spm") return run_spm;
  if (name == "lesson") return run_lesson;
  if (name == "trace") return run_trace;
  if (name == "chat") return run_chat;
  return nullptr;
}

}  // namespace ts::fuzz
