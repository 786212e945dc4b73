// Finding special tokens (control and user-defined pieces such as "<|endoftext|>") inside text,
// so that encode() can emit them as single ids and run the ordinary algorithm on the text
// between them. Matching is exact and byte-wise; the longest special wins at a position.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ts {

class SpecialMatcher {
 public:
  void add(std::string text, int id);  // empty texts are ignored
  bool empty() const { return n_ == 0; }

  struct Match {
    size_t pos = std::string_view::npos;  // npos: no special token at or after `from`
    size_t len = 0;
    int id = -1;
  };
  // The first special token that starts at or after byte `from`.
  Match next(std::string_view text, size_t from) const;

 private:
  std::array<std::vector<std::pair<std::string, int>>, 256> by_first_;  // longest first
  size_t n_ = 0;
};

}  // namespace ts
