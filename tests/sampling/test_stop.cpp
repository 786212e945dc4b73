// Tests of stop conditions: stop strings found across token boundaries, the partial-match
// state, empty and over-long stop strings, and the precedence of stop reasons.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sampling/stop.h"

using namespace ts;

TEST_CASE("a stop string split across tokens is found; partial state grows piece by piece") {
  const std::vector<std::string> stops = {"User:", "\n\n"};
  const std::vector<std::string> pieces = {"Hello", " U", "se", "r:", " more"};
  struct Want {
    bool matched;
    int partial_index, partial_bytes;
  };
  const Want want[] = {{false, -1, 0}, {false, 0, 1}, {false, 0, 3}, {true, -1, 0}, {true, -1, 0}};
  std::string text;
  for (size_t i = 0; i < pieces.size(); ++i) {
    text += pieces[i];
    const StopMatch m = check_stop(text, stops);
    INFO("after piece " << i << " text='" << text << "'");
    CHECK(m.matched == want[i].matched);
    CHECK(m.partial_index == want[i].partial_index);
    CHECK(m.partial_bytes == want[i].partial_bytes);
    if (m.matched) {
      CHECK(m.stop_index == 0);
      CHECK(m.match_pos == 6);  // "Hello " is the output before the stop string
    }
  }
  // Rewind is just a shorter text.
  const StopMatch back = check_stop(text.substr(0, 8), stops);
  CHECK_FALSE(back.matched);
  CHECK(back.partial_bytes == 2);
}

TEST_CASE("stop strings: earliest match wins, empty ignored, longer than text never matches") {
  CHECK(check_stop("a\n\nUser:", {"User:", "\n\n"}).stop_index == 1);   // earliest start
  CHECK(check_stop("xxUser:", {"User:", "User"}).stop_index == 0);      // same start: lower index
  const StopMatch e = check_stop("anything", {"", ""});
  CHECK_FALSE(e.matched);
  CHECK(e.partial_index == -1);
  const StopMatch longer = check_stop("Us", {"User:"});
  CHECK_FALSE(longer.matched);
  CHECK(longer.partial_bytes == 2);
  CHECK_FALSE(check_stop("", {"User:"}).matched);
  CHECK_FALSE(check_stop("abc", {}).matched);
  // The partial state picks the longest prefix across stop strings; a full suffix is a match.
  const StopMatch p = check_stop("the en", {"end.", "ten", " en!"});
  CHECK_FALSE(p.matched);
  CHECK(p.partial_index == 2);
  CHECK(p.partial_bytes == 3);
  // A stop string that is a repeat of one char: the suffix "aa" of "xaa" is a prefix of "aaa".
  CHECK(check_stop("xaa", {"aaa"}).partial_bytes == 2);
  // Bytes, not characters: a UTF-8 stop string split inside a code point.
  const std::string snow = "\xE2\x98\x83";  // U+2603
  std::string t = "hi \xE2";
  CHECK(check_stop(t, {snow}).partial_bytes == 1);
  t += "\x98\x83";
  CHECK(check_stop(t, {snow}).matched);
}

TEST_CASE("stop_reason precedence: eos > stop string > max tokens > context full") {
  struct Row {
    StopInputs in;
    StopReason want;
  };
  auto in = [](int chosen, bool stop_string, int n_gen, int position) {
    StopInputs s;
    s.chosen_id = chosen;
    s.eos_id = 2;
    s.stop_string = stop_string;
    s.n_generated = n_gen;
    s.max_tokens = 10;
    s.position = position;
    s.n_ctx = 16;
    return s;
  };
  const Row rows[] = {
      {in(5, false, 1, 4), StopReason::None},
      {in(2, true, 10, 15), StopReason::Eos},
      {in(5, true, 10, 15), StopReason::StopString},
      {in(5, false, 10, 15), StopReason::MaxTokens},
      {in(5, false, 9, 15), StopReason::ContextFull},
      {in(5, false, 9, 14), StopReason::None},  // position 15 is still free
  };
  for (const Row& r : rows) {
    INFO(stop_reason_name(r.want));
    CHECK(stop_reason(r.in) == r.want);
  }
  StopInputs no_eos = in(2, false, 1, 0);
  no_eos.eos_id = -1;
  CHECK(stop_reason(no_eos) == StopReason::None);
  StopInputs unlimited = in(5, false, 1000, 1000);
  unlimited.max_tokens = 0;
  unlimited.n_ctx = 0;
  CHECK(stop_reason(unlimited) == StopReason::None);
  CHECK(std::string(stop_reason_name(StopReason::StopString)) == "stop string");
  CHECK(std::string(stop_reason_name(StopReason::ContextFull)) == "context full");
}
