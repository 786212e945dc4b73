// Finding the shipped default model (models/tales-4m.gguf) without the user naming it: looked
// up under $TOKENSCOPE_MODELS, the current directory, the executable's directory and its parent,
// and the source directory the caller passes in. Only paths are computed here; nothing is loaded.
#pragma once
#include <string>
#include <vector>

#include "base/error.h"

namespace ts {

inline constexpr const char* kDefaultModelName = "tales-4m.gguf";

// The places searched, in order (duplicates removed). exe_path is argv[0] or /proc/self/exe
// ("" = use /proc/self/exe); source_dir may be "".
std::vector<std::string> default_model_candidates(const std::string& source_dir = "",
                                                  const std::string& exe_path = "");
// The first candidate that exists, or an error listing every place that was searched.
Result<std::string> find_default_model(const std::string& source_dir = "",
                                       const std::string& exe_path = "");

}  // namespace ts
