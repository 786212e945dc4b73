// Hand-checked values for the small operations (norms, RoPE, softmax, activations), top-k
// selection and the thread pool's work split.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <new>
#include <numeric>
#include <vector>

#include "base/rng.h"
#include "engine/ops.h"
#include "engine/thread_pool.h"
#include "engine/top_k.h"

using namespace ts;
using doctest::Approx;

TEST_CASE("rmsnorm divides by the root mean square and applies the gain") {
  // x = (3, 4): mean square 12.5, rms = 3.5355339.
  std::vector<float> x{3.0f, 4.0f}, g{1.0f, 2.0f}, out(2);
  rmsnorm(x, g, 0.0f, out);
  CHECK(out[0] == Approx(3.0 / std::sqrt(12.5)).epsilon(1e-6));
  CHECK(out[1] == Approx(2.0 * 4.0 / std::sqrt(12.5)).epsilon(1e-6));
  // eps enters under the root: x = (1, 1), eps = 3 -> 1 / sqrt(1 + 3) = 0.5.
  std::vector<float> ones{1.0f, 1.0f}, g1{1.0f, 1.0f};
  rmsnorm(ones, g1, 3.0f, out);
  CHECK(out[0] == Approx(0.5));
  CHECK(out[1] == Approx(0.5));
}

TEST_CASE("layernorm centres, scales by the biased std, applies gain and bias") {
  // x = (1, 2, 3, 6): mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5.
  std::vector<float> x{1, 2, 3, 6}, g{1, 1, 2, 1}, b{0, 0, 0, 10}, out(4);
  layernorm(x, g, b, 0.0f, out);
  const double s = std::sqrt(3.5);
  CHECK(out[0] == Approx(-2 / s).epsilon(1e-6));
  CHECK(out[1] == Approx(-1 / s).epsilon(1e-6));
  CHECK(out[2] == Approx(0.0).epsilon(1e-6));
  CHECK(out[3] == Approx(3 / s + 10).epsilon(1e-6));
}

TEST_CASE("softmax: known values, shift invariance, no overflow") {
  std::vector<float> x{0.0f, std::log(3.0f)};  // exp: 1, 3 -> 0.25, 0.75
  softmax(x);
  CHECK(x[0] == Approx(0.25));
  CHECK(x[1] == Approx(0.75));
  std::vector<float> big{1000.0f, 1000.0f + std::log(3.0f)};
  softmax(big);
  CHECK(big[0] == Approx(0.25));
  CHECK(big[1] == Approx(0.75));
  std::vector<float> one{-7.0f};
  softmax(one);
  CHECK(one[0] == 1.0f);
}

TEST_CASE("rope angles: pair i turns by pos * theta^(-2i/head_dim)") {
  std::vector<float> c(2), s(2);
  rope_angles(3, 4, 100.0f, c, s);  // pair 0: 3 rad; pair 1: 3 * 100^(-1/2) = 0.3 rad
  CHECK(c[0] == Approx(std::cos(3.0)));
  CHECK(s[0] == Approx(std::sin(3.0)));
  CHECK(c[1] == Approx(std::cos(0.3)));
  CHECK(s[1] == Approx(std::sin(0.3)));
}

TEST_CASE("rope rotates a known vector: adjacent pairs vs NeoX halves") {
  // One head of 4 values, pair 0 by 90 degrees, pair 1 by 180 degrees.
  const std::vector<float> cs{0.0f, -1.0f}, sn{1.0f, 0.0f};
  std::vector<float> v{1, 2, 3, 4};
  rope_adjacent(v, 4, 4, cs, sn);  // (1,2) -> (-2,1); (3,4) -> (-3,-4)
  CHECK(v == std::vector<float>{-2, 1, -3, -4});
  std::vector<float> w{1, 2, 3, 4};
  rope_neox(w, 4, 4, cs, sn);  // pairs (w0,w2)=(1,3) -> (-3,1); (w1,w3)=(2,4) -> (-2,-4)
  CHECK(w == std::vector<float>{-3, -2, 1, -4});
  // Two heads: each head rotated the same way.
  std::vector<float> two{1, 0, 0, 0, 0, 1, 0, 0};
  rope_adjacent(two, 4, 4, cs, sn);
  CHECK(two == std::vector<float>{0, 1, 0, 0, -1, 0, 0, 0});
}

TEST_CASE("partial rope turns only the first n_rot dimensions of each head") {
  // Two heads of 6 values, n_rot 4: pair 0 by 90 degrees, pair 1 by 180; dims 4, 5 untouched.
  const std::vector<float> cs{0.0f, -1.0f}, sn{1.0f, 0.0f};
  std::vector<float> w{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 7, 8};
  rope_neox(w, 6, 4, cs, sn);  // NeoX pairs (0,2), (1,3) inside the first 4
  CHECK(w == std::vector<float>{-3, -2, 1, -4, 5, 6, -3, -2, 1, -4, 7, 8});
  std::vector<float> v{1, 2, 3, 4, 5, 6};
  rope_adjacent(v, 6, 4, cs, sn);
  CHECK(v == std::vector<float>{-2, 1, -3, -4, 5, 6});
  // The angles of a 4-dimension rotation inside a wider head use n_rot in the exponent.
  std::vector<float> c(2), s(2);
  rope_angles(3, 4, 100.0f, c, s);
  CHECK(c[1] == Approx(std::cos(0.3)));
}

TEST_CASE("rope keeps the norm and relative angle: q(p).k(p') depends on p - p' only") {
  std::vector<float> cq(4), sq(4), ck(4), sk(4);
  auto dot_at = [&](int pq, int pk) {
    std::vector<float> q{0.3f, -1.2f, 0.5f, 0.9f, 1.1f, 0.2f, -0.4f, 0.7f};
    std::vector<float> k{-0.6f, 0.4f, 1.3f, 0.1f, 0.8f, -0.9f, 0.2f, 0.5f};
    rope_angles(pq, 8, 10000.0f, cq, sq);
    rope_angles(pk, 8, 10000.0f, ck, sk);
    rope_neox(q, 8, 8, cq, sq);
    rope_neox(k, 8, 8, ck, sk);
    return std::inner_product(q.begin(), q.end(), k.begin(), 0.0);
  };
  CHECK(dot_at(7, 3) == Approx(dot_at(14, 10)).epsilon(1e-5));
  CHECK(dot_at(7, 3) != Approx(dot_at(7, 5)).epsilon(1e-3));
}

TEST_CASE("activations: silu and the tanh form of GELU") {
  CHECK(silu(0.0f) == 0.0f);
  CHECK(silu(1.0f) == Approx(1.0 / (1.0 + std::exp(-1.0))));
  CHECK(silu(-2.0f) == Approx(-2.0 / (1.0 + std::exp(2.0))));
  CHECK(gelu_tanh(0.0f) == 0.0f);
  // 0.5 (1 + tanh(0.7978845608 * 1.044715)) = 0.8411920
  CHECK(gelu_tanh(1.0f) == Approx(0.8411920).epsilon(1e-6));
  CHECK(gelu_tanh(-1.0f) == Approx(-0.1588080).epsilon(1e-5));
  CHECK(gelu_tanh(3.0f) == Approx(2.9963627).epsilon(1e-6));
}

TEST_CASE("top_k_scores: best first, ties by lower id, p from the full softmax") {
  const std::vector<float> logits{1.0f, 5.0f, -2.0f, 5.0f, 3.0f, 0.0f};
  std::vector<TokenScore> top;
  top_k_scores(logits, 3, top);
  REQUIRE(top.size() == 3);
  CHECK(top[0].id == 1);
  CHECK(top[1].id == 3);
  CHECK(top[2].id == 4);
  double z = 0;
  for (float l : logits) z += std::exp(l);
  CHECK(top[0].p == Approx(std::exp(5.0) / z));
  CHECK(top[2].p == Approx(std::exp(3.0) / z));
  top_k_scores(logits, 100, top);  // k larger than the vector: all of it, sorted
  REQUIRE(top.size() == logits.size());
  CHECK(top.back().id == 2);
  double psum = 0;
  for (const TokenScore& s : top) psum += s.p;
  CHECK(psum == Approx(1.0));
  top_k_scores(logits, 0, top);
  CHECK(top.empty());
}

TEST_CASE("split_range covers [0, n) exactly once with aligned boundaries") {
  for (int nt : {1, 2, 3, 7}) {
    for (int n : {0, 1, 5, 16, 33, 100}) {
      int covered = 0, prev_end = 0;
      for (int t = 0; t < nt; ++t) {
        const Range r = split_range(n, t, nt, 4);
        CHECK(r.begin == prev_end);
        CHECK((r.begin % 4 == 0 || r.begin == n));
        covered += r.size();
        prev_end = r.end;
      }
      CHECK(covered == n);
      CHECK(prev_end == n);
    }
  }
}

TEST_CASE("ThreadPool runs every chunk exactly once per job, many jobs in a row") {
  for (int n_threads : {1, 2, 3}) {
    ThreadPool pool(n_threads);
    CHECK(pool.size() == n_threads);
    for (int n_chunks : {1, 2, 7}) {
      std::vector<std::atomic<long>> sums(n_chunks);
      for (int job = 0; job < 500; ++job) {
        pool.run(n_chunks, [&](int c, int nc) {
          CHECK(nc == n_chunks);
          sums[c] += job;
        });
      }
      for (const auto& s : sums) CHECK(s.load() == 499L * 500 / 2);
    }
    int calls = 0;
    pool.run(0, [&](int, int) { ++calls; });
    CHECK(calls == 0);
  }
}

TEST_CASE(
    "ThreadPool: a chunk that throws (out of memory) reaches the caller, and the pool works on") {
  for (int n_threads : {1, 2, 3}) {
    ThreadPool pool(n_threads);
    for (int round = 0; round < 50; ++round) {
      std::atomic<int> ran{0};
      CHECK_THROWS_AS(pool.run(8,
                               [&](int c, int) {
                                 ++ran;
                                 if (c == 3) throw std::bad_alloc();
                               }),
                      std::bad_alloc);
      CHECK(ran.load() >= 1);
      CHECK(ran.load() <= 8);
      // The next job runs every chunk again: nothing left over from the failed one.
      std::atomic<int> all{0};
      pool.run(8, [&](int, int) { ++all; });
      CHECK(all.load() == 8);
    }
  }
}

TEST_CASE("top_k_scores: a large vocabulary gives what a full sort gives (block skipping)") {
  SplitMix rng(11);
  std::vector<float> logits(32000 + 7);  // not a multiple of the block
  for (float& l : logits) l = static_cast<float>(std::floor(rng.uniform() * 200.0));  // many ties
  logits[31999] = 500.0f;  // the best entry late, in the last block
  std::vector<int> ids(logits.size());
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  for (int k : {1, 5, 10, 40}) {
    std::vector<TokenScore> top;
    top_k_scores(logits, k, top);
    REQUIRE(top.size() == static_cast<size_t>(k));
    for (int i = 0; i < k; ++i) CHECK(top[i].id == ids[i]);
  }
}

TEST_CASE("softmax and silu_mul: the same bits wherever the vector sits in memory") {
  SplitMix rng(5);
  for (int n : {1, 5, 16, 17, 40, 255}) {
    std::vector<float> v(n), u(n);
    for (int i = 0; i < n; ++i) {
      v[i] = static_cast<float>(rng.uniform() * 20 - 10);
      u[i] = static_cast<float>(rng.uniform() * 2 - 1);
    }
    std::vector<float> buf(n + 3);  // a copy one float off the original alignment
    for (int shift : {1, 3}) {
      std::vector<float> a = v;
      std::copy(v.begin(), v.end(), buf.begin() + shift);
      softmax(a);
      softmax({buf.data() + shift, static_cast<size_t>(n)});
      CHECK(std::equal(a.begin(), a.end(), buf.begin() + shift));
      double sum = 0;
      for (float p : a) sum += p;
      CHECK(sum == Approx(1.0).epsilon(1e-6));
    }
    std::vector<float> g = v, g2(n + 1);
    std::copy(v.begin(), v.end(), g2.begin() + 1);
    silu_mul(g, u);
    silu_mul({g2.data() + 1, static_cast<size_t>(n)}, u);
    CHECK(std::equal(g.begin(), g.end(), g2.begin() + 1));
    for (int i = 0; i < n; ++i) CHECK(g[i] == Approx(silu(v[i]) * u[i]).epsilon(1e-5));
  }
}
