// The fuzz harnesses by name ("gguf", "llama2c", "bpe", "spm", "lesson", "trace", "chat"), compiled once
// (harness_table.cpp) so each libFuzzer target is a tiny file that links them; see harness_*.h
// for what each checks. A harness returns "" or the first property an input violated.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ts::fuzz {

using Harness = std::string (*)(std::span<const uint8_t>);
Harness find_harness(std::string_view name);  // nullptr for an unknown name

}  // namespace ts::fuzz
