// Finding special tokens (control and user-defined pieces such as "<|endoftext|>") inside text,
// so that encode() can emit them as single ids and run the ordinary algorithm on the text
// between them. Matching is exact and byte-wise; the longest special wins at a position.
// Built once from all pieces (one sort, O(n log n)); a vocabulary with 150k added tokens costs
// a few binary searches per byte of text, not a scan over the candidates.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ts {

class SpecialMatcher {
 public:
  using Entry = std::pair<std::string, int>;  // piece text, id
  SpecialMatcher() = default;
  // Empty texts are ignored; of two equal texts the earlier entry's id wins.
  explicit SpecialMatcher(std::vector<Entry> entries);
  bool empty() const { return sorted_.empty(); }

  struct Match {
    size_t pos = std::string_view::npos;  // npos: no special token at or after `from`
    size_t len = 0;
    int id = -1;
  };
  // The first special token that starts at or after byte `from`.
  Match next(std::string_view text, size_t from) const;

 private:
  // The longest piece that starts at text[i], or {npos, 0, -1}.
  Match longest_at(std::string_view text, size_t i) const;

  std::vector<Entry> sorted_;                  // byte-wise sorted, unique texts
  std::array<uint32_t, 257> first_{};          // sorted_[first_[b], first_[b+1]) start with byte b
};

}  // namespace ts
