// The constraint stages' regular expressions: hand-checked prefixes, errors, and agreement with
// std::regex_match (full matches) and with brute force (a dead prefix has no matching extension)
// over every short string of a small alphabet.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "sampling/text_regex.h"

using namespace ts;

namespace {
// 1 = a match, 0 = may still become one, -1 = never.
int status_of(const char* pattern, const std::string& text) {
  Result<TextRegex> re = TextRegex::compile(pattern);
  REQUIRE(re.ok());
  RegexDfa dfa(re.value());
  const int at = dfa.run(dfa.start(), text);
  return at == RegexDfa::kDead ? -1 : dfa.accepts(at) ? 1 : 0;
}
std::string regex_error(const char* pattern) {
  Result<TextRegex> re = TextRegex::compile(pattern);
  return re.ok() ? std::string("compiled") : re.error().message;
}
// Every string over `alphabet` of length 0..n.
std::vector<std::string> strings_up_to(const std::string& alphabet, int n) {
  std::vector<std::string> out = {""};
  for (size_t i = 0; i < out.size(); ++i)
    if (static_cast<int>(out[i].size()) < n)
      for (char c : alphabet) out.push_back(out[i] + c);
  return out;
}
}  // namespace

TEST_CASE("a regex tells a match, a live prefix and a dead one") {
  CHECK(status_of("cat", "") == 0);
  CHECK(status_of("cat", "ca") == 0);
  CHECK(status_of("cat", "cat") == 1);
  CHECK(status_of("cat", "cats") == -1);
  CHECK(status_of("cat", "cx") == -1);
  CHECK(status_of("[a-z]+", "") == 0);
  CHECK(status_of("[a-z]+", "abc") == 1);
  CHECK(status_of("[a-z]+", "ab1") == -1);
  CHECK(status_of("(yes|no)!?", "no") == 1);
  CHECK(status_of("(yes|no)!?", "no!") == 1);
  CHECK(status_of("(yes|no)!?", "no!!") == -1);
  CHECK(status_of("a{2,3}", "a") == 0);
  CHECK(status_of("a{2,3}", "aaa") == 1);
  CHECK(status_of("a{2,3}", "aaaa") == -1);
  CHECK(status_of("a{2,}", "aaaaaaa") == 1);
  CHECK(status_of("\\d{3}-\\d{4}", "555-12") == 0);
  CHECK(status_of("\\d{3}-\\d{4}", "555-1234") == 1);
  CHECK(status_of("\\d{3}-\\d{4}", "55a") == -1);
  CHECK(status_of("a.c", "a\nc") == -1);  // . is any byte but a newline
  CHECK(status_of("a.c", "a c") == 1);
  CHECK(status_of("[^ ]+ [^ ]+", "two words") == 1);
  CHECK(status_of("[^ ]+ [^ ]+", "three more words") == -1);
  CHECK(status_of("\\(\\.\\)", "(.)") == 1);
  CHECK(status_of("[]a]", "]") == 1);  // ']' first in a class is a byte
  CHECK(status_of("", "") == 1);       // the empty pattern matches only the empty text
  CHECK(status_of("", "a") == -1);
  // A byte set that reads nothing makes its branch dead from the start, not a trap later.
  CHECK(status_of("a[^\\s\\S]|b", "a") == -1);
  CHECK(status_of("a[^\\s\\S]|b", "b") == 1);
}

TEST_CASE("a bad regex is refused with one line that says where") {
  CHECK(regex_error("(ab") == "regex: unclosed '(' at byte 1");
  CHECK(regex_error("ab)") == "regex: unmatched ')' at byte 3");
  CHECK(regex_error("[a-") == "regex: unclosed '[' at byte 1");
  CHECK(regex_error("*a") == "regex: nothing to repeat at byte 1");
  CHECK(regex_error("a|+") == "regex: nothing to repeat at byte 3");
  CHECK(regex_error("a{3,2}") == "regex: repeat counts must be 0..32 with m <= n at byte 2");
  CHECK(regex_error("a{x}") == "regex: '{' must be {m}, {m,} or {m,n} at byte 2");
  CHECK(regex_error("\\q") == "regex: unknown escape '\\q' at byte 1");
  CHECK(regex_error("[z-a]").find("a range must go up") != std::string::npos);
  CHECK(regex_error("a\\") == "regex: '\\' at the end at byte 2");
  CHECK(regex_error("(a{32}){32}{32}").find("too large") != std::string::npos);
}

TEST_CASE("one_of allows exactly its phrases") {
  const std::vector<std::string> phrases = {"yes", "no", "not sure"};
  const TextRegex re = TextRegex::one_of(phrases);
  RegexDfa dfa(re);
  auto status = [&](const char* t) {
    const int at = dfa.run(dfa.start(), t);
    return at == RegexDfa::kDead ? -1 : dfa.accepts(at) ? 1 : 0;
  };
  CHECK(status("no") == 1);
  CHECK(status("not") == 0);
  CHECK(status("not sure") == 1);
  CHECK(status("nope") == -1);
  CHECK(status("yes.") == -1);
  // No phrase at all: nothing matches, not even the empty text.
  RegexDfa none(TextRegex::one_of({}));
  CHECK(none.start() == RegexDfa::kDead);
}

TEST_CASE("full matches agree with std::regex_match; a dead prefix has no matching extension") {
  const char* patterns[] = {"a*b",          "(ab|a)*", "[ab]{1,3}1?", "a?b+|1",
                            "(a|b)*a(a|b)", "[^a]+a",  "1{2}|ab*",    "(a*|b)1"};
  const std::vector<std::string> texts = strings_up_to("ab1", 6);
  for (const char* p : patterns) {
    const std::regex ref(p);
    Result<TextRegex> re = TextRegex::compile(p);
    REQUIRE(re.ok());
    RegexDfa dfa(re.value());
    for (const std::string& t : texts) {
      const int at = dfa.run(dfa.start(), t);
      CAPTURE(p);
      CAPTURE(t);
      CHECK((at != RegexDfa::kDead && dfa.accepts(at)) == std::regex_match(t, ref));
      if (t.size() <= 3) {     // dead iff no extension of up to 3 bytes matches (these patterns
        bool extends = false;  // match within 3 more bytes whenever they can at all)
        for (const std::string& more : strings_up_to("ab1", 3))
          extends = extends || std::regex_match(t + more, ref);
        CHECK((at == RegexDfa::kDead) == !extends);
      }
    }
  }
}
