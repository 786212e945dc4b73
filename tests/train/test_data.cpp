// The story generator (deterministic, varied, pronouns agree), document splitting, batch
// sampling and the unigram baseline on hand-checked inputs.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "train/corpus.h"
#include "train/dataset.h"
#include "train/story_gen.h"
#include "train/story_words.h"

using namespace ts;

namespace {

bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

bool is_girl(const std::string& name) {
  for (auto n : story_words::girl_names()) {
    if (n == name) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("stories are deterministic, varied, and well formed") {
  CHECK(generate_story(1, 5) == generate_story(1, 5));
  CHECK(generate_story(1, 5) != generate_story(1, 6));
  CHECK(generate_story(1, 5) != generate_story(2, 5));
  std::set<std::string> openings, names;
  size_t with_quotes = 0;
  for (int i = 0; i < 400; ++i) {
    const std::string s = generate_story(3, static_cast<uint64_t>(i));
    CHECK(s.find('{') == std::string::npos);  // every template key was filled
    CHECK(s.size() > 200);
    const char last = s.back();
    CHECK((last == '.' || last == '!' || last == '"'));
    openings.insert(s.substr(0, s.find(',')));
    // the hero's name follows "named " or "called " in the first sentence
    const std::string first = s.substr(0, s.find(". "));
    const size_t at = first.find(" named ") != std::string::npos ? first.find(" named ") + 7 : first.find(" called ") + 8;
    const std::string name = s.substr(at, s.find_first_of(" .", at) - at);
    names.insert(name);
    with_quotes += contains(s, "\"");
    // The sentence right after the opening refers to the hero with the right pronoun.
    const size_t second = s.find(". ") + 2;
    const std::string next = s.substr(second, 12);
    if (next.rfind("She ", 0) == 0 || next.rfind("He ", 0) == 0 || next.rfind("Her ", 0) == 0 ||
        next.rfind("His ", 0) == 0) {
      INFO(s);
      CHECK(is_girl(name) == (next[0] == 'S' || next.rfind("Her ", 0) == 0));
    }
  }
  CHECK(openings.size() >= 4);
  CHECK(names.size() >= 50);
  CHECK(with_quotes > 300);
  const std::string two = generate_stories(3, 0, 2, "<|endoftext|>");
  CHECK(two == generate_story(3, 0) + "<|endoftext|>" + generate_story(3, 1) + "<|endoftext|>");
}

TEST_CASE("split_documents trims, drops empties, and keeps order") {
  const auto d = split_documents("  one\n<|e|>two <|e|><|e|>\n three\n", "<|e|>");
  REQUIRE(d.size() == 3);
  CHECK(d[0] == "one");
  CHECK(d[1] == "two");
  CHECK(d[2] == "three");
  CHECK(split_documents("", "<|e|>").empty());
}

TEST_CASE("a text file without separators is chunked into documents") {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "Paragraph " + std::to_string(i) + " has some words in it.\n\n";
  const std::string path = "test_train_corpus.txt";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  CorpusOptions o;
  o.source = path;
  o.chunk_bytes = 200;
  auto c = load_corpus(o);
  REQUIRE(c.ok());
  CHECK(c->docs.size() > 5);
  CHECK(c->docs.front().rfind("Paragraph 0 ", 0) == 0);
  CHECK(contains(c->docs.back(), "Paragraph 49 "));
  CHECK(contains(c->joined, "<|endoftext|>"));
  std::remove(path.c_str());
  o.source = "no/such/file.txt";
  CHECK_FALSE(load_corpus(o).ok());
  // options survive the checkpoint info map
  CorpusOptions s;
  s.n_stories = 123;
  s.story_seed = 9;
  const CorpusOptions back = corpus_options_from_info(corpus_info(s), CorpusOptions{});
  CHECK(back.n_stories == 123);
  CHECK(back.story_seed == 9);
}

TEST_CASE("sample_batch: targets are the next tokens, windows depend only on (seed, step)") {
  std::vector<int> stream(100);
  for (int i = 0; i < 100; ++i) stream[static_cast<size_t>(i)] = i;
  std::vector<int> tok, tgt, tok2, tgt2;
  sample_batch(stream, 3, 8, 42, 5, tok, tgt);
  REQUIRE(tok.size() == 24);
  for (size_t i = 0; i < tok.size(); ++i) CHECK(tgt[i] == tok[i] + 1);
  for (int b = 0; b < 3; ++b) {
    for (int t = 1; t < 8; ++t) CHECK(tok[static_cast<size_t>(b * 8 + t)] == tok[static_cast<size_t>(b * 8)] + t);
  }
  sample_batch(stream, 3, 8, 42, 5, tok2, tgt2);
  CHECK(tok == tok2);
  sample_batch(stream, 3, 8, 42, 6, tok2, tgt2);
  CHECK(tok != tok2);
}

TEST_CASE("validation windows tile the stream") {
  std::vector<int> stream(21);
  for (int i = 0; i < 21; ++i) stream[static_cast<size_t>(i)] = i;
  CHECK(validation_windows(stream, 5, 100) == 4);
  CHECK(validation_windows(stream, 5, 2) == 2);
  std::vector<int> tok, tgt;
  validation_batch(stream, 5, 1, 2, tok, tgt);
  CHECK(tok == std::vector<int>{5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
  CHECK(tgt == std::vector<int>{6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
}

TEST_CASE("unigram loss by hand") {
  // train counts (+1 smoothing, vocab 3): token0: 3, token1: 2, token2: 1 -> total 6
  const std::vector<int> train = {0, 0, 1};
  const std::vector<int> eval = {2, 0, 1};  // scored: 0 and 1
  const double expect = -(std::log(3.0 / 6.0) + std::log(2.0 / 6.0)) / 2.0;
  CHECK(unigram_loss(train, eval, 3) == doctest::Approx(expect));
}
