// Piece text -> id lookup shared by the tokenizer's algorithms: an unordered_map keyed by the
// stored piece, searchable with a string_view (no temporary strings in the merge loops).
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ts {

struct PieceHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using PieceMap = std::unordered_map<std::string, int, PieceHash, std::equal_to<>>;

inline int piece_id(const PieceMap& m, std::string_view piece) {
  const auto it = m.find(piece);
  return it == m.end() ? -1 : it->second;
}

}  // namespace ts
