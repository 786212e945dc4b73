// A small regular expression over bytes, for the constraint stages (stage_constraint.h): the
// pattern is compiled to a Thompson NFA whose states that cannot reach the match are dropped, so
// after any prefix of text the set of live states answers "can this still become a match?"
// (empty: never) and "is it a match now?". RegexDfa caches the subsets it meets (a lazy DFA), so
// asking that for every token of a 152k vocabulary is a few table lookups per byte.
//
// Syntax (bytes, not code points): literals; . (any byte but a newline); [abc] [a-z] [^...];
// \d \w \s \D \W \S; \n \t and an escaped punctuation mark (\. \| \( ...); groups ( ); | ; the
// quantifiers * + ? {m} {m,} {m,n} (m, n <= 32). The whole text must match (anchored both ends).
#pragma once
#include <bitset>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace ts {

class TextRegex {
 public:
  using States = std::vector<int>;  // sorted ids of byte-reading states (and the match state)

  // A one-line error names the problem and where: "regex: unclosed '(' at byte 3".
  static Result<TextRegex> compile(std::string_view pattern);
  // Exactly one of these texts (each taken literally).
  static TextRegex one_of(std::span<const std::string> phrases);

  States start() const;
  States step(const States& s, uint8_t byte) const;
  bool accepts(const States& s) const;  // the text read so far is a match
  size_t node_count() const { return nodes_.size(); }

 private:
  struct Node {
    bool reads = false;  // true: reads one byte in `set`, then goes to `out`
    bool match = false;  // the accepting state
    std::bitset<256> set;
    int out = -1, out2 = -1;  // epsilon edges when !reads (out2 = -1: one edge)
  };
  friend struct RegexBuilder;
  void closure(int node, std::vector<uint8_t>& seen, States& out) const;
  void prune();  // marks the nodes that can reach the match

  std::vector<Node> nodes_;
  std::vector<uint8_t> live_;  // (nodes) 1 = the match is reachable from it
  int start_ = -1;
};

// The lazy DFA over a TextRegex: state 0 is dead (no match possible any more).
class RegexDfa {
 public:
  explicit RegexDfa(const TextRegex& re);
  int start() const { return start_; }
  int next(int state, uint8_t byte);
  int run(int state, std::string_view text);  // stops early at the dead state
  bool accepts(int state) const { return accepts_[state] != 0; }
  static constexpr int kDead = 0;

 private:
  int intern(const TextRegex::States& s);

  const TextRegex& re_;
  std::map<TextRegex::States, int> ids_;
  std::vector<TextRegex::States> sets_;
  std::vector<std::vector<int>> next_;  // (states, 256): -1 = not computed yet
  std::vector<uint8_t> accepts_;
  int start_ = 0;
};

}  // namespace ts
