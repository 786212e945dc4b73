// The newer stages' records in a session and its trace: XTC's coin, DRY's marks and
// mirostat's mu survive the JSON round trip, mirostat's mu is carried from each step's parent,
// and a replay of the trace gives the same run.
#include <doctest/doctest.h>

#include "sampling/sampler_spec.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"
#include "session/tiny_model.h"
#include "trace/trace_json.h"
#include "trace/trace_replay.h"

using namespace ts;
using namespace ts::test;

namespace {
double stage_value(const StageRecord& r, const std::string& key) {
  for (const StageValue& v : r.values)
    if (v.key == key) return v.value;
  return -1;
}
}  // namespace

TEST_CASE("trace: newer stages' values and marks round trip; mirostat's mu follows the path") {
  Session s;
  REQUIRE(s.set_model(tiny_model(64, 4)).ok());
  REQUIRE(s.set_prompt("the cat the cat the cat").ok());
  auto set = parse_sampler_spec("xtc-p=0.5 xtc-threshold=0.05 dry=1 dry-allowed=1 mirostat-tau=3");
  REQUIRE(set.ok());
  REQUIRE(s.set_sampler(0, set.value()).ok());
  REQUIRE(s.run_to(8).ok());
  const Trace t = make_trace(s);
  const std::vector<TraceStep>& steps = t.lanes[0].steps;
  REQUIRE(steps.size() >= 8);
  const size_t miro = set.value().chain.size() - 2;  // mirostat sits before the temperature
  REQUIRE(kind_of(set.value().chain[miro]) == StageKind::Mirostat);
  int with_values = 0;
  for (size_t k = 1; k < steps.size(); ++k) {
    const std::vector<StageRecord>& st = steps[k].sampling.stages;
    if (st.size() != set.value().chain.size()) continue;  // the prefill
    with_values += !st[miro].values.empty();
    const std::vector<StageRecord>& prev = steps[k - 1].sampling.stages;
    if (prev.size() == st.size() && k >= 2)  // the parent's mu_next is this step's mu
      CHECK(stage_value(st[miro], "mu") == stage_value(prev[miro], "mu_next"));
  }
  CHECK(with_values >= 7);
  Result<Trace> back = parse_trace_json(trace_to_json(t));
  REQUIRE(back.ok());
  CHECK(trace_to_json(back.value()) == trace_to_json(t));  // values and marks survive
  for (size_t k = 0; k < steps.size(); ++k) {
    const auto& a = steps[k].sampling.stages;
    const auto& b = back.value().lanes[0].steps[k].sampling.stages;
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      INFO("step " << k << " stage " << i << " values " << a[i].values.size() << "/"
                   << b[i].values.size() << " marks " << a[i].marks.size() << "/"
                   << b[i].marks.size());
      CHECK(a[i].values == b[i].values);
      CHECK(a[i].marks == b[i].marks);
    }
  }
  Session r;
  REQUIRE(r.set_model(tiny_model(64, 4)).ok());
  const Status st = replay_trace(r, back.value());
  REQUIRE_MESSAGE(st.ok(), (st.ok() ? "" : st.error().message));
  CHECK(sequence(r, 0, false) == sequence(s, 0, false));
}
