// Byte-level BPE tokenizer on hand-made vocabularies: merges by rank (not left to right),
// special tokens, decoding, display labels, validation errors, and byte-exact round trips.
#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

#include "tokenizer/bpe_model.h"
#include "tokenizer/bpe_trainer.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer_test_util.h"

using namespace ts;
using ts::test::tiny_bpe;
using ts::test::make_tokenizer;
using ts::test::random_bytes;

namespace {
int id_of(const Tokenizer& t, std::string_view raw) { return t.find(gpt2_bytes_to_piece(raw)); }

}  // namespace

TEST_CASE("BPE applies merges by rank, not left to right") {
  // rank 0: l+o, rank 1: h+e, rank 2: l+l. "hello" -> h e l l o -> h e l lo -> he l lo
  const Tokenizer t = make_tokenizer(tiny_bpe({{"l", "o"}, {"h", "e"}, {"l", "l"}}));
  const std::vector<int> want = {id_of(t, "he"), id_of(t, "l"), id_of(t, "lo")};
  CHECK(t.encode("hello", false) == want);
  // With l+l ranked first instead: he ll o.
  const Tokenizer u = make_tokenizer(tiny_bpe({{"l", "l"}, {"h", "e"}, {"l", "o"}}));
  CHECK(u.encode("hello", false) == std::vector<int>{id_of(u, "he"), id_of(u, "ll"), id_of(u, "o")});
}

TEST_CASE("BPE chains merges and takes the leftmost of equal pairs") {
  const Tokenizer t = make_tokenizer(tiny_bpe({{"a", "a"}, {"aa", "a"}}));
  CHECK(t.encode("aaa", false) == std::vector<int>{id_of(t, "aaa")});
  CHECK(t.encode("aaaa", false) == std::vector<int>{id_of(t, "aa"), id_of(t, "aa")});
  // a a a a a -> (all a+a, left to right) aa aa a -> aa aaa
  CHECK(t.encode("aaaaa", false) == std::vector<int>{id_of(t, "aa"), id_of(t, "aaa")});
}

TEST_CASE("BPE merges never cross pre-token boundaries; leading spaces belong to the word") {
  const Tokenizer t = make_tokenizer(tiny_bpe({{" ", "a"}, {"a", " "}, {" a", "b"}}));
  CHECK(t.encode("a ab", false) == std::vector<int>{id_of(t, "a"), id_of(t, " ab")});
  CHECK(t.encode("ab", false) == std::vector<int>{id_of(t, "a"), id_of(t, "b")});
}

TEST_CASE("BPE with the LLaMA-3 pre-tokenizer uses a whole pre-token that is a piece as is") {
  auto d = tiny_bpe({{"a", "b"}});
  d.tokens.push_back("abc");  // no merge path leads to it ("ab c" is not a merge)
  d.token_types.push_back(int32_t(TokenType::Normal));
  const Tokenizer gpt2 = make_tokenizer(d);
  CHECK(gpt2.encode("abc", false) == std::vector<int>{id_of(gpt2, "ab"), id_of(gpt2, "c")});
  d.pre = "llama-bpe";
  const Tokenizer llama3 = make_tokenizer(d);
  CHECK(llama3.encode("abc", false) == std::vector<int>{id_of(llama3, "abc")});
  CHECK(llama3.encode("abcab", false) == std::vector<int>{id_of(llama3, "ab"), id_of(llama3, "c"), id_of(llama3, "ab")});
  d.pre = "qwen2";  // merges only
  const Tokenizer qwen2 = make_tokenizer(d);
  CHECK(qwen2.encode("abc 12", false) ==
        std::vector<int>{id_of(qwen2, "ab"), id_of(qwen2, "c"), id_of(qwen2, " "), id_of(qwen2, "1"), id_of(qwen2, "2")});
}

TEST_CASE("BPE special tokens: only their exact text produces them; BOS on request") {
  const Tokenizer t = make_tokenizer(tiny_bpe({{"h", "i"}}));
  const int eot = t.vocab_size() - 1;
  CHECK(t.is_special(eot));
  CHECK_FALSE(t.is_special(id_of(t, "hi")));
  CHECK(t.encode("hi<|endoftext|>hi", false) == std::vector<int>{id_of(t, "hi"), eot, id_of(t, "hi")});
  const auto partial = t.encode("<|endoftext|", false);
  CHECK(std::find(partial.begin(), partial.end(), eot) == partial.end());
  CHECK(t.encode("hi", true) == std::vector<int>{eot, id_of(t, "hi")});
  CHECK(t.encode("", true) == std::vector<int>{eot});
  CHECK(t.encode("", false).empty());
  CHECK(t.decode(t.encode("a<|endoftext|>b", true)) == "ab");  // control tokens decode to nothing
  CHECK(t.token_bytes(eot).empty());
}

TEST_CASE("BPE decode / token_bytes unmap the GPT-2 byte pieces") {
  const Tokenizer t = make_tokenizer(tiny_bpe({{" ", "w"}, {"\xE2", "\x9C"}}));
  CHECK(t.token_bytes(id_of(t, " w")) == " w");
  CHECK(t.token_bytes(id_of(t, "\n")) == "\n");
  CHECK(t.token_bytes(-1).empty());
  CHECK(t.token_bytes(t.vocab_size()).empty());
  const std::vector<int> ids = {id_of(t, "\xE2\x9C"), id_of(t, "\x85")};
  CHECK(t.decode(ids) == "\xE2\x9C\x85");  // ✅ split over two tokens
}

TEST_CASE("BPE display_piece is visible and valid UTF-8") {
  const Tokenizer t = make_tokenizer(tiny_bpe({{" ", "w"}, {"\xC3", "\xBC"}}));
  CHECK(t.display_piece(id_of(t, " w")) == "\xE2\x90\xA3w");  // ␣w
  CHECK(t.display_piece(id_of(t, "\n")) == "\xE2\x86\xB5");   // ↵
  CHECK(t.display_piece(id_of(t, "\t")) == "\xE2\x87\xA5");   // ⇥
  CHECK(t.display_piece(id_of(t, "\xE2")) == "<0xE2>");
  CHECK(t.display_piece(id_of(t, std::string(1, '\0'))) == "<0x00>");
  CHECK(t.display_piece(id_of(t, "\xC3\xBC")) == "\xC3\xBC");  // ü
  CHECK(t.display_piece(t.vocab_size() - 1) == "<|endoftext|>");
  CHECK(t.is_byte(id_of(t, "\xE2")));
  CHECK_FALSE(t.is_byte(id_of(t, "a")));
  CHECK_FALSE(t.is_byte(id_of(t, "\xC3\xBC")));
}

TEST_CASE("BPE create() rejects inconsistent data with a message") {
  auto d = tiny_bpe({{"a", "b"}});
  {
    auto bad = d;
    bad.merges.push_back("x \xE6\x97\xA5");
    auto r = Tokenizer::create(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("merge #1") != std::string::npos);
  }
  {
    auto bad = d;
    bad.bos_id = int(bad.tokens.size());
    CHECK_FALSE(Tokenizer::create(bad).ok());
  }
  {
    auto bad = d;
    bad.tokens[0] = "zz";  // byte 0x00 now has no piece
    CHECK_FALSE(Tokenizer::create(bad).ok());
  }
  {
    auto bad = d;
    bad.pre = "no-such-pre";
    CHECK_FALSE(Tokenizer::create(bad).ok());
  }
  {
    auto bad = d;
    bad.token_types.pop_back();
    CHECK_FALSE(Tokenizer::create(bad).ok());
  }
  CHECK_FALSE(Tokenizer::create(TokenizerData{}).ok());
}

TEST_CASE("BPE round trips arbitrary bytes exactly") {
  auto trained = train_bpe(
      "The quick brown fox jumps over the lazy dog. \xF0\x9F\xA6\x8A \xE6\x97\xA5\xE6\x9C\xAC "
      "F\xC3\xBChrer \xC3\xBC\xC3\xBC\xC3\xBC! The the the fox fox, dog dog.\n\n\tend",
      400, {});
  REQUIRE(trained.ok());
  const Tokenizer t = make_tokenizer(trained.value());
  const std::vector<std::string> cases = {
      "",
      "hello world",
      std::string("nul\0inside\0", 11),
      "\xF0\x9F\xA6\x8A\xF0\x9F\x98\x80 emoji \xE2\x9C\x85",
      "\xFF\xFE invalid \xC0\xAF overlong \xED\xA0\x80 surrogate \xE2\x82 truncated",
      "   leading and trailing   \n\n\t ",
      random_bytes(5000, 1),
  };
  for (const auto& s : cases) {
    const auto ids = t.encode(s, false);
    CHECK(t.decode(ids) == s);
    CHECK(t.decode(t.encode(s, true)) == s);
    std::string streamed;
    for (size_t i = 0; i < ids.size(); ++i) streamed += t.token_bytes(ids[i], i ? ids[i - 1] : -1);
    CHECK(streamed == s);
  }
  // 1 MB: mixed text and random bytes (long inputs take the cached path).
  std::string big;
  while (big.size() < (1u << 20)) {
    big += "The quick brown fox jumps over the lazy dog. ";
    big += random_bytes(37, big.size());
  }
  const auto ids = t.encode(big, false);
  CHECK(ids.size() < big.size());
  CHECK(t.decode(ids) == big);
  // The cached path and the plain path agree (prefix below the cache threshold).
  const std::string small = big.substr(0, 50000);
  const auto small_ids = t.encode(small, false);
  std::string joined;
  for (int id : small_ids) joined += t.token_bytes(id);
  CHECK(joined == small);
}

TEST_CASE("Tokenizer copies and moves keep working") {
  const Tokenizer t = make_tokenizer(tiny_bpe({{"h", "i"}}));
  Tokenizer c = t;
  CHECK(c.encode("hi", false) == t.encode("hi", false));
  Tokenizer m = std::move(c);
  CHECK(m.encode("hi", false) == t.encode("hi", false));
  Tokenizer a;
  CHECK(a.vocab_size() == 0);
  CHECK(a.encode("x", true).empty());
  a = m;
  CHECK(a.vocab_size() == t.vocab_size());
}

TEST_CASE("BPE: the scan merge loop and the heap merge loop agree") {
  std::string corpus;
  uint64_t s = 3;
  for (int i = 0; i < 20000; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    corpus += "abcab"[(s >> 40) % 5];
    if ((s >> 20) % 9 == 0) corpus += ' ';
  }
  auto trained = train_bpe(corpus, 600, {});
  REQUIRE(trained.ok());
  const TokenizerData& d = trained.value();
  std::array<int, 256> byte_ids{};
  for (int b = 0; b < 256; ++b) byte_ids[b] = b;  // the trainer's layout
  BpeModel model(byte_ids);
  auto find = [&](std::string_view p) {
    for (size_t i = 0; i < d.tokens.size(); ++i) {
      if (d.tokens[i] == p) return int(i);
    }
    return -1;
  };
  for (const auto& m : d.merges) {
    const size_t sp = m.find(' ');
    model.add_merge(find(m.substr(0, sp)), find(m.substr(sp + 1)), find(m.substr(0, sp) + m.substr(sp + 1)));
  }
  REQUIRE(model.n_merges() == int(d.merges.size()));
  for (int i = 0; i < 300; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const size_t len = 2 + (s >> 50) % (BpeModel::kScanMax - 1);
    const std::string word = corpus.substr((s >> 20) % (corpus.size() - len), len);
    std::vector<int> a, b;
    model.encode_word_scan(word, a);
    model.encode_word_heap(word, b);
    CHECK_MESSAGE(a == b, word);
  }
}

TEST_CASE("find_text: the token a person means by its text (bytes, stored piece, chip label)") {
  const Tokenizer t = make_tokenizer(tiny_bpe({{" ", "d"}, {" d", "o"}, {" do", "g"}}));
  const int dog = id_of(t, " dog");
  REQUIRE(dog >= 0);
  CHECK(t.find_text(" dog") == dog);                    // its bytes
  CHECK(t.find_text("\xC4\xA0" "dog") == dog);          // the stored GPT-2 piece ("Ġdog")
  CHECK(t.find_text("\xE2\x90\xA3" "dog") == dog);      // the chip label ("␣dog")
  CHECK(t.find_text("<|endoftext|>") == t.vocab_size() - 1);  // a special token by its text
  CHECK(t.find_text("cat!") == -1);
  CHECK(t.find_text("") == -1);
}
