// SpecialMatcher: candidates bucketed by first byte, longest first, so a scan over text costs
// one table look-up per byte when no special token starts there.
#include "tokenizer/special_split.h"

#include <algorithm>

namespace ts {

void SpecialMatcher::add(std::string text, int id) {
  if (text.empty()) return;
  auto& bucket = by_first_[static_cast<uint8_t>(text[0])];
  bucket.emplace_back(std::move(text), id);
  std::stable_sort(bucket.begin(), bucket.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  ++n_;
}

SpecialMatcher::Match SpecialMatcher::next(std::string_view text, size_t from) const {
  if (n_ == 0) return {};
  for (size_t i = from; i < text.size(); ++i) {
    const auto& bucket = by_first_[static_cast<uint8_t>(text[i])];
    for (const auto& [piece, id] : bucket) {
      if (text.substr(i, piece.size()) == piece) return {i, piece.size(), id};
    }
  }
  return {};
}

}  // namespace ts
