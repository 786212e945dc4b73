// The BPE trainer: hand-worked first merges on a tiny corpus, the output layout (bytes, merges,
// special last), agreement with a naive re-count-everything trainer, and encode() reproducing
// the training segmentation.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "tokenizer/bpe_trainer.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/pretokenize.h"
#include "tokenizer/tokenizer.h"

using namespace ts;

namespace {

std::string g(std::string_view raw) { return gpt2_bytes_to_piece(raw); }

// The slow, obviously-correct trainer: re-count every pair of every word before each merge.
std::vector<std::string> naive_merges(std::string_view corpus, int vocab_size, int min_count) {
  std::map<std::string, int64_t> freq;
  for (auto w : gpt2_pretokenize(corpus)) ++freq[std::string(w)];
  std::vector<std::string> tok;
  for (int b = 0; b < 256; ++b) tok.push_back(std::string(1, char(b)));
  std::vector<std::pair<std::vector<int>, int64_t>> words;
  for (const auto& [w, c] : freq) {
    std::vector<int> s;
    for (char ch : w) s.push_back(uint8_t(ch));
    words.push_back({s, c});
  }
  std::vector<std::string> merges;
  while (int(tok.size()) < vocab_size - 1) {
    std::map<std::pair<int, int>, int64_t> cnt;
    for (const auto& [s, c] : words) {
      for (size_t i = 0; i + 1 < s.size(); ++i) cnt[{s[i], s[i + 1]}] += c;
    }
    std::pair<int, int> best{-1, -1};
    int64_t best_c = 0;
    for (const auto& [p, c] : cnt) {  // map order: the first of equal counts is the smallest pair
      if (c > best_c) best = p, best_c = c;
    }
    if (best_c < min_count) break;
    const std::string joined = tok[best.first] + tok[best.second];
    int id = -1;
    for (size_t i = 0; i < tok.size(); ++i) {
      if (tok[i] == joined) id = int(i);
    }
    if (id < 0) {
      id = int(tok.size());
      tok.push_back(joined);
    }
    merges.push_back(g(tok[best.first]) + " " + g(tok[best.second]));
    for (auto& [s, c] : words) {
      std::vector<int> out;
      for (size_t i = 0; i < s.size(); ++i) {
        if (i + 1 < s.size() && s[i] == best.first && s[i + 1] == best.second) {
          out.push_back(id);
          ++i;
        } else {
          out.push_back(s[i]);
        }
      }
      s = out;
    }
  }
  return merges;
}

}  // namespace

TEST_CASE("train_bpe learns the hand-worked merges of a tiny corpus") {
  // Words: hug, " hug" x2, " pug", " pun", " bun", " hugs". Pair counts: u g 5, h u 4, ...
  // 1) u+g (5)  2) h+ug (4)  3) " "+hug (3)  4) tie at 2 between " "+p and u+n: " " (0x20) < u
  // 5) u+n (2); then every pair occurs once: stop (min_pair_count 2).
  auto r = train_bpe("hug hug hug pug pun bun hugs", 300, {});
  REQUIRE(r.ok());
  const TokenizerData& d = r.value();
  CHECK(d.merges == std::vector<std::string>{"u g", "h ug", g(" ") + " hug", g(" ") + " p", "u n"});
  REQUIRE(d.tokens.size() == 262);
  CHECK(d.tokens[256] == "ug");
  CHECK(d.tokens[258] == g(" hug"));
  CHECK(d.tokens[260] == "un");
  CHECK(d.tokens[261] == "<|endoftext|>");
  for (int b = 0; b < 256; ++b) CHECK(d.tokens[b] == g(std::string(1, char(b))));
  CHECK(d.bos_id == 261);
  CHECK(d.eos_id == 261);
  CHECK(d.add_bos);
  CHECK(d.kind == TokenizerKind::Bpe);
  CHECK(d.pre == "gpt2");
  REQUIRE(d.token_types.size() == d.tokens.size());
  CHECK(d.token_types[261] == int(TokenType::Control));
  CHECK(d.token_types[100] == int(TokenType::Normal));

  auto t = Tokenizer::create(d);
  REQUIRE(t.ok());
  CHECK(t->encode("hug hugs pun", true) == std::vector<int>{261, 257, 258, 's', 259, 260});

  // The vocabulary size is honoured exactly when there is enough to merge.
  auto small = train_bpe("hug hug hug pug pun bun hugs", 259, {});
  REQUIRE(small.ok());
  CHECK(small->tokens.size() == 259);
  CHECK(small->merges == std::vector<std::string>{"u g", "h ug"});
}

TEST_CASE("train_bpe cuts the corpus at the special token and validates its arguments") {
  auto r = train_bpe("ab<|endoftext|>ab<|endoftext|>ab", 300, {});
  REQUIRE(r.ok());
  CHECK(r->merges == std::vector<std::string>{"a b"});  // "b<" never counted
  CHECK_FALSE(train_bpe("abc", 257, {}).ok());
  CHECK_FALSE(train_bpe("", 300, {}).ok());
  BpeTrainOptions cancel;
  cancel.progress = [](int done, int total) { return done < 257; };
  auto c = train_bpe("aaaa bbbb aaaa bbbb", 300, cancel);
  REQUIRE_FALSE(c.ok());
  CHECK(c.error().message.find("cancelled") != std::string::npos);
}

TEST_CASE("train_bpe agrees with a naive trainer that recounts every pair") {
  // A corpus with repeated words, overlapping runs (aaaa), punctuation, UTF-8 and ties.
  std::string corpus;
  const char* words[] = {"the", "then", "there", "aaaa", "aaa", "banana", "bandana", "ananas",
                         "\xC3\xBC\xC3\xBC", "F\xC3\xBChrer", "!!", "...", "12", "123", "1234"};
  uint64_t s = 7;
  for (int i = 0; i < 3000; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    corpus += words[(s >> 33) % 15];
    corpus += (s >> 20) % 7 == 0 ? "\n" : " ";
  }
  for (int min_count : {1, 2, 50}) {
    auto fast = train_bpe(corpus, 400, {min_count, "<|endoftext|>", {}});
    REQUIRE(fast.ok());
    const auto slow = naive_merges(corpus, 400, min_count);
    CHECK(fast->merges == slow);
    CHECK(fast->merges.size() >= fast->tokens.size() - 257);
  }
}

TEST_CASE("encoding the training corpus reproduces the trainer's segmentation") {
  std::string corpus;
  for (int i = 0; i < 200; ++i) corpus += "Once upon a time, there was a little girl named Lily. ";
  auto r = train_bpe(corpus, 300, {});
  REQUIRE(r.ok());
  auto t = Tokenizer::create(r.value());
  REQUIRE(t.ok());
  // Every whole word of this corpus occurs 200 times, so it became one token.
  CHECK(t->encode(" little", false) == std::vector<int>{t->find(g(" little"))});
  CHECK(t->find(g(" little")) >= 256);
  CHECK(t->decode(t->encode(corpus, false)) == corpus);
}

TEST_CASE("train_bpe on a few MB is fast") {
  std::string corpus;
  uint64_t s = 1;
  const char* syll[] = {"ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "an", "el"};
  while (corpus.size() < (4u << 20)) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const int len = 1 + int((s >> 40) % 4);
    corpus += ' ';
    for (int k = 0; k < len; ++k) corpus += syll[(s >> (8 * k + 3)) % 10];
    if ((s >> 50) % 13 == 0) corpus += ".\n";
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto r = train_bpe(corpus, 2048, {});
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(r.ok());
  MESSAGE("train_bpe: 4 MB, " << r->tokens.size() << " tokens in " << sec << " s");
  CHECK(r->tokens.size() > 1000);
  CHECK(sec < 30.0);  // generous: sanitizer builds are slow
}
