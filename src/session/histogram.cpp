// "Sample this step n times" (histogram.h): the step's final distribution rebuilt from its
// recorded logits and drawn n times with RNG stream 1.
#include "session/histogram.h"

#include <algorithm>
#include <map>

#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {

Result<Histogram> histogram(const Session& session, int n, int lane) {
  if (lane < 0 || lane >= lane_count(session)) return make_error("no lane " + std::to_string(lane));
  if (n < 1 || n > 10'000'000) return make_error("histogram samples must be in 1..10000000");
  const Step* s = current_step(session, lane);
  if (!s) return make_error("no step yet: step the prefill first");
  if (s->forward->logits.empty()) {
    return make_error("this step's record holds no logits: set the record level to summary");
  }
  const std::vector<int> hist = history(session, lane, s->parent);
  // The settings that chose this step (a sampler changed mid-run left earlier steps to the old).
  const SamplerSettings& set = s->sampler ? *s->sampler : settings(session, lane);
  const std::vector<float> probs =
      final_distribution(set, s->forward->logits, hist, static_cast<uint64_t>(s->index),
                         sample_options(session, lane, s->parent));
  const std::vector<int> draws = draw_many(probs, set.seed, static_cast<uint64_t>(s->index), n, 1);
  std::map<int, int> counts;
  for (int id : draws) ++counts[id];
  std::vector<std::pair<int, int>> sorted(counts.begin(), counts.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  Histogram h;
  h.n_samples = n;
  h.step = s->index;
  for (const auto& [id, c] : sorted) {
    h.ids.push_back(id);
    h.counts.push_back(c);
    h.p.push_back(id >= 0 && id < static_cast<int>(probs.size()) ? probs[id] : 0.0f);
  }
  return h;
}

}  // namespace ts
