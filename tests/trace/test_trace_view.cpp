// The read-only trace view (trace_view.h): for each recorded step, the text so far, the chosen
// token and the raw and final bars, all from the trace; labels from the trace's pieces (a space
// as ␣, control characters escaped), "#id" where a trace has none; steps clamped.
#include <doctest/doctest.h>

#include "base/utf8.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_ops.h"
#include "session/tiny_model.h"
#include "trace/trace_json.h"
#include "trace/trace_view.h"

using namespace ts;
using namespace ts::test;

namespace {

Trace run(Session& s) {
  REQUIRE(s.set_model(tiny_model(64, 4)).ok());
  REQUIRE(set_record_level(s, RecordLevel::Summary).ok());
  REQUIRE(s.set_prompt("the cat").ok());
  SamplerSettings a;
  stage<Temperature>(a).t = 0.9f;
  stage<TopK>(a).k = 5;
  REQUIRE(s.set_sampler(0, a).ok());
  REQUIRE(s.run_to(5).ok());
  return make_trace(s);
}

}  // namespace

TEST_CASE("trace view: every step as the session recorded it") {
  Session s;
  const Trace t = run(s);
  REQUIRE(t.lanes.size() == 1);
  REQUIRE(t.lanes[0].steps.size() == 6);
  std::string text;
  for (const PathToken& p : path_tokens(s, 0, true))
    if (p.is_prompt) text += p.piece;
  for (int k = 0; k < 6; ++k) {
    CAPTURE(k);
    const Step& st = *step_at(s, 0, k);
    const TraceStepView v = trace_step_view(t, 0, k);
    CHECK(v.step == k);
    CHECK(v.n_steps == 6);
    CHECK(v.prefill == (k == 0));
    CHECK(v.chosen_p == doctest::Approx(st.chosen_p));
    CHECK(v.chosen_rank == st.chosen_rank + 1);
    CHECK(v.u == doctest::Approx(st.sampling.draw.u));
    CHECK(v.raw_entropy == doctest::Approx(st.sampling.draw.raw_entropy));
    // Bars: at most 10, by probability, the chosen one marked, labels from the pieces.
    REQUIRE(!v.final_dist.empty());
    CHECK(v.final_dist.size() <= 5);  // top-k 5 keeps five
    CHECK(v.raw.size() == 10);
    for (size_t i = 1; i < v.raw.size(); ++i) CHECK(v.raw[i - 1].p >= v.raw[i].p);
    int chosen = 0;
    for (const TraceBar& b : v.final_dist) {
      chosen += b.chosen;
      CHECK(b.label == trace_piece_label(t, b.id));
      CHECK(b.label.rfind("#", 0) != 0);  // every candidate has its piece in a new trace
    }
    CHECK(chosen == 1);
    CHECK(v.stages.size() == st.sampling.stages.size());
    text += st.piece;
  }
  // The text before the last step is the prompt and the first five tokens.
  std::string before;
  for (const PathToken& p : path_tokens(s, 0, true)) {
    if (p.is_prompt || p.step < 5) before += p.piece;
  }
  const std::string shown = trace_step_view(t, 0, 5).text_before;
  bool plain = true;
  for (unsigned char c : before) plain = plain && (c == '\n' || (c >= 0x20 && c < 0x7F));
  if (plain)
    CHECK(shown == before);
  else
    CHECK(utf8_valid(shown));  // odd bytes of the tiny model's pieces are escaped
  // Steps outside the record are clamped; a lane that does not exist gives the prompt alone.
  CHECK(trace_step_view(t, 0, 99).step == 5);
  CHECK(trace_step_view(t, 0, -3).step == 0);
  CHECK(trace_step_view(t, 7, 0).n_steps == 0);
}

TEST_CASE("trace view: labels are safe; an id without a piece shows as #id") {
  Trace t;
  t.config.vocab_size = 100;
  t.pieces[1] = " a";
  t.pieces[2] = "\x1b[2J";
  t.pieces[3] = "\xff";
  CHECK(trace_piece_label(t, 1) ==
        "\xE2\x90\xA3"
        "a");
  CHECK(trace_piece_label(t, 2) == "\\x1B[2J");
  CHECK(trace_piece_label(t, 3) == "<0xFF>");
  CHECK(trace_piece_label(t, 42) == "#42");
  // A trace written before pieces were recorded reads as before, with ids for labels.
  Session s;
  Trace old = run(s);
  old.pieces.clear();
  Result<Trace> back = parse_trace_json(trace_to_json(old));
  REQUIRE(back.ok());
  CHECK(back->pieces.empty());
  const TraceStepView v = trace_step_view(back.value(), 0, 2);
  REQUIRE(!v.raw.empty());
  CHECK(v.raw[0].label == "#" + std::to_string(v.raw[0].id));
}

TEST_CASE("trace JSON: a piece outside the vocabulary is refused by its field") {
  Session s;
  Trace t = run(s);
  std::string text = trace_to_json(t, -1);
  const size_t at = text.find("\"pieces\":[[");
  REQUIRE(at != std::string::npos);
  text.replace(at, 11, "\"pieces\":[[100000,\"x\"],[");
  Result<Trace> r = parse_trace_json(text);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("pieces[0][0]") != std::string::npos);
}
