// The chain inspector on hand-made chains: stages that can never act, and stages that changed
// nothing at one step, on {0.1, 0.2, 0.3, 0.4}.
#include <doctest/doctest.h>

#include "sampling/chain_inspect.h"
#include "sampling_test_util.h"

using namespace ts;
using ts::test::logits_of;

namespace {
const std::vector<double> kPInsp = {0.1, 0.2, 0.3, 0.4};

std::vector<StageCheck> checkedInsp(const std::vector<Stage>& chain, std::vector<int> history = {}) {
  SamplerSettings s;
  s.chain = chain;
  SamplingRecord rec;
  sample(s, logits_of(kPInsp), history, 0, &rec);
  return inspect_chain(s, &rec);
}
}  // namespace

TEST_CASE("stages that can never act with these settings") {
  SamplerSettings s;  // the default chain: everything off, temperature 1
  const std::vector<StageCheck> c = inspect_chain(s, nullptr);
  REQUIRE(c.size() == 5);
  for (const StageCheck& x : c) CHECK(x.verdict == StageVerdict::NeverActs);
  CHECK(c[1].why == "off");
  CHECK(c[4].why == "t = 1 divides by one");
  CHECK(c[4].at_off_values);
  CHECK(inspector_line(s, c, false).empty());  // the app leaves the off stages out
  // Greedy first: top-p has one token left, whatever its valueInsp.
  s.chain = {Temperature{0.0f}, TopP{0.9f}, Xtc{1.0f, 0.1f}};
  const std::vector<StageCheck> g = inspect_chain(s, nullptr);
  CHECK(g[0].verdict == StageVerdict::Acts);
  CHECK(g[1].verdict == StageVerdict::NeverActs);
  CHECK(g[1].why == "after temperature 0 (greedy): one token left");
  CHECK(g[2].verdict == StageVerdict::NeverActs);
  CHECK(inspector_line(s, g) ==
        "top-p: never acts (after temperature 0 (greedy): one token left) · xtc: never acts "
        "(after temperature 0 (greedy): one token left)");
}

TEST_CASE("stages that changed nothing at this step") {
  // top-k 3 leaves {0.2, 0.3, 0.4} / 0.9; top-p 0.95 needs all three (4/9, 7/9, 1): no change.
  const std::vector<StageCheck> a = checkedInsp({TopK{3}, TopP{0.95f}});
  CHECK(a[0].verdict == StageVerdict::Acts);
  CHECK(a[1].verdict == StageVerdict::Unchanged);
  // top-p 0.7 after top-k 3 keeps 4/9 + 3/9 = 7/9 >= 0.7: it cuts 0.2.
  CHECK(checkedInsp({TopK{3}, TopP{0.7f}})[1].verdict == StageVerdict::Acts);
  // Penalties with no history change nothing; with token 3 seen, they do.
  const Penalties pen{2.0f, 0.0f, 0.0f, 64};
  CHECK(checkedInsp({pen})[0].verdict == StageVerdict::Unchanged);
  CHECK(checkedInsp({pen}, {3})[0].verdict == StageVerdict::Acts);
  // XTC whose coin did not fire changed nothing at this step (probability tiny, coin >= it).
  CHECK(checkedInsp({Xtc{1e-9f, 0.15f}})[0].verdict == StageVerdict::Unchanged);
}
