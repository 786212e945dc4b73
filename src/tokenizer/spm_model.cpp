// SPM bigram merging over a linked list of symbols (views into the text) with a max-heap of
// candidate pairs (score, then leftmost). Stale entries are dropped by re-checking adjacency and
// lengths. Invalid UTF-8 bytes are one-byte symbols, so they always reach the byte fallback.
#include "tokenizer/spm_model.h"

#include <queue>

#include "base/utf8.h"

namespace ts {

void spm_encode(std::string_view text, const SpmVocab& v, std::vector<int>& out) {
  struct Sym {
    size_t start, len;
    int prev, next;
  };
  std::vector<Sym> sym;
  for (size_t i = 0; i < text.size();) {
    size_t n = static_cast<size_t>(utf8_seq_len(text, i));
    if (n == 0) n = 1;
    const int idx = static_cast<int>(sym.size());
    sym.push_back({i, n, idx - 1, idx + 1});
    i += n;
  }
  if (sym.empty()) return;
  sym.back().next = -1;

  const auto lookup = [&](size_t start, size_t len) {
    const int id = piece_id(v.pieces, text.substr(start, len));
    return (id >= 0 && v.mergeable[static_cast<size_t>(id)]) ? id : -1;
  };

  struct Cand {
    float score;
    int left, right;
    size_t len;
  };
  // Top of the heap: highest score, then leftmost.
  const auto worse = [](const Cand& a, const Cand& b) {
    return a.score != b.score ? a.score < b.score : a.left > b.left;
  };
  std::priority_queue<Cand, std::vector<Cand>, decltype(worse)> heap(worse);
  const auto consider = [&](int l, int r) {
    if (l < 0 || r < 0) return;
    const size_t len = sym[l].len + sym[r].len;
    const int id = lookup(sym[l].start, len);
    if (id >= 0) heap.push({v.scores[static_cast<size_t>(id)], l, r, len});
  };
  for (int i = 1; i < static_cast<int>(sym.size()); ++i) consider(i - 1, i);

  while (!heap.empty()) {
    const Cand c = heap.top();
    heap.pop();
    Sym& left = sym[c.left];
    Sym& right = sym[c.right];
    if (left.len == 0 || right.len == 0 || left.next != c.right || left.len + right.len != c.len) {
      continue;  // stale
    }
    left.len += right.len;
    right.len = 0;
    left.next = right.next;
    if (right.next >= 0) sym[right.next].prev = c.left;
    consider(left.prev, c.left);
    consider(c.left, left.next);
  }

  for (int i = 0; i >= 0; i = sym[i].next) {
    const int id = lookup(sym[i].start, sym[i].len);
    if (id >= 0) {
      out.push_back(id);
    } else {
      for (size_t k = 0; k < sym[i].len; ++k) {
        out.push_back(v.byte_ids[static_cast<uint8_t>(text[sym[i].start + k])]);
      }
    }
  }
}

}  // namespace ts
