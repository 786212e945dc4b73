// SentencePiece-style tokenizer on hand-made vocabularies: best-score merging (leftmost on ties),
// byte fallback, the space prefix and its removal when decoding, llama2.c-style vocabularies
// (plain spaces, no token types), display labels and round trips.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"
#include "tokenizer_test_util.h"

using namespace ts;
using ts::test::make_tokenizer;
using ts::test::random_bytes;

namespace {

const std::string S = "\xE2\x96\x81";  // ▁

// <unk> <s> </s> <0x00>..<0xFF>, then the given pieces (with "_" standing for the space char).
TokenizerData tiny_spm(const std::vector<std::pair<std::string, float>>& pieces,
                       const std::string& space_char, bool with_types) {
  TokenizerData d;
  d.kind = TokenizerKind::Spm;
  d.space_char = space_char;
  d.tokens = {"<unk>", "<s>", "</s>"};
  d.scores = {0, 0, 0};
  d.token_types = {int(TokenType::Unknown), int(TokenType::Control), int(TokenType::Control)};
  for (int b = 0; b < 256; ++b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
    d.tokens.push_back(buf);
    d.scores.push_back(0);
    d.token_types.push_back(int(TokenType::Byte));
  }
  for (const auto& [p, s] : pieces) {
    std::string text;
    for (char c : p) text += c == '_' ? space_char : std::string(1, c);
    d.tokens.push_back(text);
    d.scores.push_back(s);
    d.token_types.push_back(int(TokenType::Normal));
  }
  if (!with_types) d.token_types.clear();
  d.unk_id = 0;
  d.bos_id = 1;
  d.eos_id = 2;
  d.add_bos = true;
  return d;
}

const std::vector<std::pair<std::string, float>> kPieces = {
    {"_", -5}, {"a", -6}, {"b", -6}, {"c", -6}, {"x", -6}, {"y", -6}, {"z", -6},
    {"_a", -1}, {"ab", -2}, {"bc", -0.5f}, {"xy", -1}, {"yz", -1}, {"__", -3}};


}  // namespace

TEST_CASE("SPM merges the best-scoring pair first, leftmost among equals") {
  const Tokenizer t = make_tokenizer(tiny_spm(kPieces, S, true));
  const int sp = t.find(S), sp_a = t.find(S + "a"), bc = t.find("bc");
  // "▁abc": pairs ▁a (-1), ab (-2), bc (-0.5) -> ▁ a bc -> ▁a bc
  CHECK(t.encode("abc", false) == std::vector<int>{sp_a, bc});
  // "▁xyz": xy and yz both -1: the left one wins.
  CHECK(t.encode("xyz", false) == std::vector<int>{sp, t.find("xy"), t.find("z")});
  // "▁a▁b": ▁a merges, ▁b is not a piece.
  CHECK(t.encode("a b", false) == std::vector<int>{sp_a, sp, t.find("b")});
  CHECK(t.encode("abc", true) == std::vector<int>{1, sp_a, bc});
  CHECK(t.encode("", true) == std::vector<int>{1});
  CHECK(t.encode("", false).empty());
}

TEST_CASE("SPM byte fallback: characters that are not pieces become <0xNN> tokens") {
  const Tokenizer t = make_tokenizer(tiny_spm(kPieces, S, true));
  CHECK(t.encode("\xC3\xA9", false) == std::vector<int>{t.find(S), 3 + 0xC3, 3 + 0xA9});  // é
  CHECK(t.is_byte(3 + 0xC3));
  CHECK_FALSE(t.is_byte(t.find("a")));
  CHECK(t.display_piece(3 + 0xC3) == "<0xC3>");
  CHECK(t.token_bytes(3 + 0xC3) == "\xC3");
  // Control pieces are never formed from plain text, only from their exact text.
  CHECK(t.encode("x<s>y", false) == std::vector<int>{t.find(S), t.find("x"), 1, t.find(S), t.find("y")});
}

TEST_CASE("SPM decoding drops the prefixed space at the start and after BOS") {
  const Tokenizer t = make_tokenizer(tiny_spm(kPieces, S, true));
  const int sp_a = t.find(S + "a");
  CHECK(t.token_bytes(sp_a) == " a");
  CHECK(t.token_bytes(sp_a, 1) == "a");        // after BOS
  CHECK(t.token_bytes(sp_a, t.find("b")) == " a");
  CHECK(t.token_bytes(3 + ' ', 1) == " ");     // a byte piece is raw, never stripped
  CHECK(t.decode(std::vector<int>{sp_a, sp_a}) == "a a");
  CHECK(t.decode(std::vector<int>{1, sp_a, sp_a, 2}) == "a a");
  CHECK(t.display_piece(sp_a) == "\xE2\x90\xA3" "a");  // ␣a
  CHECK(t.display_piece(1) == "<s>");
  CHECK(t.is_special(1));
  CHECK(t.is_special(0));
  CHECK_FALSE(t.is_special(sp_a));
}

TEST_CASE("SPM round trips arbitrary bytes") {
  const Tokenizer t = make_tokenizer(tiny_spm(kPieces, S, true));
  for (const std::string& s :
       {std::string("abc a b  c   "), std::string(" leading"), std::string("\xF0\x9F\xA6\x99 llama"),
        std::string("nul\0x", 5), std::string("\xFF\xC3 bad \xE2\x82"), random_bytes(3000, 9)}) {
    CHECK(t.decode(t.encode(s, false)) == s);
    CHECK(t.decode(t.encode(s, true)) == s);
  }
}

TEST_CASE("llama2.c-style SPM: plain spaces, no token types, BOS stored as \\n<s>\\n") {
  auto d = tiny_spm({{" ", -5}, {"a", -6}, {"b", -6}, {" a", -1}, {"ab", -2}, {" ab", -0.5f}}, " ", false);
  d.tokens[1] = "\n<s>\n";
  d.tokens[2] = "\n</s>\n";
  const Tokenizer t = make_tokenizer(d);
  CHECK(t.is_special(1));
  CHECK(t.is_special(2));
  CHECK(t.is_byte(3 + 0x41));
  CHECK(t.display_piece(1) == "<s>");
  // " ab": pairs " a" (-1), "ab" (-2) -> " a" b -> " ab" (-0.5)
  const int sp_ab = t.find(" ab");
  CHECK(t.encode("ab", true) == std::vector<int>{1, sp_ab});
  CHECK(t.encode("ab ab", true) == std::vector<int>{1, sp_ab, sp_ab});
  CHECK(t.decode(t.encode("ab ab", true)) == "ab ab");
  CHECK(t.token_bytes(sp_ab, 1) == "ab");
  CHECK(t.display_piece(sp_ab) == "\xE2\x90\xA3" "ab");
}

TEST_CASE("SPM create() checks scores and byte pieces") {
  auto d = tiny_spm(kPieces, S, true);
  {
    auto bad = d;
    bad.scores.pop_back();
    CHECK_FALSE(Tokenizer::create(bad).ok());
  }
  {
    auto bad = d;
    bad.tokens[3] = "zz";  // <0x00> missing and no <unk>
    bad.unk_id = -1;
    CHECK_FALSE(Tokenizer::create(bad).ok());
  }
  {
    auto ok = d;
    ok.tokens[3] = "zz";  // <0x00> missing: falls back to <unk>
    auto t = Tokenizer::create(ok);
    REQUIRE(t.ok());
    CHECK(t->encode(std::string("\0", 1), false).back() == 0);
  }
}
