// SpecialMatcher against a plain longest-match scan: random pieces over a small alphabet (many
// shared prefixes, pieces that are prefixes of others, duplicates with different ids, bytes
// above 0x7F) found in random text; and a tokenizer with 20,000 user-defined pieces that emits
// them as single ids.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tokenizer/special_split.h"
#include "tokenizer_test_util.h"

namespace ts {
namespace {

// The first position at or after `from` where some piece starts; the longest there; of equal
// texts the first listed.
SpecialMatcher::Match plain_next(const std::vector<SpecialMatcher::Entry>& es,
                                 std::string_view text, size_t from) {
  for (size_t i = from; i < text.size(); ++i) {
    SpecialMatcher::Match best;
    for (const auto& [piece, id] : es) {
      if (piece.empty() || text.substr(i, piece.size()) != piece) continue;
      if (best.id < 0 || piece.size() > best.len) best = {i, piece.size(), id};
    }
    if (best.id >= 0) return best;
  }
  return {};
}

std::string from_alphabet(const std::string& raw, const std::string& alphabet) {
  std::string s;
  for (char c : raw) s += alphabet[static_cast<uint8_t>(c) % alphabet.size()];
  return s;
}

}  // namespace

TEST_CASE("SpecialMatcher finds what a plain longest-match scan finds") {
  const std::string alphabet = std::string("ab<|\xC3\xFF") + '\0';
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::vector<SpecialMatcher::Entry> es;
    const std::string raw = test::random_bytes(400, seed);
    for (size_t k = 0; k + 1 < raw.size(); k += 2) {
      const size_t len = static_cast<uint8_t>(raw[k]) % 6;  // 0 (ignored) .. 5 bytes
      es.emplace_back(from_alphabet(test::random_bytes(len, seed * 1000 + k), alphabet),
                      static_cast<int>(k / 2));
    }
    const SpecialMatcher sm(es);
    const std::string text = from_alphabet(test::random_bytes(300, seed + 77), alphabet);
    for (size_t from = 0; from <= text.size(); from += 7) {
      const auto want = plain_next(es, text, from), got = sm.next(text, from);
      CHECK(got.pos == want.pos);
      CHECK(got.len == want.len);
      CHECK(got.id == want.id);
    }
  }
  CHECK(SpecialMatcher().next("abc", 0).id == -1);
  CHECK(SpecialMatcher({{"", 3}}).empty());
}

TEST_CASE("A tokenizer with 20,000 user-defined pieces emits each as one id") {
  auto d = test::tiny_bpe({});
  const int first = static_cast<int>(d.tokens.size());
  for (int k = 0; k < 20000; ++k) {
    d.tokens.push_back("<tok" + std::to_string(k) + ">");
    d.token_types.push_back(int32_t(TokenType::UserDefined));
  }
  const Tokenizer t = test::make_tokenizer(d);
  const auto ids = t.encode("x<tok1><tok19999><tok2>y<tok>", false);
  const std::vector<int> want = {'x', first + 1, first + 19999, first + 2, 'y', '<', 't', 'o', 'k', '>'};
  CHECK(test::ids_str(ids) == test::ids_str(want));
}

}  // namespace ts
