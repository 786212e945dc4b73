// Tests of the vocabulary-wide passes a large kept set takes (dense_scan.h, prob_order.h): the
// kept mask, the large set's softmax and division, and the crossing by bucket masses, each on a
// hand-checked case and against a plain loop on a large random one, with and without a pool.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "base/rng.h"
#include "engine/thread_pool.h"
#include "sampling/dense_scan.h"
#include "sampling/prob_order.h"

using namespace ts;

namespace {
std::vector<float> random_floats(SplitMix& rng, int n, double scale) {
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) v = static_cast<float>(scale * (rng.uniform() - 0.5));
  return x;
}
}  // namespace

TEST_CASE("dense_kept: p above the crossing's, and its equals up to the crossing's index") {
  const std::vector<float> base = {1, 2, 3, 4, 5};
  DenseLogits d;
  d.base = base;
  d.divided = true;
  d.divisor = 2;
  const std::vector<double> prob = {0.1, 0.3, 0.2, 0.2, 0.2};
  std::vector<int> ids;
  std::vector<double> values;
  dense_kept(d, prob, 0.2, 3, ids, values, nullptr);  // > 0.2: 1; == 0.2 up to 3: 2, 3
  CHECK(ids == std::vector<int>{1, 2, 3});
  CHECK(values == std::vector<double>{1.0, 1.5, 2.0});
  d.over = {{2, -7.0}};  // an override's own value
  dense_kept(d, prob, 0.2, 2, ids, values, nullptr);
  CHECK(ids == std::vector<int>{1, 2});
  CHECK(values == std::vector<double>{1.0, -7.0});
}

TEST_CASE("dense_kept on 40,000 tokens equals the plain mask, with or without a pool") {
  SplitMix rng(11);
  ThreadPool pool(2);
  const std::vector<float> base = random_floats(rng, 40000, 8);
  DenseLogits d;
  d.base = base;
  d.divided = true;
  d.divisor = 0.7;
  d.over = {{5, 1.25}, {17, -3.0}, {39999, 0.5}};
  std::vector<double> prob(base.size());
  for (size_t i = 0; i < prob.size(); ++i) prob[i] = std::floor(rng.uniform() * 64) / 64;
  const double at = 0.5;
  const int last = 20000;
  std::vector<int> want_ids;
  std::vector<double> want_values;
  for (int i = 0; i < d.size(); ++i) {
    if (prob[i] > at || (prob[i] == at && i <= last)) {
      want_ids.push_back(i);
      want_values.push_back(d.value(i));
    }
  }
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    std::vector<int> ids;
    std::vector<double> values;
    dense_kept(d, prob, at, last, ids, values, p);
    CHECK(ids == want_ids);
    CHECK(values == want_values);
  }
}

TEST_CASE("sparse_softmax: exp(v - max) / sum to the last bits, the sums for the entropy") {
  std::vector<double> prob;
  const std::vector<double> two = {0.0, std::log(3.0)};
  const DenseSums s = sparse_softmax(two, prob, nullptr);
  CHECK(s.max == two[1]);
  CHECK(s.sum == doctest::Approx(4.0 / 3));
  CHECK(prob[0] == doctest::Approx(0.25));
  CHECK(prob[1] == doctest::Approx(0.75));
  CHECK(s.xsum == doctest::Approx(-std::log(3.0) / 3));  // e^(-ln 3) x (-ln 3)

  SplitMix rng(3);
  ThreadPool pool(2);
  std::vector<double> v(100003);
  for (double& x : v) x = 30 * (rng.uniform() - 0.5);
  std::vector<double> pooled;
  const DenseSums a = sparse_softmax(v, prob, nullptr);
  const DenseSums b = sparse_softmax(v, pooled, &pool);
  CHECK(a.sum == b.sum);
  CHECK(a.xsum == b.xsum);
  CHECK(prob == pooled);
  double m = v[0], sum = 0;
  for (double x : v) m = std::max(m, x);
  for (double x : v) sum += std::exp(x - m);
  CHECK(a.max == m);
  CHECK(std::abs(a.sum - sum) <= 1e-12 * sum);
  double worst = 0;  // relative: the packet exp's 2 ulp, and the sum's order (last bits)
  for (size_t j = 0; j < v.size(); ++j) {
    const double want = std::exp(v[j] - m) * (1.0 / sum);
    if (want > 1e-300) worst = std::max(worst, std::abs(prob[j] - want) / want);
  }
  MESSAGE("worst relative distance from std::exp / sum: " << worst);
  CHECK(worst <= 1e-13);
}

TEST_CASE("divide_values: the same bits as dividing one at a time") {
  SplitMix rng(5);
  ThreadPool pool(2);
  std::vector<double> v(50001);
  for (double& x : v) x = 100 * (rng.uniform() - 0.5);
  std::vector<double> want = v;
  for (double& x : want) x /= 0.8;
  std::vector<double> pooled = v;
  divide_values(v, 0.8, nullptr);
  divide_values(pooled, 0.8, &pool);
  CHECK(v == want);
  CHECK(pooled == want);
}

TEST_CASE("cross_strip: the walk in (p desc, index) order, by bucket masses") {
  const std::vector<double> p = {0.25, 0.5, 0.0, 0.25};
  StripCrossing x = cross_strip(p, 1.0, 0.6, true);  // 0.5 (index 1), then 0.25 (index 0)
  CHECK(x.index == 0);
  CHECK(x.rank == 1);
  CHECK(x.cum_lo == 0.5);
  CHECK(x.cum_hi == 0.75);
  CHECK(!x.last);
  x = cross_strip(p, 1.0, 0.75, false);  // >= 0.75 reached at index 0, not strictly
  CHECK(x.index == 0);
  x = cross_strip(p, 1.0, 0.75, true);  // > 0.75: the tie's second, the strip's last
  CHECK(x.index == 3);
  CHECK(x.rank == 2);
  CHECK(x.last);
  CHECK(cross_strip(std::vector<double>{0.0, 0.0}, 1.0, 0.5, true).index == -1);

  // A flat 150,000: the crossing equals a walk of the full order; the pool changes nothing.
  SplitMix rng(9);
  ThreadPool pool(2);
  std::vector<double> q(150000);
  double total = 0;
  for (double& y : q) total += (y = 1.0 + rng.uniform());
  for (double& y : q) y /= total;
  const std::vector<std::pair<double, int>> order = strip_pairs(q);
  for (double u : {0.0, 0.3, 0.95, 0.999999}) {
    double cum = 0;
    size_t r = 0;
    while (r + 1 < order.size() && !(cum + order[r].first > u)) cum += order[r++].first;
    const StripCrossing a = cross_strip(q, 1.0, u, true);
    const StripCrossing b = cross_strip(q, 1.0, u, true, &pool);
    CHECK(a.index == order[r].second);
    CHECK(a.rank == static_cast<int>(r));
    CHECK(std::abs(a.cum_lo - cum) <= 1e-12);
    CHECK(b.index == a.index);
    CHECK(b.cum_lo == a.cum_lo);
    CHECK(b.cum_hi == a.cum_hi);
  }
}
