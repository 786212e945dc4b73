// BPE merge loops. Short words: scan all adjacent pairs for the lowest rank, merge, repeat (in a
// fixed array). Long words: a doubly linked list of symbols with a min-heap of candidate pairs
// (rank, then position); stale heap entries are detected by re-checking that both symbols are
// alive, still adjacent and still the same ids.
#include "tokenizer/bpe_model.h"

#include <algorithm>
#include <queue>

namespace ts {

bool BpeModel::add_merge(int left, int right, int result) {
  const bool inserted = merges_.emplace(key(left, right), Merge{n_merges_, result}).second;
  ++n_merges_;
  return inserted;
}

const BpeModel::Merge* BpeModel::find(int l, int r) const {
  const auto it = merges_.find(key(l, r));
  return it == merges_.end() ? nullptr : &it->second;
}

void BpeModel::encode_word(std::string_view bytes, std::vector<int>& out) const {
  if (bytes.size() == 1) {
    out.push_back(byte_ids_[static_cast<uint8_t>(bytes[0])]);
  } else if (bytes.size() <= kScanMax) {
    encode_word_scan(bytes, out);
  } else {
    encode_word_heap(bytes, out);
  }
}

void BpeModel::encode_word_scan(std::string_view bytes, std::vector<int>& out) const {
  if (bytes.size() > kScanMax) {
    encode_word_heap(bytes, out);
    return;
  }
  const size_t n0 = bytes.size();
  std::array<int, kScanMax> id{};
  std::array<const Merge*, kScanMax> m{};  // m[i]: merge of (id[i], id[i+1]) or null
  for (size_t i = 0; i < n0; ++i) id[i] = byte_ids_[static_cast<uint8_t>(bytes[i])];
  size_t n = n0;
  for (size_t i = 0; i + 1 < n; ++i) m[i] = find(id[i], id[i + 1]);
  while (n > 1) {
    size_t best = n;
    for (size_t i = 0; i + 1 < n; ++i) {
      if (m[i] && (best == n || m[i]->rank < m[best]->rank)) best = i;
    }
    if (best == n) break;
    id[best] = m[best]->result;
    for (size_t i = best + 1; i + 1 < n; ++i) {
      id[i] = id[i + 1];
      m[i] = m[i + 1];
    }
    --n;
    if (best > 0) m[best - 1] = find(id[best - 1], id[best]);
    if (best + 1 < n) m[best] = find(id[best], id[best + 1]);
  }
  out.insert(out.end(), id.begin(), id.begin() + static_cast<std::ptrdiff_t>(n));
}

void BpeModel::encode_word_heap(std::string_view bytes, std::vector<int>& out) const {
  const int n = static_cast<int>(bytes.size());
  if (n == 0) return;
  struct Sym {
    int id, prev, next;
  };
  std::vector<Sym> sym(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) sym[i] = {byte_ids_[static_cast<uint8_t>(bytes[i])], i - 1, i + 1};
  sym[n - 1].next = -1;

  struct Cand {
    int rank, left, left_id, right_id;
  };
  // Top of the heap: lowest rank, then leftmost position.
  const auto worse = [](const Cand& a, const Cand& b) {
    return a.rank != b.rank ? a.rank > b.rank : a.left > b.left;
  };
  std::priority_queue<Cand, std::vector<Cand>, decltype(worse)> heap(worse);
  const auto consider = [&](int l) {
    if (l < 0) return;
    const int r = sym[l].next;
    if (r < 0) return;
    if (const Merge* m = find(sym[l].id, sym[r].id)) heap.push({m->rank, l, sym[l].id, sym[r].id});
  };
  for (int i = 0; i + 1 < n; ++i) consider(i);

  while (!heap.empty()) {
    const Cand c = heap.top();
    heap.pop();
    Sym& left = sym[c.left];
    if (left.id != c.left_id || left.next < 0) continue;  // merged away or changed
    Sym& right = sym[left.next];
    if (right.id != c.right_id) continue;
    left.id = find(c.left_id, c.right_id)->result;
    right.id = -1;  // dead
    left.next = right.next;
    if (right.next >= 0) sym[right.next].prev = c.left;
    consider(left.prev);
    consider(c.left);
  }
  for (int i = 0; i >= 0; i = sym[i].next) out.push_back(sym[i].id);
}

}  // namespace ts
