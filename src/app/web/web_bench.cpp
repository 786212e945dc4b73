// The in-page speed check (see web_bench.h): five rounds of up to 200 steps after a short
// prompt (a fresh timeline each round), the best round counted; then the bare decode pass over the
// same positions.
#include "app/web/web_bench.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "engine/forward.h"
#include "engine/kv_cache.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

WebBench run_web_bench(const std::string& model_path) {
  WebBench b;
  b.model = model_path;
  Session s;  // the app's defaults: one thread, full record, the default sampler
  if (Status st = s.load_model(model_path); !st.ok()) {
    b.error = st.error().message;
    return b;
  }
  if (Status st = set_max_tokens(s, 200); !st.ok()) {
    b.error = st.error().message;
    return b;
  }
  auto time_steps = [&](RecordLevel level, int* steps, double* seconds) -> double {
    double best = 0;
    if (Status st = set_record_level(s, level); !st.ok()) {
      b.error = st.error().message;
      return 0;
    }
    for (int round = 0; round < 5; ++round) {
      // A new prompt each round: stepping over recorded steps replays them without computing.
      const std::string prompt = round % 2 ? "Once upon a time" : "Once upon a time,";
      if (Status st = s.set_prompt(prompt); !st.ok()) {
        b.error = st.error().message;
        return 0;
      }
      if (Status st = s.step(); !st.ok()) {  // the prefill is not a decode step: not timed
        b.error = st.error().message;
        return 0;
      }
      int n = 0;
      const double t0 = now_s();
      while (can_step(s) && n < 200) {
        if (!s.step().ok()) break;
        ++n;
      }
      const double dt = now_s() - t0;
      if (n > 0 && dt > 0 && n / dt > best) {
        best = n / dt;
        if (steps) *steps = n;
        if (seconds) *seconds = dt;
      }
    }
    return best;
  };
  b.steps_per_s = time_steps(RecordLevel::Full, &b.steps, &b.seconds);
  b.summary_steps_per_s = time_steps(RecordLevel::Summary, nullptr, nullptr);
  if (!b.error.empty()) return b;
  // The bare forward: decode passes only, record off, the same number of positions.
  const Model& m = model(s);
  const int n = std::max(1, std::min(b.steps, m.config.n_ctx - 8));
  Forward fwd(m, 1);
  ForwardOptions fo;
  fo.level = RecordLevel::Off;
  for (int round = 0; round < 5; ++round) {
    KvCache kv(m.config, n + 1);
    std::vector<int> tok = {prompt_tokens(s).empty() ? 0 : prompt_tokens(s)[0]};
    const double t0 = now_s();
    for (int i = 0; i < n; ++i) {
      if (!fwd.run(kv, tok, fo, nullptr).ok()) break;
      const Vec& lg = fwd.logits();
      tok[0] = static_cast<int>(std::max_element(lg.data(), lg.data() + lg.size()) - lg.data());
    }
    const double dt = now_s() - t0;
    if (dt > 0) b.forward_per_s = std::max(b.forward_per_s, n / dt);
  }
  return b;
}

}  // namespace ts
