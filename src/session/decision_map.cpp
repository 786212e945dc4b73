// The decision map (decision_map.h): each step recomputed from the path's K/V rows, its lens
// rows over the whole vocabulary, the chosen token's probability and rank in each.
#include "session/decision_map.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <system_error>

#include "engine/attribution.h"
#include "session/pass_replay.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {

namespace {

// Probability (softmax of the row) and rank of `id` in one lens row.
LensCell cell_of(const float* row, int n, int id) {
  double max = -INFINITY;
  for (int i = 0; i < n; ++i) max = std::max(max, static_cast<double>(row[i]));
  double total = 0;
  int rank = 0;
  for (int i = 0; i < n; ++i) {
    if (std::isfinite(row[i])) total += std::exp(static_cast<double>(row[i]) - max);
    if (row[i] > row[id] || (row[i] == row[id] && i < id)) ++rank;
  }
  const double p = std::isfinite(row[id]) && total > 0 ? std::exp(row[id] - max) / total : 0.0;
  return {static_cast<float>(p), rank};
}

// The first layer from which rank 0 holds through the last, or -1.
int decided_layer(const DecisionMap& m, int k) {
  int first = -1;
  for (int l = m.n_layers - 1; l >= 0 && m.at(k, l).rank == 0; --l) first = l;
  return first;
}

}  // namespace

Result<DecisionMap> decision_map(const Session& s, int lane, int first_step, int last_step) {
  if (!has_model(s)) return make_error("no model loaded");
  if (lane < 0 || lane >= lane_count(s)) return make_error("no lane " + std::to_string(lane));
  const int n_path = path_length(s, lane);
  if (last_step < 0) last_step = n_path - 1;
  if (first_step < 0 || first_step > last_step || last_step >= n_path) {
    return make_error("steps " + std::to_string(first_step) + ".." + std::to_string(last_step) +
                      " are not on lane " + std::to_string(lane) + "'s path (0.." +
                      std::to_string(n_path - 1) + ")");
  }
  const ModelConfig& c = config(s);
  try {
    ThreadPool pool(std::max(1, s.options().n_threads));
    Result<KvCache> kv = path_kv_rows(s, lane, last_step);  // the rows of every step mapped
    if (!kv.ok()) return kv.error();
    DecisionMap m;
    m.lane = lane;
    m.first_step = first_step;
    m.n_layers = c.n_layers;
    for (int k = first_step; k <= last_step; ++k) {
      Result<PositionPass> pass = recompute_step(s, lane, k, kv.value(), pool);
      if (!pass.ok()) return pass.error();
      const Mat lens = lens_logits(model(s), pass.value(), pool);  // (n_layers, vocab_size)
      const int token = step_at(s, lane, k)->token;
      m.tokens.push_back(token);
      for (int l = 0; l < c.n_layers; ++l) {
        m.cells.push_back(cell_of(lens.row(l).data(), c.vocab_size, token));
      }
      m.decided_at.push_back(decided_layer(m, m.n_steps() - 1));
    }
    return m;
  } catch (const std::bad_alloc&) {
    return make_error("out of memory computing the decision map");
  } catch (const std::system_error& e) {
    return make_error(std::string("cannot start the decision map's threads: ") + e.what());
  }
}

}  // namespace ts
