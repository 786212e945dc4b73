// Byte-level BPE training: count pre-token words once (a frequency map), then merge the most
// frequent adjacent pair repeatedly, updating pair counts incrementally from only the words that
// contain the merged pair (an index pair -> words, a lazy max-heap of counts).
#include "tokenizer/bpe_trainer.h"

#include <optional>
#include <queue>
#include <string>
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

// Everything the merges change: the words as symbols, the tokens' bytes, the merges so far, and
// each pair's count, the words that may hold it and a max-heap of counts (stale entries are
// dropped when popped).
struct BpeState {
  std::vector<Word> words;
  std::vector<std::string> tok_bytes;  // raw bytes of each token id
  std::unordered_map<std::string, int> id_of_bytes;
  std::vector<PairKey> merges;
  std::unordered_map<PairKey, int64_t> pair_count;
  std::unordered_map<PairKey, std::vector<int32_t>> where;  // words that may hold the pair
  std::priority_queue<HeapEntry, std::vector<HeapEntry>, Lower> heap;
  std::vector<int> visited;  // per word: the merge that last looked at it
  std::unordered_map<PairKey, int64_t> delta;
  std::vector<int> fresh;
};

// The 256 byte tokens, and every adjacent pair of every word counted and indexed.
void start_state(BpeState& st) {
  st.tok_bytes.resize(256);
  for (int b = 0; b < 256; ++b) st.tok_bytes[b] = std::string(1, static_cast<char>(b));
  for (int b = 0; b < 256; ++b) st.id_of_bytes.emplace(st.tok_bytes[b], b);
  for (size_t w = 0; w < st.words.size(); ++w) {
    const auto& s = st.words[w].sym;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
      const PairKey k = pair_key(s[i], s[i + 1]);
      st.pair_count[k] += st.words[w].count;
      auto& list = st.where[k];
      if (list.empty() || list.back() != static_cast<int32_t>(w))
        list.push_back(static_cast<int32_t>(w));
    }
  }
  for (const auto& [k, c] : st.pair_count) st.heap.push({c, k});
  st.visited.assign(st.words.size(), -1);
}

// The most frequent pair with its current count, stale heap entries re-queued or dropped;
// nullopt when the heap is empty.
std::optional<HeapEntry> best_pair(BpeState& st) {
  while (!st.heap.empty()) {
    const HeapEntry top = st.heap.top();
    st.heap.pop();
    const auto it = st.pair_count.find(top.pair);
    const int64_t current = it == st.pair_count.end() ? 0 : it->second;
    if (current == top.count) return top;
    // stale: counts only grow through a push, so re-queue drops
    if (current > 0) st.heap.push({current, top.pair});
  }
  return std::nullopt;
}

// The token for a's bytes then b's: an existing one with those bytes, else a new id.
int token_for(BpeState& st, int a, int b) {
  std::string joined = st.tok_bytes[a] + st.tok_bytes[b];
  if (const auto found = st.id_of_bytes.find(joined); found != st.id_of_bytes.end())
    return found->second;
  const int c = static_cast<int>(st.tok_bytes.size());
  st.id_of_bytes.emplace(joined, c);
  st.tok_bytes.push_back(std::move(joined));
  return c;
}

// Rewrites every word holding (a, b) as c, then applies the net change of each pair's count.
void apply_merge(BpeState& st, PairKey pair, int c) {
  const int a = left_of(pair), b = right_of(pair);
  const int merge_no = static_cast<int>(st.merges.size());
  st.delta.clear();
  std::vector<int32_t> holders = std::move(st.where[pair]);
  st.where.erase(pair);
  for (int32_t w : holders) {
    if (st.visited[w] == merge_no) continue;
    st.visited[w] = merge_no;
    Word& word = st.words[w];
    auto& s = word.sym;
    bool has = false;
    for (size_t i = 0; i + 1 < s.size() && !has; ++i) has = s[i] == a && s[i + 1] == b;
    if (!has) continue;
    for (size_t i = 0; i + 1 < s.size(); ++i) st.delta[pair_key(s[i], s[i + 1])] -= word.count;
    st.fresh.clear();
    for (size_t i = 0; i < s.size(); ++i) {
      if (i + 1 < s.size() && s[i] == a && s[i + 1] == b) {
        st.fresh.push_back(c);
        ++i;
      } else {
        st.fresh.push_back(s[i]);
      }
    }
    s.assign(st.fresh.begin(), st.fresh.end());
    for (size_t i = 0; i + 1 < s.size(); ++i) {
      const PairKey k = pair_key(s[i], s[i + 1]);
      st.delta[k] += word.count;
      if (s[i] == c || s[i + 1] == c) {
        auto& list = st.where[k];
        if (list.empty() || list.back() != w) list.push_back(w);
      }
    }
  }
  for (const auto& [k, d] : st.delta) {
    if (d == 0) continue;
    int64_t& cnt = st.pair_count[k];
    cnt += d;
    if (d > 0) st.heap.push({cnt, k});
    if (cnt <= 0) st.pair_count.erase(k);
  }
  st.pair_count.erase(pair);
}

// The trained vocabulary as GPT-2-style byte-level BPE, the special token last (BOS and EOS).
TokenizerData to_tokenizer_data(const BpeState& st, const std::string& special_token) {
  TokenizerData d;
  d.kind = TokenizerKind::Bpe;
  d.pre = "gpt2";
  d.tokens.reserve(st.tok_bytes.size() + 1);
  for (const auto& t : st.tok_bytes) d.tokens.push_back(gpt2_bytes_to_piece(t));
  d.merges.reserve(st.merges.size());
  for (PairKey k : st.merges)
    d.merges.push_back(d.tokens[left_of(k)] + " " + d.tokens[right_of(k)]);
  d.tokens.push_back(special_token);
  d.token_types.assign(d.tokens.size(), static_cast<int32_t>(TokenType::Normal));
  d.token_types.back() = static_cast<int32_t>(TokenType::Control);
  d.bos_id = d.eos_id = static_cast<int>(d.tokens.size()) - 1;
  d.add_bos = true;
  d.add_space_prefix = false;
  return d;
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
  BpeState st;
  st.words = count_words(corpus, options.special_token);
  start_state(st);
  const int target = vocab_size - 1;  // tokens before the special one
  while (static_cast<int>(st.tok_bytes.size()) < target) {
    const std::optional<HeapEntry> top = best_pair(st);
    if (!top || top->count < options.min_pair_count) break;
    const int c = token_for(st, left_of(top->pair), right_of(top->pair));
    st.merges.push_back(top->pair);
    apply_merge(st, top->pair, c);
    if (options.progress && !options.progress(static_cast<int>(st.tok_bytes.size()), vocab_size)) {
      return make_error("train_bpe: cancelled");
    }
  }
  return to_tokenizer_data(st, options.special_token);
}

}  // namespace ts
