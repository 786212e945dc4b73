// dot_rows / dot_fixed (engine/dot_rows.h): hand-checked values, agreement with Eigen's product,
// and the property the forward pass relies on: a row's outputs are bit-identical whether it is
// computed alone or in a group, and whatever the thread count.
#include <doctest/doctest.h>

#include <cstring>

#include "base/rng.h"
#include "engine/dot_rows.h"

using namespace ts;

namespace {

Mat dot_rows_random(int rows, int cols, uint64_t seed) {
  SplitMix rng(seed);
  Mat m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(rng.uniform() * 2 - 1);
  return m;
}

bool same_bits(const float* a, const float* b, size_t n) { return std::memcmp(a, b, n * 4) == 0; }

}  // namespace

TEST_CASE("dot_fixed: small hand-checked sums, every tail length") {
  const float a[3] = {1, 2, 3}, b[3] = {4, -5, 6};
  CHECK(dot_fixed(a, b, 3) == 12.0f);  // 4 - 10 + 18
  CHECK(dot_fixed(a, b, 0) == 0.0f);
  for (int n : {1, 7, 15, 16, 17, 31, 32, 33, 100}) {
    std::vector<float> x(n), y(n);
    double want = 0;
    for (int i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 5) - 2.0f;  // small integers: every sum is exact
      y[i] = static_cast<float>(i % 3) + 1.0f;
      want += static_cast<double>(x[i]) * y[i];
    }
    CHECK(dot_fixed(x.data(), y.data(), n) == static_cast<float>(want));
  }
}

TEST_CASE("dot_rows: agrees with Eigen's product; odd shapes") {
  for (auto [out, in, T] : {std::array{5, 3, 1}, {37, 19, 2}, {64, 288, 6}, {101, 33, 9}}) {
    const Mat w = dot_rows_random(out, in, 1);  // (out, in)
    const Mat x = dot_rows_random(T, in, 2);    // (T, in)
    Mat y(T, out);
    ThreadPool pool(2);
    dot_rows(pool, w, x.data(), in, T, y.data(), out);
    const Mat want = x * w.transpose();  // (T, out)
    CHECK((y - want).cwiseAbs().maxCoeff() < 1e-5f);
  }
}

TEST_CASE("dot_rows: a row's outputs do not depend on its group or the thread count") {
  const int out = 300, in = 288, T = 7;  // T: a group of 4 and one of 3
  const Mat w = dot_rows_random(out, in, 3);
  const Mat x = dot_rows_random(T, in, 4);
  ThreadPool one(1), two(2);
  Mat all1(T, out), all2(T, out);
  dot_rows(one, w, x.data(), in, T, all1.data(), out);
  dot_rows(two, w, x.data(), in, T, all2.data(), out);
  CHECK(same_bits(all1.data(), all2.data(), static_cast<size_t>(all1.size())));
  for (int t = 0; t < T; ++t) {
    Vec alone(out);
    dot_rows(two, w, x.row(t).data(), in, 1, alone.data(), out);
    CHECK(same_bits(alone.data(), all1.row(t).data(), static_cast<size_t>(out)));
    // And each output is dot_fixed of its two rows.
    CHECK(alone[17] == dot_fixed(w.row(17).data(), x.row(t).data(), in));
  }
}
