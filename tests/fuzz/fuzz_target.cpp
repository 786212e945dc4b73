// One libFuzzer target: the harness named by TS_FUZZ_NAME ("gguf", "llama2c", "bpe", "spm",
// "lesson", "trace"; see harness_table.h), compiled once per target by CMakeLists.txt.
// A violated property prints its description and aborts, so libFuzzer saves the input.
#include <cstdio>
#include <cstdlib>

#include "fuzz/harness_table.h"

// libFuzzer's entry point (it calls this; nothing here does).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ts::fuzz::Harness harness = ts::fuzz::find_harness(TS_FUZZ_NAME);
  if (!harness) {
    std::fprintf(stderr, "tokenscope fuzz: no harness named %s\n", TS_FUZZ_NAME);
    std::abort();
  }
  const std::string bad = harness({data, size});
  if (!bad.empty()) {
    std::fprintf(stderr, "tokenscope fuzz: property violated: %s\n", bad.c_str());
    std::abort();
  }
  return 0;
}
