// Checks shared by the session tests: bit-for-bit equality of records and steps (wall time
// excluded), and the KV invariants (length == position of the cursor's next token; every row
// equals the row stored by the step that wrote it).
#pragma once
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts::test {

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

inline bool same_scores(const std::vector<TokenScore>& a, const std::vector<TokenScore>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || std::memcmp(&a[i].logit, &b[i].logit, 4) != 0 ||
        std::memcmp(&a[i].p, &b[i].p, 4) != 0) {
      return false;
    }
  }
  return true;
}

inline bool same_candidates(const std::vector<Candidate>& a, const std::vector<Candidate>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || a[i].kept != b[i].kept ||
        std::memcmp(&a[i].logit, &b[i].logit, 4) != 0 || std::memcmp(&a[i].p, &b[i].p, 4) != 0) {
      return false;
    }
  }
  return true;
}

// Everything but the measured wall time.
inline void check_same_forward(const ForwardRecord& a, const ForwardRecord& b) {
  CHECK(a.phase == b.phase);
  CHECK(a.first_pos == b.first_pos);
  CHECK(a.n_positions == b.n_positions);
  CHECK(a.input_ids == b.input_ids);
  CHECK(same_bits(a.logits, b.logits));
  REQUIRE(a.position_top.size() == b.position_top.size());
  for (size_t i = 0; i < a.position_top.size(); ++i) {
    CHECK(same_scores(a.position_top[i], b.position_top[i]));
  }
  REQUIRE(a.attention.size() == b.attention.size());
  for (size_t i = 0; i < a.attention.size(); ++i) {
    CHECK(a.attention[i].probs_f16 == b.attention[i].probs_f16);
  }
  REQUIRE(a.logit_lens.size() == b.logit_lens.size());
  for (size_t i = 0; i < a.logit_lens.size(); ++i) {
    CHECK(same_scores(a.logit_lens[i], b.logit_lens[i]));
  }
  CHECK(same_bits(a.residual_norms, b.residual_norms));
  CHECK(same_bits(a.lens_residuals, b.lens_residuals));
  CHECK(a.kv.length_before == b.kv.length_before);
  CHECK(a.kv.length_after == b.kv.length_after);
  CHECK(a.cost.flops == b.cost.flops);
}

inline void check_same_step(const Step& a, const Step& b) {
  CHECK(a.index == b.index);
  CHECK(a.token == b.token);
  CHECK(a.sampled_token == b.sampled_token);
  CHECK(a.forced == b.forced);
  CHECK(a.position == b.position);
  CHECK(a.piece == b.piece);
  CHECK(a.stop == b.stop);
  CHECK(std::memcmp(&a.chosen_p, &b.chosen_p, 4) == 0);
  CHECK(a.chosen_rank == b.chosen_rank);
  check_same_forward(*a.forward, *b.forward);
  CHECK(same_candidates(a.sampling.raw, b.sampling.raw));
  CHECK(same_candidates(a.sampling.final_dist, b.sampling.final_dist));
  REQUIRE(a.sampling.stages.size() == b.sampling.stages.size());
  for (size_t i = 0; i < a.sampling.stages.size(); ++i) {
    CHECK(same_candidates(a.sampling.stages[i].top, b.sampling.stages[i].top));
  }
  CHECK(a.sampling.draw.u == b.sampling.draw.u);
  CHECK(a.sampling.draw.chosen_id == b.sampling.draw.chosen_id);
  REQUIRE(a.kv_rows->k.size() == b.kv_rows->k.size());
  for (size_t l = 0; l < a.kv_rows->k.size(); ++l) {
    CHECK(a.kv_rows->k[l] == b.kv_rows->k[l]);
    CHECK(a.kv_rows->v[l] == b.kv_rows->v[l]);
  }
}

// KV length == position of the cursor's next token, and every cached row equals the row the
// path's step stored when it computed it.
inline void check_kv_invariant(const Session& s, int lane) {
  const int n_prompt = static_cast<int>(prompt_tokens(s).size());
  const Step* cur = current_step(s, lane);
  const int expect = cur ? n_prompt + cur->index : 0;
  REQUIRE(kv_length(s, lane) == expect);
  const KvCache& kv = s.lanes()[lane].kv;
  for (int p = 0; p < kv.length(); ++p) {
    const int k = p < n_prompt ? 0 : p - n_prompt + 1;
    const Step* st = step_at(s, lane, k);
    REQUIRE(st != nullptr);
    const KvRows& rows = *st->kv_rows;
    for (int l = 0; l < kv.n_layers(); ++l) {
      REQUIRE(kv.keys(l).row(p) == rows.k[l].row(p - rows.first_pos));
      REQUIRE(kv.values(l).row(p) == rows.v[l].row(p - rows.first_pos));
    }
  }
}

inline std::vector<int> path_ids(const Session& s, int lane) {
  std::vector<int> ids;
  for (int k = 0; k < path_length(s, lane); ++k) ids.push_back(step_at(s, lane, k)->token);
  return ids;
}

}  // namespace ts::test
