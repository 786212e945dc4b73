// Every hand-written backward in train/train_ops.h against central finite differences, in double
// precision on tiny sizes. The scalar being differentiated is sum(R .* y) for a fixed random R,
// so dy = R.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "base/rng.h"
#include "train/train_ops.h"

using namespace ts;
using M = MatT<double>;
using V = VecT<double>;

namespace {

M random_mat(long r, long c, uint64_t seed, double scale = 1.0) {
  SplitMix rng(seed);
  M m(r, c);
  for (long i = 0; i < m.size(); ++i) m.data()[i] = rng.normal() * scale;
  return m;
}

// Max relative error between the analytic gradient `grad` of f w.r.t. the values of `x` and the
// central difference, over every element.
double check_grad(double* x, long n, const std::function<double()>& f, const double* grad) {
  const double h = 1e-5;
  double worst = 0;
  for (long i = 0; i < n; ++i) {
    const double keep = x[i];
    x[i] = keep + h;
    const double fp = f();
    x[i] = keep - h;
    const double fm = f();
    x[i] = keep;
    const double num = (fp - fm) / (2 * h);
    const double err = std::abs(num - grad[i]) / std::max(1e-6, std::abs(num) + std::abs(grad[i]));
    worst = std::max(worst, err);
  }
  return worst;
}

double dot(const M& a, const M& b) { return (a.array() * b.array()).sum(); }

}  // namespace

TEST_CASE("linear backward matches finite differences") {
  M x = random_mat(5, 4, 1), w = random_mat(3, 4, 2), R = random_mat(5, 3, 3);
  auto f = [&] {
    M y;
    linear_forward<double>(x, CMapT<double>(w.data(), 3, 4), y);
    return dot(y, R);
  };
  M dx, dw = M::Zero(3, 4);
  MapT<double> dwm(dw.data(), 3, 4);
  linear_backward<double>(x, CMapT<double>(w.data(), 3, 4), R, dx, dwm, false);
  CHECK(check_grad(x.data(), x.size(), f, dx.data()) < 1e-6);
  CHECK(check_grad(w.data(), w.size(), f, dw.data()) < 1e-6);
  // accumulate_dx adds to what is there
  M dx2 = M::Ones(5, 4);
  linear_backward<double>(x, CMapT<double>(w.data(), 3, 4), R, dx2, dwm, true);
  CHECK((dx2 - dx - M::Ones(5, 4)).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("rmsnorm backward matches finite differences") {
  M x = random_mat(4, 6, 4), R = random_mat(4, 6, 5);
  V gain = random_mat(6, 1, 6).col(0).array() + 1.0;
  auto f = [&] {
    M y;
    V rstd;
    rmsnorm_forward<double>(x, CVMapT<double>(gain.data(), 6), 1e-5, y, rstd);
    return dot(y, R);
  };
  M y, dx;
  V rstd, dg = V::Zero(6);
  rmsnorm_forward<double>(x, CVMapT<double>(gain.data(), 6), 1e-5, y, rstd);
  VMapT<double> dgm(dg.data(), 6);
  rmsnorm_backward<double>(x, CVMapT<double>(gain.data(), 6), rstd, R, dx, dgm);
  CHECK(check_grad(x.data(), x.size(), f, dx.data()) < 1e-6);
  CHECK(check_grad(gain.data(), gain.size(), f, dg.data()) < 1e-6);
  // the output rows have RMS equal to the gain's when gain is all ones
  V ones = V::Ones(6);
  rmsnorm_forward<double>(x, CVMapT<double>(ones.data(), 6), 0.0, y, rstd);
  CHECK(std::sqrt(y.row(2).squaredNorm() / 6) == doctest::Approx(1.0));
}

TEST_CASE("swiglu backward matches finite differences") {
  M gate = random_mat(3, 5, 7, 2.0), up = random_mat(3, 5, 8), R = random_mat(3, 5, 9);
  auto f = [&] {
    M h;
    swiglu_forward<double>(gate, up, h);
    return dot(h, R);
  };
  M dgate, dup;
  swiglu_backward<double>(gate, up, R, dgate, dup);
  CHECK(check_grad(gate.data(), gate.size(), f, dgate.data()) < 1e-6);
  CHECK(check_grad(up.data(), up.size(), f, dup.data()) < 1e-6);
  M h;
  M g0 = M::Zero(1, 1), u1 = M::Ones(1, 1);
  swiglu_forward<double>(g0, u1, h);
  CHECK(h(0, 0) == 0.0);  // silu(0) = 0
}

TEST_CASE("embedding backward scatters into the used rows") {
  M table = random_mat(6, 3, 10), R = random_mat(4, 3, 11);
  std::vector<int> toks = {2, 5, 2, 0};
  auto f = [&] {
    M x;
    embedding_forward<double>(CMapT<double>(table.data(), 6, 3), toks, x);
    return dot(x, R);
  };
  M dt = M::Zero(6, 3);
  MapT<double> dtm(dt.data(), 6, 3);
  embedding_backward<double>(toks, R, dtm);
  CHECK(check_grad(table.data(), table.size(), f, dt.data()) < 1e-6);
  CHECK(dt.row(1).cwiseAbs().sum() == 0.0);
}

TEST_CASE("cross-entropy: value by hand, backward by finite differences, ignored targets") {
  M logits(1, 3);
  logits << 1.0, 2.0, 3.0;
  M probs;
  std::vector<int> t1 = {0};
  const double expect = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)) - 1.0;
  CHECK(cross_entropy_forward<double>(logits, t1, probs) == doctest::Approx(expect));

  M lg = random_mat(4, 5, 12);
  std::vector<int> t = {3, -1, 0, 4};
  auto f = [&] {
    M p;
    return cross_entropy_forward<double>(lg, t, p);
  };
  M dl;
  cross_entropy_forward<double>(lg, t, probs);
  cross_entropy_backward<double>(probs, t, dl);
  CHECK(check_grad(lg.data(), lg.size(), f, dl.data()) < 1e-6);
  CHECK(dl.row(1).cwiseAbs().sum() == 0.0);
}

TEST_CASE("rope: rotation keeps norms, inverse undoes it, backward is the inverse") {
  const int heads = 2, seq = 3;
  M x = random_mat(2 * seq, heads * 4, 13), R = random_mat(2 * seq, heads * 4, 14);
  M y = x;
  rope_apply<double>(y, heads, seq, 10000.0f, false);
  CHECK(y.row(0).isApprox(x.row(0)));  // position 0: no rotation
  CHECK(!y.row(1).isApprox(x.row(1)));
  CHECK(y.row(4).norm() == doctest::Approx(x.row(4).norm()));
  M z = y;
  rope_apply<double>(z, heads, seq, 10000.0f, true);
  CHECK((z - x).cwiseAbs().maxCoeff() < 1e-6);
  auto f = [&] {
    M yy = x;
    rope_apply<double>(yy, heads, seq, 10000.0f, false);
    return dot(yy, R);
  };
  M dx = R;
  rope_apply<double>(dx, heads, seq, 10000.0f, true);
  CHECK(check_grad(x.data(), x.size(), f, dx.data()) < 1e-6);
  // position 1, pair 0 of head 0 rotates by exactly 1 radian
  M e = M::Zero(seq, heads * 4);
  e(1, 0) = 1.0;
  rope_apply<double>(e, heads, seq, 10000.0f, false);
  CHECK(e(1, 0) == doctest::Approx(std::cos(1.0)).epsilon(1e-6));
  CHECK(e(1, 1) == doctest::Approx(std::sin(1.0)).epsilon(1e-6));
}

TEST_CASE("attention: causal, rows sum to one, backward matches finite differences") {
  const int batch = 2, seq = 4, heads = 2, hd = 3;
  const long n = batch * seq, w = heads * hd;
  M q = random_mat(n, w, 15), k = random_mat(n, w, 16), v = random_mat(n, w, 17);
  M R = random_mat(n, w, 18);
  M probs, out;
  attention_forward<double>(q, k, v, batch, seq, heads, probs, out);
  for (long r = 0; r < probs.rows(); ++r) CHECK(probs.row(r).sum() == doctest::Approx(1.0));
  CHECK(probs(1, 2) == 0.0);  // position 1 cannot see position 2
  CHECK(out.row(0).segment(0, hd).isApprox(v.row(0).segment(0, hd)));  // first position: own v
  // changing a later position's v never changes earlier outputs
  M v2 = v;
  v2.row(3) *= 5.0;
  M out2, p2;
  attention_forward<double>(q, k, v2, batch, seq, heads, p2, out2);
  CHECK(out2.topRows(3).isApprox(out.topRows(3)));

  auto f = [&] {
    M p, o;
    attention_forward<double>(q, k, v, batch, seq, heads, p, o);
    return dot(o, R);
  };
  M dq, dk, dv;
  attention_backward<double>(q, k, v, probs, R, batch, seq, heads, dq, dk, dv);
  CHECK(check_grad(q.data(), q.size(), f, dq.data()) < 1e-6);
  CHECK(check_grad(k.data(), k.size(), f, dk.data()) < 1e-6);
  CHECK(check_grad(v.data(), v.size(), f, dv.data()) < 1e-6);
}
