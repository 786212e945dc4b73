// The family table. Each row follows llama.cpp's graph and tensor names for that architecture;
// scripts/interop.sh runs a random file of every row in llama.cpp and compares log-probabilities.
#include "engine/family.h"

#include <array>

namespace ts {

namespace {

constexpr std::array kFamilies{
    Family{"llama", "Llama", NormKind::Rms, PositionKind::Rope, RopeStyle::Adjacent, 1.0f, false,
           BiasRule::IfPresent, false, MlpKind::SwiGlu, false},
    Family{"qwen2", "Qwen2", NormKind::Rms, PositionKind::Rope, RopeStyle::NeoX, 1.0f, false,
           BiasRule::Always, false, MlpKind::SwiGlu, false},
    Family{"gpt2", "GPT-2", NormKind::Layer, PositionKind::Learned, RopeStyle::Adjacent, 0.0f,
           false, BiasRule::Always, true, MlpKind::Gelu, true},
    Family{"stablelm", "StableLM", NormKind::Layer, PositionKind::Rope, RopeStyle::NeoX, 0.25f,
           true, BiasRule::IfPresent, false, MlpKind::SwiGlu, false},
};

}  // namespace

std::span<const Family> families() { return kFamilies; }

const Family* find_family(const std::string& arch) {
  for (const Family& f : kFamilies) {
    if (arch == f.arch) return &f;
  }
  return nullptr;
}

std::string family_names() {
  std::string out;
  for (size_t i = 0; i < kFamilies.size(); ++i) {
    if (i) out += i + 1 == kFamilies.size() ? " and " : ", ";
    out += kFamilies[i].arch;
  }
  return out;
}

}  // namespace ts
