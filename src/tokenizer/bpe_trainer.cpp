// Byte-level BPE training: count pre-token words once (a frequency map), then merge the most
// frequent adjacent pair repeatedly, updating pair counts incrementally from only the words that
// contain the merged pair (an index pair -> words, a lazy max-heap of counts).
#include "tokenizer/bpe_trainer.h"

#include <queue>
#include <unordered_map>
#include <vector>

#include "tokenizer/byte_unicode.h"
#include "tokenizer/pretokenize.h"

namespace ts {
namespace {

using PairKey = uint64_t;
PairKey pair_key(int l, int r) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(l)) << 32) | static_cast<uint32_t>(r);
}
int left_of(PairKey k) { return static_cast<int>(k >> 32); }
int right_of(PairKey k) { return static_cast<int>(k & 0xFFFFFFFFu); }

struct Word {
  std::vector<int> sym;
  int64_t count;
};

struct HeapEntry {
  int64_t count;
  PairKey pair;
};
// Top: highest count, then smallest (left, right).
struct Lower {
  bool operator()(const HeapEntry& a, const HeapEntry& b) const {
    return a.count != b.count ? a.count < b.count : a.pair > b.pair;
  }
};

std::vector<Word> count_words(std::string_view corpus, std::string_view special) {
  std::unordered_map<std::string_view, int64_t> freq;
  const auto add_text = [&](std::string_view t) {
    for (size_t pos = 0; pos < t.size();) {
      const size_t end = gpt2_pretoken_end(t, pos);
      ++freq[t.substr(pos, end - pos)];
      pos = end;
    }
  };
  size_t pos = 0;
  while (pos < corpus.size()) {
    const size_t hit = special.empty() ? std::string_view::npos : corpus.find(special, pos);
    const size_t end = hit == std::string_view::npos ? corpus.size() : hit;
    add_text(corpus.substr(pos, end - pos));
    if (hit == std::string_view::npos) break;
    pos = hit + special.size();
  }
  std::vector<Word> words;
  words.reserve(freq.size());
  for (const auto& [w, c] : freq) {
    if (w.size() < 2) continue;  // a single byte has no pair to merge
    Word word{{}, c};
    word.sym.reserve(w.size());
    for (char ch : w) word.sym.push_back(static_cast<uint8_t>(ch));
    words.push_back(std::move(word));
  }
  return words;
}

}  // namespace

Result<TokenizerData> train_bpe(std::string_view corpus, int vocab_size,
                                const BpeTrainOptions& options) {
  if (vocab_size < 258) {
    return make_error("train_bpe: vocab_size " + std::to_string(vocab_size) +
                      " is too small (256 bytes + at least one merge + the special token)");
  }
  if (corpus.empty()) return make_error("train_bpe: the corpus is empty");
  if (options.special_token.empty()) return make_error("train_bpe: the special token is empty");

  std::vector<Word> words = count_words(corpus, options.special_token);

  std::vector<std::string> tok_bytes(256);  // raw bytes of each token id
  for (int b = 0; b < 256; ++b) tok_bytes[b] = std::string(1, static_cast<char>(b));
  std::unordered_map<std::string, int> id_of_bytes;
  for (int b = 0; b < 256; ++b) id_of_bytes.emplace(tok_bytes[b], b);
  std::vector<PairKey> merges;

  std::unordered_map<PairKey, int64_t> pair_count;
  std::unordered_map<PairKey, std::vector<int32_t>> where;  // words that may hold the pair
  for (size_t w = 0; w < words.size(); ++w) {
    const auto& s = words[w].sym;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
      const PairKey k = pair_key(s[i], s[i + 1]);
      pair_count[k] += words[w].count;
      auto& list = where[k];
      if (list.empty() || list.back() != static_cast<int32_t>(w)) list.push_back(static_cast<int32_t>(w));
    }
  }
  std::priority_queue<HeapEntry, std::vector<HeapEntry>, Lower> heap;
  for (const auto& [k, c] : pair_count) heap.push({c, k});

  const int target = vocab_size - 1;  // tokens before the special one
  std::vector<int> visited(words.size(), -1);
  std::unordered_map<PairKey, int64_t> delta;
  std::vector<int> fresh;
  while (static_cast<int>(tok_bytes.size()) < target && !heap.empty()) {
    const HeapEntry top = heap.top();
    heap.pop();
    const auto it = pair_count.find(top.pair);
    const int64_t current = it == pair_count.end() ? 0 : it->second;
    if (current != top.count) {  // stale: counts only grow through a push, so re-queue drops
      if (current > 0) heap.push({current, top.pair});
      continue;
    }
    if (current < options.min_pair_count) break;

    const int a = left_of(top.pair), b = right_of(top.pair);
    std::string joined = tok_bytes[a] + tok_bytes[b];
    int c;
    if (const auto found = id_of_bytes.find(joined); found != id_of_bytes.end()) {
      c = found->second;
    } else {
      c = static_cast<int>(tok_bytes.size());
      id_of_bytes.emplace(joined, c);
      tok_bytes.push_back(std::move(joined));
    }
    merges.push_back(top.pair);
    const int merge_no = static_cast<int>(merges.size());

    // Rewrite every word holding (a, b); collect the net change of each pair's count.
    delta.clear();
    std::vector<int32_t> holders = std::move(where[top.pair]);
    where.erase(top.pair);
    for (int32_t w : holders) {
      if (visited[w] == merge_no) continue;
      visited[w] = merge_no;
      Word& word = words[w];
      auto& s = word.sym;
      bool has = false;
      for (size_t i = 0; i + 1 < s.size() && !has; ++i) has = s[i] == a && s[i + 1] == b;
      if (!has) continue;
      for (size_t i = 0; i + 1 < s.size(); ++i) delta[pair_key(s[i], s[i + 1])] -= word.count;
      fresh.clear();
      for (size_t i = 0; i < s.size(); ++i) {
        if (i + 1 < s.size() && s[i] == a && s[i + 1] == b) {
          fresh.push_back(c);
          ++i;
        } else {
          fresh.push_back(s[i]);
        }
      }
      s.assign(fresh.begin(), fresh.end());
      for (size_t i = 0; i + 1 < s.size(); ++i) {
        const PairKey k = pair_key(s[i], s[i + 1]);
        delta[k] += word.count;
        if (s[i] == c || s[i + 1] == c) {
          auto& list = where[k];
          if (list.empty() || list.back() != w) list.push_back(w);
        }
      }
    }
    for (const auto& [k, d] : delta) {
      if (d == 0) continue;
      int64_t& cnt = pair_count[k];
      cnt += d;
      if (d > 0) heap.push({cnt, k});
      if (cnt <= 0) pair_count.erase(k);
    }
    pair_count.erase(top.pair);
    if (options.progress && !options.progress(static_cast<int>(tok_bytes.size()), vocab_size)) {
      return make_error("train_bpe: cancelled");
    }
  }

  TokenizerData d;
  d.kind = TokenizerKind::Bpe;
  d.pre = "gpt2";
  d.tokens.reserve(tok_bytes.size() + 1);
  for (const auto& t : tok_bytes) d.tokens.push_back(gpt2_bytes_to_piece(t));
  d.merges.reserve(merges.size());
  for (PairKey k : merges) {
    d.merges.push_back(d.tokens[left_of(k)] + " " + d.tokens[right_of(k)]);
  }
  d.tokens.push_back(options.special_token);
  d.token_types.assign(d.tokens.size(), static_cast<int32_t>(TokenType::Normal));
  d.token_types.back() = static_cast<int32_t>(TokenType::Control);
  d.bos_id = d.eos_id = static_cast<int>(d.tokens.size()) - 1;
  d.add_bos = true;
  d.add_space_prefix = false;
  return d;
}

}  // namespace ts
