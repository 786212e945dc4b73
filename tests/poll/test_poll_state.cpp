// The class poll's state without a network: the text rules, the rate limits (time driven by
// hand), questions and guesses, the tally by first token, and the page's escaping.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>

#include "poll/class_tally.h"
#include "poll/poll_page.h"
#include "poll/poll_state.h"
#include "poll/rate_limit.h"
#include "poll/student_text.h"

using namespace ts;
using namespace std::chrono_literals;

namespace {

const PollClock::time_point t0{};  // a fixed start: tests move time by hand

void set_test_code(PollState& s) { REQUIRE(s.set_code("4711").ok()); }

}  // namespace

TEST_CASE("student text: UTF-8, control and invisible characters, length in code points") {
  struct Case {
    const char* text;
    size_t max;
    TextProblem want;
  };
  const Case cases[] = {
      {"Ana", 32, TextProblem::None},
      {"Zoë 🙂", 32, TextProblem::None},
      {"👩\u200D💻", 32, TextProblem::None},  // ZWJ inside an emoji sequence stays
      {"", 32, TextProblem::Empty},
      {"   ", 32, TextProblem::Empty},
      {"abcd", 3, TextProblem::TooLong},
      {"äöü", 3, TextProblem::None},  // three code points, six bytes
      {"\xFF"
       "a",
       32, TextProblem::InvalidUtf8},
      {"\xC0\xAF", 32, TextProblem::InvalidUtf8},      // overlong '/'
      {"\xED\xA0\x80", 32, TextProblem::InvalidUtf8},  // a surrogate
      {"a\nb", 32, TextProblem::ControlChar},
      {"a\tb", 32, TextProblem::ControlChar},
      {"a\x1b[2Jb", 32, TextProblem::ControlChar},  // terminal escape
      {"a\x7f", 32, TextProblem::ControlChar},
      {"a\xC2\x85", 32, TextProblem::ControlChar},  // C1 NEL
      {"a\u202Eb", 32, TextProblem::ControlChar},   // right-to-left override
      {"a\u2066b", 32, TextProblem::ControlChar},   // isolate
      {"a\u200Bb", 32, TextProblem::ControlChar},   // zero-width space
      {"a\u2028b", 32, TextProblem::ControlChar},   // line separator
      {"a\uFEFF", 32, TextProblem::ControlChar},    // BOM
      {"a\uFFFF", 32, TextProblem::ControlChar},    // noncharacter
  };
  for (const Case& c : cases) CHECK_MESSAGE(check_student_text(c.text, c.max) == c.want, c.text);
  CHECK(check_student_text(std::string_view("a\0b", 3), 32) == TextProblem::ControlChar);
}

TEST_CASE("name keys: case, width and spacing do not make a second student") {
  CHECK(name_key("Ana") == name_key("ANA"));
  CHECK(name_key("Ana") == name_key("\uFF21\uFF4E\uFF41"));  // fullwidth Ａｎａ
  CHECK(name_key("Ana  Lee") == name_key("ana lee"));
  CHECK(name_key("Straße") == name_key("STRASSE"));
  CHECK(name_key("Ana") != name_key("Anna"));
  CHECK(trim_spaces("  a b  ") == "a b");
}

TEST_CASE("html_escape and url_encode") {
  CHECK(html_escape("<b a=\"1\" c='2'>&</b>") ==
        "&lt;b a=&quot;1&quot; c=&#39;2&#39;&gt;&amp;&lt;/b&gt;");
  CHECK(url_encode("a b&c=ä") == "a%20b%26c%3D%C3%A4");
}

TEST_CASE("token buckets: burst, refill, forgetting idle keys, no room") {
  TokenBucket b({2, 1});
  CHECK(b.take(t0));
  CHECK(b.take(t0));
  CHECK_FALSE(b.take(t0));
  CHECK_FALSE(b.take(t0 + 900ms));
  CHECK(b.take(t0 + 1900ms));  // one token back after a second (the 900 ms try spent nothing)
  CHECK(b.full(t0 + 10s));

  BucketMap m({1, 1}, 2);
  CHECK(m.take("a", t0) == BucketMap::Take::Ok);
  CHECK(m.take("a", t0) == BucketMap::Take::Limited);
  CHECK(m.take("b", t0) == BucketMap::Take::Ok);
  CHECK(m.take("c", t0) == BucketMap::Take::NoRoom);   // a and b are both still spent
  CHECK(m.take("c", t0 + 2s) == BucketMap::Take::Ok);  // a and b refilled: forgotten
  CHECK(m.size() == 1);
  CHECK(m.can_take("never-seen", t0));
}

TEST_CASE("poll state: code, questions, one guess per name, replace, close keeps, reopen clears") {
  PollState s;
  set_test_code(s);
  CHECK(s.code() == "4711");
  CHECK_FALSE(s.set_code("47a1").ok());
  CHECK_FALSE(s.set_code("12345").ok());
  CHECK(s.code() == "4711");
  const std::string c = random_class_code();
  CHECK(c.size() == 4);
  CHECK(c.find_first_not_of("0123456789") == std::string::npos);

  CHECK(s.submit("4711", "Ana", "dog", "c1", t0) == GuessResult::NoQuestion);
  const uint64_t r0 = s.revision();
  s.open_question(12);
  CHECK(s.revision() > r0);
  CHECK(s.question().open);
  CHECK(s.question().step == 12);
  CHECK(s.question().question == 1);
  CHECK(s.submit("4711", "Ana", "dog", "c1", t0) == GuessResult::Accepted);
  CHECK(s.submit("4711", "Ben", " cat", "c2", t0) == GuessResult::Accepted);
  CHECK(s.submit("4711", " ANA ", "fox", "c3", t0) == GuessResult::Replaced);
  CHECK(s.submit("4712", "Cy", "x", "c4", t0) == GuessResult::WrongCode);
  CHECK(s.submit("4711", "", "x", "c4", t0) == GuessResult::BadName);
  CHECK(s.submit("4711", "Cy", "", "c4", t0) == GuessResult::BadGuess);
  CHECK(s.submit("4711", "Cy", "a\nb", "c4", t0) == GuessResult::BadGuess);
  PollSnapshot snap = s.snapshot();
  REQUIRE(snap.guesses.size() == 2);
  CHECK(snap.guesses[0].name == "ANA");  // the latest spelling, trimmed
  CHECK(snap.guesses[0].text == "fox");
  CHECK(snap.guesses[1].text == " cat");  // kept exactly as sent
  CHECK(snap.guesses[0].order > snap.guesses[1].order);

  s.close_question();
  CHECK_FALSE(s.question().open);
  CHECK(s.submit("4711", "Dee", "x", "c5", t0) == GuessResult::NoQuestion);
  CHECK(s.snapshot().guesses.size() == 2);  // kept until the next question
  s.open_question(13);
  CHECK(s.question().question == 2);
  CHECK(s.snapshot().guesses.empty());
}

TEST_CASE("poll state: per-name rate, class rate, name cap, wrong-code lock per client") {
  PollLimits lim;
  lim.per_name = {3, 0.5};
  lim.all_guesses = {4, 0.5};
  lim.max_names = 4;
  lim.wrong_code = {2, 0.1};
  PollState s(lim);
  set_test_code(s);
  s.open_question(1);
  for (int i = 0; i < 3; ++i) CHECK(guess_counted(s.submit("4711", "Ana", "a", "c", t0)));
  CHECK(s.submit("4711", "Ana", "b", "c", t0) == GuessResult::NameTooFast);
  // The class's bucket: 4 - 3 = 1 left, +1 after 2 s.
  CHECK(s.submit("4711", "Ana", "b", "c", t0 + 2s) == GuessResult::Replaced);
  CHECK(s.submit("4711", "Ben", "b", "c", t0 + 2s) == GuessResult::Accepted);
  CHECK(s.submit("4711", "Cy", "b", "c", t0 + 2s) == GuessResult::ClassTooFast);
  CHECK(s.submit("4711", "Cy", "b", "c", t0 + 4s) == GuessResult::Accepted);
  CHECK(s.submit("4711", "Dee", "b", "c", t0 + 6s) == GuessResult::Accepted);
  CHECK(s.submit("4711", "Eve", "b", "c", t0 + 20s) == GuessResult::ClassFull);  // 4 names
  CHECK(s.submit("4711", "Ben", "c", "c", t0 + 20s) == GuessResult::Replaced);   // old names may
  CHECK(s.snapshot().guesses.size() == 4);

  CHECK(s.check_code("0000", "mallory", t0) == CodeCheck::WrongCode);
  CHECK(s.check_code("0001", "mallory", t0) == CodeCheck::WrongCode);
  CHECK(s.check_code("4711", "mallory", t0) == CodeCheck::CodeLocked);  // even the right code
  CHECK(s.submit("4711", "Ben", "d", "mallory", t0 + 1s) == GuessResult::CodeLocked);
  CHECK(s.check_code("4711", "alice", t0) == CodeCheck::Ok);          // others unaffected
  CHECK(s.check_code("4711", "mallory", t0 + 11s) == CodeCheck::Ok);  // one try back per 10 s
}

namespace {

// A SentencePiece-style vocabulary with byte fallback and whole-word pieces, where " dog" is one
// token and "dog" another (as in real vocabularies).
Tokenizer word_tokenizer() {
  TokenizerData t;
  t.kind = TokenizerKind::Spm;
  t.add_space_prefix = false;
  t.tokens = {"<unk>", "<s>", "</s>"};
  t.token_types = {2, 3, 3};
  for (int b = 0; b < 256; ++b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
    t.tokens.push_back(buf);
    t.token_types.push_back(6);
  }
  for (const char* p : {"\xE2\x96\x81", "d", "o", "g", "c", "a", "t", "s",
                        "\xE2\x96\x81"
                        "d",
                        "\xE2\x96\x81"
                        "do",
                        "\xE2\x96\x81"
                        "dog",
                        "do", "dog",
                        "\xE2\x96\x81"
                        "c",
                        "\xE2\x96\x81"
                        "ca",
                        "\xE2\x96\x81"
                        "cat",
                        "ca", "cat"}) {
    t.tokens.push_back(p);
    t.token_types.push_back(1);
  }
  t.scores.assign(t.tokens.size(), 0.0f);
  for (size_t i = 3 + 256; i < t.tokens.size(); ++i)
    t.scores[i] = static_cast<float>(t.tokens[i].size());
  t.bos_id = 1;
  t.eos_id = 2;
  t.unk_id = 0;
  Result<Tokenizer> tok = Tokenizer::create(std::move(t));
  REQUIRE(tok.ok());
  return std::move(tok).value();
}

}  // namespace

TEST_CASE("tally: guesses counted by first token, read with a space when the model prefers it") {
  const Tokenizer tok = word_tokenizer();
  const int sp_dog = tok.find(
                "\xE2\x96\x81"
                "dog"),
            dog = tok.find("dog");
  const int sp_cat = tok.find(
                "\xE2\x96\x81"
                "cat"),
            cat = tok.find("cat");
  REQUIRE(sp_dog >= 0);
  REQUIRE(dog >= 0);
  REQUIRE(tok.encode(" dog", false) == std::vector<int>{sp_dog});
  REQUIRE(tok.encode("dog", false) == std::vector<int>{dog});
  // The model: " dog" 0.6 (rank 1), "cat" (no space) 0.3 (rank 2), " cat" 0.05 (rank 3).
  const std::vector<ModelToken> model = {{sp_dog, 0.6f, 1}, {cat, 0.3f, 2}, {sp_cat, 0.05f, 3}};

  CHECK(guess_token("dog", tok, model) == sp_dog);   // " dog" likelier than "dog"
  CHECK(guess_token(" dog", tok, model) == sp_dog);  // a typed space is taken as typed
  CHECK(guess_token("cat", tok, model) == cat);      // "cat" likelier than " cat"
  CHECK(guess_token("dogs", tok, model) == sp_dog);  // the first token counts
  CHECK(guess_token("dog", tok, {}) == sp_dog);      // no list: the spaced reading
  CHECK(guess_token(" cat", tok, model) == sp_cat);

  const std::vector<PollGuess> guesses = {{"a", "dog", 1},  {"b", "dogs", 2}, {"c", "cat", 3},
                                          {"d", " dog", 4}, {"e", "ox", 5},   {"f", "", 6}};
  const ClassTally t = tally_guesses(guesses, tok, model);
  CHECK(t.guesses == 5);
  CHECK(t.untokenized == 1);
  CHECK(t.model_top == sp_dog);
  CHECK(t.like_model == 3);
  REQUIRE(t.bars.size() == 3);
  CHECK(t.bars[0].token == sp_dog);
  CHECK(t.bars[0].count == 3);
  CHECK(t.bars[0].rank == 1);
  CHECK(t.bars[0].p == doctest::Approx(0.6));
  CHECK(t.bars[0].example == "dog");
  CHECK(t.bars[1].token == cat);  // count 1, p 0.3: before the unlisted token
  CHECK(t.bars[1].rank == 2);
  CHECK(t.bars[2].count == 1);
  CHECK(t.bars[2].rank == 0);  // " ox" starts with a token the model's list does not have
  CHECK(t.bars[2].p == 0.0f);
}

TEST_CASE("the page: self-contained, the nonce on its style and script, student text escaped") {
  PageView v;
  v.code = "4711";
  v.name = "<script>alert(1)</script>\"'";
  v.message = "a<b";
  v.nonce = "abc123";
  v.question = {false, 3, 2};
  const std::string h = render_poll_page(v);
  CHECK(h.find("<script>alert") == std::string::npos);
  CHECK(h.find("value=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;\"") != std::string::npos);
  CHECK(h.find("a&lt;b") != std::string::npos);
  CHECK(h.find("<style nonce=\"abc123\">") != std::string::npos);
  CHECK(h.find("<script nonce=\"abc123\">") != std::string::npos);
  CHECK(h.find("Waiting for the next question") != std::string::npos);
  CHECK(h.find("http://") == std::string::npos);  // nothing loaded from elsewhere
  CHECK(h.find("https://") == std::string::npos);
  CHECK(h.find(" src=") == std::string::npos);
  CHECK(h.find("innerHTML") == std::string::npos);
  CHECK(h.find("maxlength=\"32\"") != std::string::npos);  // the name's limit
  CHECK(h.find("maxlength=\"40\"") != std::string::npos);  // the guess's
  CHECK(page_security_policy("abc123").find("script-src 'nonce-abc123'") != std::string::npos);
  CHECK(state_json({true, 12, 3}) == R"({"open":true,"question":3,"step":12})");
  CHECK(guess_json(GuessResult::Replaced, {true, 12, 3}).find("\"ok\":true") != std::string::npos);
}
