// The tale grammar (choices, slots, capitals, articles) on hand-checked templates, and the tale
// generator: deterministic, every slot filled, the cast kept, many openings and plots, no
// "her the teacher", and branching at many words (not only at names).
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "train/tale_gen.h"
#include "train/tale_grammar.h"
#include "train/tale_words.h"

using namespace ts;

TEST_CASE("tale grammar: slots, capitals, nested choices, articles") {
  TaleGrammar g(7);
  g.set("n", "Mia");
  g.set("ns", "she");
  g.set("hh", "{np} mom");
  g.set("np", "her");
  CHECK(g.expand("{Ns} saw {n}.") == "She saw Mia.");
  CHECK(g.expand("{Hh} smiled.") == "Her mom smiled.");
  CHECK(fix_articles("a apple, a pear, A egg, banana a") == "an apple, a pear, An egg, banana a");
  CHECK(fix_articles("a umbrella") == "an umbrella");
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) seen.insert(g.expand("[a|b[c|d]|]x"));
  CHECK(seen == std::set<std::string>{"ax", "bcx", "bdx", "x"});
  CHECK(g.expand("no choice") == "no choice");
}

TEST_CASE("tales are deterministic, filled, and keep their cast") {
  CHECK(generate_tale(1, 5) == generate_tale(1, 5));
  CHECK(generate_tale(1, 5) != generate_tale(1, 6));
  CHECK(generate_tale(1, 5) != generate_tale(2, 5));
  std::set<std::string> openings, names;
  for (int i = 0; i < 500; ++i) {
    const std::string s = generate_tale(3, static_cast<uint64_t>(i));
    INFO(s);
    CHECK(s.find('{') == std::string::npos);
    CHECK(s.find('[') == std::string::npos);
    CHECK(s.find("  ") == std::string::npos);
    CHECK(s.find("her the ") == std::string::npos);
    CHECK(s.find("his the ") == std::string::npos);
    for (auto c : tale_words::colors()) CHECK(s.find(" had " + std::string(c) + " ") == std::string::npos);
    for (auto c : tale_words::sizes()) CHECK(s.find(" had " + std::string(c) + " ") == std::string::npos);
    CHECK(s.size() > 150);
    const char last = s.back();
    CHECK((last == '.' || last == '!' || last == '"'));
    openings.insert(s.substr(0, s.find_first_of(",. ", 5)));
    const size_t at = s.find(" named ") != std::string::npos ? s.find(" named ") + 7 : s.find(" called ") + 8;
    names.insert(s.substr(at, s.find_first_of(" .,", at) - at));
  }
  CHECK(openings.size() >= 5);
  CHECK(names.size() >= 70);
  CHECK(generate_tales(3, 0, 2, "<|endoftext|>") ==
        generate_tale(3, 0) + "<|endoftext|>" + generate_tale(3, 1) + "<|endoftext|>");
}

TEST_CASE("tales branch at many words: most common two-word contexts have several continuations") {
  // Count, over 2,000 tales, the words that follow each pair of words. A template corpus has
  // one continuation for most pairs; this one must have several for a good share of the text.
  std::map<std::string, std::set<std::string>> next;
  std::map<std::string, size_t> count;
  for (int i = 0; i < 2000; ++i) {
    std::istringstream is(generate_tale(11, static_cast<uint64_t>(i)));
    std::string a, b, w;
    while (is >> w) {
      if (!a.empty()) {
        next[a + " " + b].insert(w);
        ++count[a + " " + b];
      }
      a = b;
      b = w;
    }
  }
  size_t total = 0, branching = 0;
  for (const auto& [ctx, n] : count) {
    total += n;
    if (next[ctx].size() >= 3) branching += n;
  }
  CHECK(static_cast<double>(branching) / static_cast<double>(total) > 0.4);
}
