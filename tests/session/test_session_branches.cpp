// Forcing a token forks a branch; switch_branch restores each branch's tokens and KV rows
// exactly; the branch list reports the fork; lanes share the prefill, agree when their samplers
// are equivalent, and the first divergence is reported.
#include <doctest/doctest.h>

#include "session/check.h"
#include "session/histogram.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"
#include "session/tiny_model.h"

using namespace ts;
using namespace ts::test;

namespace {

SamplerSettings temp(float t, uint64_t seed = 11, const char* label = "lane") {
  SamplerSettings s;
  s.label = label;
  stage<Temperature>(s).t = t;
  s.seed = seed;
  return s;
}

Session make_session() {
  Session s;
  REQUIRE(s.set_model(tiny_model(64, 3)).ok());
  REQUIRE(s.set_prompt("lol the").ok());
  REQUIRE(s.set_sampler(0, temp(1.0f)).ok());
  return s;
}

// A copy of every cached K row (all layers) of a lane.
std::vector<Mat> kv_snapshot(const Session& s, int lane) {
  std::vector<Mat> out;
  const KvCache& kv = s.lanes()[lane].kv;
  for (int l = 0; l < kv.n_layers(); ++l) {
    out.push_back(kv.keys(l).topRows(kv.length()));
    out.push_back(kv.values(l).topRows(kv.length()));
  }
  return out;
}

}  // namespace

TEST_CASE("force forks a branch and switch_branch restores both exactly") {
  Session s = make_session();
  REQUIRE(s.run_to(12).ok());
  const std::vector<int> a_ids = path_ids(s, 0);
  const std::vector<Mat> a_kv = kv_snapshot(s, 0);
  const int a_leaf = timeline(s, 0).path().back();

  REQUIRE(s.seek(5).ok());
  const int replaced = current_step(s)->token;
  const int replaced_node = timeline(s, 0).path()[5];
  const int forced = replaced == 280 ? 281 : 280;
  REQUIRE(s.force(forced).ok());
  CHECK(s.cursor() == 5);
  CHECK(path_length(s, 0) == 6);
  const Step* f = current_step(s);
  CHECK(f->forced);
  CHECK(f->token == forced);
  CHECK(f->sampled_token == replaced);
  CHECK(f->forward == timeline(s, 0).node(replaced_node).forward);  // same pass, other choice
  CHECK(f->chosen_rank >= 0);
  check_kv_invariant(s, 0);
  REQUIRE(s.run_to(12).ok());
  const std::vector<int> b_ids = path_ids(s, 0);
  const std::vector<Mat> b_kv = kv_snapshot(s, 0);
  const int b_leaf = timeline(s, 0).path().back();
  CHECK(std::equal(a_ids.begin(), a_ids.begin() + 5, b_ids.begin()));
  CHECK(b_ids[5] == forced);
  CHECK(a_ids != b_ids);

  // Branch list: two leaves, the second forked at step 5 by a forced token.
  const std::vector<BranchInfo> br = branches(s, 0);
  REQUIRE(br.size() == 2);
  CHECK(br[0].leaf == a_leaf);
  CHECK_FALSE(br[0].current);
  CHECK(br[1].leaf == b_leaf);
  CHECK(br[1].current);
  CHECK(br[1].fork_step == 5);
  CHECK(br[1].fork_token == forced);
  CHECK(br[1].forced);
  CHECK(br[1].length == 13);

  REQUIRE(s.switch_branch(a_leaf).ok());
  CHECK(s.cursor() == 12);
  CHECK(path_ids(s, 0) == a_ids);
  check_kv_invariant(s, 0);
  const std::vector<Mat> a_kv2 = kv_snapshot(s, 0);
  REQUIRE(a_kv2.size() == a_kv.size());
  for (size_t i = 0; i < a_kv.size(); ++i) CHECK(a_kv2[i] == a_kv[i]);

  REQUIRE(s.switch_branch(b_leaf).ok());
  CHECK(path_ids(s, 0) == b_ids);
  const std::vector<Mat> b_kv2 = kv_snapshot(s, 0);
  for (size_t i = 0; i < b_kv.size(); ++i) CHECK(b_kv2[i] == b_kv[i]);
  check_kv_invariant(s, 0);

  // Switching to an inner node moves the cursor there and keeps the newest descendants.
  const int inner = timeline(s, 0).path()[7];
  REQUIRE(s.switch_branch(inner).ok());
  CHECK(s.cursor() == 7);
  CHECK(path_ids(s, 0) == b_ids);
  check_kv_invariant(s, 0);

  // Forcing the token a node already has changes nothing; bad input is rejected.
  const int nodes = timeline(s, 0).size();
  REQUIRE(s.force(current_step(s)->token).ok());
  CHECK(timeline(s, 0).size() == nodes);
  CHECK_FALSE(s.force(-1).ok());
  CHECK_FALSE(s.force(config(s).vocab_size).ok());
  CHECK_FALSE(s.switch_branch(nodes + 5).ok());
  CHECK(timeline(s, 0).size() == nodes);
  REQUIRE(first(s).ok());
  CHECK_FALSE(s.force(280).ok());  // nothing chosen before the prefill
}

TEST_CASE("forcing the prefill's choice makes a sibling root sharing the prefill pass") {
  Session s = make_session();
  REQUIRE(s.run_to(3).ok());
  REQUIRE(s.seek(0).ok());
  const Step* root = current_step(s);
  const int forced = root->token == 280 ? 281 : 280;
  const auto prefill = root->forward;
  REQUIRE(s.force(forced).ok());
  CHECK(current_step(s)->forward == prefill);
  CHECK(current_step(s)->parent == -1);
  REQUIRE(s.step().ok());
  CHECK(current_step(s)->forward->input_ids == std::vector<int>{forced});
  check_kv_invariant(s, 0);
}

TEST_CASE("lanes share the prefill, step in lock-step and report their divergence") {
  Session s = make_session();
  REQUIRE(s.set_sampler(0, temp(0.0f, 1, "greedy")).ok());
  SamplerSettings greedy_topk = temp(0.0f, 99, "T=0 top-k 5");
  stage<TopK>(greedy_topk).k = 5;
  REQUIRE(s.add_lane(greedy_topk).ok());
  REQUIRE(s.add_lane(temp(2.0f, 5, "T=2")).ok());
  CHECK(lane_count(s) == 3);
  REQUIRE(s.run_to(25).ok());

  // One prefill pass for every lane.
  CHECK(step_at(s, 0, 0)->forward == step_at(s, 1, 0)->forward);
  CHECK(step_at(s, 0, 0)->forward == step_at(s, 2, 0)->forward);
  CHECK(step_at(s, 0, 0)->kv_rows == step_at(s, 2, 0)->kv_rows);
  // Greedy and temperature-0-with-top-k agree; the hot lane diverges.
  CHECK(path_ids(s, 0) == path_ids(s, 1));
  CHECK(first_divergence(s, 0, 1) == -1);
  const std::vector<int> g = path_ids(s, 0), h = path_ids(s, 2);
  int expect = -1;
  for (size_t k = 0; k < g.size() && k < h.size(); ++k) {
    if (g[k] != h[k]) {
      expect = static_cast<int>(k);
      break;
    }
  }
  REQUIRE(expect >= 0);
  CHECK(first_divergence(s, 0, 2) == expect);
  CHECK(first_divergence(s) == expect);
  for (int l = 0; l < 3; ++l) check_kv_invariant(s, l);
  // Decode passes are per lane (each has its own cache).
  CHECK(step_at(s, 0, 5)->forward != step_at(s, 1, 5)->forward);

  // A lane added later is computed up to the cursor and agrees with the ones computed live.
  Result<int> added = s.add_lane(temp(2.0f, 5, "T=2 again"));
  REQUIRE(added.ok());
  CHECK(added.value() == 3);
  CHECK(path_ids(s, 3) == path_ids(s, 2));
  check_kv_invariant(s, 3);
  CHECK_FALSE(s.add_lane(temp(1.0f)).ok());  // at most 4
  REQUIRE(s.remove_lane(3).ok());
  CHECK(lane_count(s) == 3);

  // Forcing in one lane leaves the others alone; stepping continues lock-step.
  REQUIRE(s.seek(10).ok());
  const std::vector<int> lane1 = path_ids(s, 1);
  const int ftok = step_at(s, 0, 10)->token == 280 ? 281 : 280;
  REQUIRE(s.force(ftok, 0).ok());
  CHECK(path_ids(s, 1) == lane1);
  REQUIRE(s.step().ok());
  CHECK(s.cursor() == 11);
  CHECK(path_length(s, 0) == 12);
  CHECK(current_step(s, 1) == step_at(s, 1, 11));
  CHECK(first_divergence(s, 0, 1) == 10);
  for (int l = 0; l < 3; ++l) check_kv_invariant(s, l);
  // Seeking beyond the short lane's path computes it.
  REQUIRE(s.seek(20).ok());
  CHECK(path_length(s, 0) == 21);
  for (int l = 0; l < 3; ++l) check_kv_invariant(s, l);

  while (lane_count(s) > 1) REQUIRE(s.remove_lane(lane_count(s) - 1).ok());
  CHECK_FALSE(s.remove_lane(0).ok());
}

TEST_CASE("changing one lane's sampler recomputes that lane and keeps its forced tokens") {
  Session s = make_session();
  REQUIRE(s.add_lane(temp(1.0f, 77, "other")).ok());
  REQUIRE(s.run_to(6).ok());
  REQUIRE(s.seek(3).ok());
  REQUIRE(s.force(290, 0).ok());
  REQUIRE(s.run_to(8).ok());
  const std::vector<int> other = path_ids(s, 1);
  const auto other_step = step_at(s, 1, 5);
  REQUIRE(s.set_sampler(0, temp(0.0f, 1, "greedy")).ok());
  CHECK(s.cursor() == 8);
  CHECK(path_length(s, 0) == 9);
  CHECK(step_at(s, 0, 3)->forced);
  CHECK(step_at(s, 0, 3)->token == 290);
  CHECK(step_at(s, 1, 5) == other_step);  // the other lane is untouched
  CHECK(path_ids(s, 1) == other);
  CHECK(step_at(s, 0, 0)->forward == step_at(s, 1, 0)->forward);  // still one shared prefill
  for (int l = 0; l < 2; ++l) check_kv_invariant(s, l);
}

TEST_CASE("branch_sampler: a mid-run sampler change re-chooses at the cursor as a new branch") {
  Session s = make_session();
  REQUIRE(s.run_to(6).ok());
  REQUIRE(s.seek(3).ok());
  const std::vector<int> before = path_ids(s, 0);  // the whole path, 0..6
  const int size_before = timeline(s, 0).size();
  const auto pass3 = step_at(s, 0, 3)->forward;
  const bool was_greedy = step_at(s, 0, 3)->sampling.draw.greedy;
  REQUIRE_FALSE(was_greedy);
  REQUIRE(s.branch_sampler(0, temp(0.0f, 1, "greedy")).ok());
  CHECK(s.cursor() == 3);
  CHECK(settings(s, 0).label == "greedy");
  CHECK(timeline(s, 0).size() == size_before + 1);  // one new node, nothing rebuilt
  CHECK(path_length(s, 0) == 4);                    // the old continuation is off the path
  for (int k = 0; k < 3; ++k) {  // history stays as the old sampler made it
    CHECK(step_at(s, 0, k)->token == before[k]);
    CHECK_FALSE(step_at(s, 0, k)->sampling.draw.greedy);
  }
  const Step* now = step_at(s, 0, 3);
  CHECK(now->sampling.draw.greedy);                 // chosen again by the new sampler
  CHECK(now->forward == pass3);                     // from the same pass
  CHECK(now->token == now->sampling.raw.front().id);
  CHECK(branches(s, 0).size() == 2);  // the old continuation is a branch
  REQUIRE(s.step().ok());
  CHECK(step_at(s, 0, 4)->sampling.draw.greedy);
  check_kv_invariant(s, 0);
  // The old branch is still there, untouched.
  int old_leaf = -1;
  for (const BranchInfo& b : branches(s, 0))
    if (!b.current) old_leaf = b.leaf;
  REQUIRE(old_leaf >= 0);
  REQUIRE(s.switch_branch(old_leaf, 0).ok());
  CHECK(path_ids(s, 0) == before);
  check_kv_invariant(s, 0);
}

TEST_CASE("branch_sampler: before the prefill it is set_sampler; invalid settings change nothing") {
  Session s = make_session();
  REQUIRE(s.branch_sampler(0, temp(0.0f, 1, "greedy")).ok());
  CHECK(timeline(s, 0).size() == 0);
  CHECK(settings(s, 0).label == "greedy");
  REQUIRE(s.run_to(2).ok());
  SamplerSettings bad = temp(1.0f, 1, "bad");
  stage<TopP>(bad).p = 2.0f;
  const int size = timeline(s, 0).size();
  CHECK_FALSE(s.branch_sampler(0, bad).ok());
  CHECK(settings(s, 0).label == "greedy");
  CHECK(timeline(s, 0).size() == size);
}

TEST_CASE("branch_sampler: an earlier step's histogram still uses the sampler that chose it") {
  Session s = make_session();  // temperature 1
  REQUIRE(s.run_to(4).ok());
  REQUIRE(s.branch_sampler(0, temp(0.0f, 1, "greedy")).ok());
  Result<Histogram> now = histogram(s, 500, 0);
  REQUIRE(now.ok());
  CHECK(now->ids.size() == 1);  // greedy: one token, every time
  REQUIRE(s.seek(2).ok());      // a step the temperature-1 sampler chose
  Result<Histogram> before = histogram(s, 500, 0);
  REQUIRE(before.ok());
  CHECK(before->ids.size() > 1);
}
