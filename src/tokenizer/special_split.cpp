// SpecialMatcher: the pieces sorted byte-wise, so the pieces that share a prefix with the text
// form one range. At a position the range of the first byte comes from a table; each further
// byte narrows it with two binary searches, and a piece exactly as long as the prefix is the
// range's first entry. One table look-up per byte when no piece starts with that byte.
#include "tokenizer/special_split.h"

#include <algorithm>

namespace ts {
namespace {

uint8_t byte_at(std::string_view s, size_t i) { return static_cast<uint8_t>(s[i]); }

}  // namespace

SpecialMatcher::SpecialMatcher(std::vector<Entry> entries) {
  std::erase_if(entries, [](const Entry& e) { return e.first.empty(); });
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::string_view(a.first) < std::string_view(b.first);  // byte-wise (char_traits)
  });
  // Equal texts are adjacent, the earliest added first: keep it.
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const Entry& a, const Entry& b) { return a.first == b.first; }),
                entries.end());
  sorted_ = std::move(entries);
  size_t k = 0;
  for (int b = 0; b < 256; ++b) {
    first_[b] = static_cast<uint32_t>(k);
    while (k < sorted_.size() && byte_at(sorted_[k].first, 0) == b) ++k;
  }
  first_[256] = static_cast<uint32_t>(sorted_.size());
}

SpecialMatcher::Match SpecialMatcher::longest_at(std::string_view text, size_t i) const {
  const uint8_t b0 = byte_at(text, i);
  auto lo = sorted_.begin() + first_[b0], hi = sorted_.begin() + first_[b0 + 1];
  Match best;
  // Invariant: every entry in [lo, hi) starts with text[i, i + d).
  for (size_t d = 1; lo != hi; ++d) {
    if (lo->first.size() == d) best = {i, d, lo->second};  // the shortest sorts first
    if (i + d >= text.size()) break;
    const int c = byte_at(text, i + d);
    // Entries sort by their byte at d, a piece that ends before d counting as -1.
    const auto key = [d](const Entry& e) {
      return e.first.size() > d ? int(byte_at(e.first, d)) : -1;
    };
    lo = std::lower_bound(lo, hi, c, [&](const Entry& e, int v) { return key(e) < v; });
    hi = std::upper_bound(lo, hi, c, [&](int v, const Entry& e) { return v < key(e); });
  }
  return best;
}

SpecialMatcher::Match SpecialMatcher::next(std::string_view text, size_t from) const {
  if (sorted_.empty()) return {};
  for (size_t i = from; i < text.size(); ++i) {
    const uint8_t b0 = byte_at(text, i);
    if (first_[b0] == first_[b0 + 1]) continue;
    const Match m = longest_at(text, i);
    if (m.id >= 0) return m;
  }
  return {};
}

}  // namespace ts
