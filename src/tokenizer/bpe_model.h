// Byte-level BPE merging inside one pre-token: start from one token per byte, then repeatedly
// apply the merge with the lowest rank (leftmost first among equal ranks) until none applies.
// Works on token ids only; turning stored piece text into ids is Tokenizer::create's job.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ts {

class BpeModel {
 public:
  // byte_ids[b]: the token of the single byte b (every byte must have one).
  explicit BpeModel(const std::array<int, 256>& byte_ids = {}) : byte_ids_(byte_ids) {}
  // Adds the next merge (its rank is the number of merges added before it). A pair that is
  // already known keeps its first (better) rank; returns false in that case.
  bool add_merge(int left, int right, int result);
  int n_merges() const { return n_merges_; }

  // Appends the ids of one pre-token's bytes after merging. Short words use the scan, long
  // ones the heap; both are public so tests can check that they agree.
  void encode_word(std::string_view bytes, std::vector<int>& out) const;
  void encode_word_scan(std::string_view bytes, std::vector<int>& out) const;  // O(n^2), no alloc
  void encode_word_heap(std::string_view bytes, std::vector<int>& out) const;  // O(n log n)
  static constexpr size_t kScanMax = 48;  // longest word encode_word_scan accepts

 private:
  struct Merge {
    int rank;
    int result;
  };
  static uint64_t key(int l, int r) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(l)) << 32) | static_cast<uint32_t>(r);
  }
  const Merge* find(int l, int r) const;

  std::array<int, 256> byte_ids_;
  std::unordered_map<uint64_t, Merge> merges_;
  int n_merges_ = 0;
};

}  // namespace ts
