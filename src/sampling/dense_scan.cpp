// The vocabulary-wide passes of the fast sampler (dense_scan.h): chunked over a ThreadPool, each
// chunk walking runs of tokens without an override with Eigen packet maths (float max, double
// exp) and the few penalised tokens one by one, in index order.
#include "sampling/dense_scan.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>

#include "base/tensor.h"  // Eigen, with GCC 12's false AVX-512 warnings silenced
#include "engine/thread_pool.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace ts {

namespace {

constexpr double kScanInf = std::numeric_limits<double>::infinity();
using FloatArray = Eigen::Map<const Eigen::ArrayXf>;

// Chunks depend only on the vocabulary size, so a pool (or none) never changes a result.
int chunk_count(int n) { return n < 16384 ? 1 : 2 * ((n + 16383) / 16384); }

template <class F>
void for_chunks(int n, ThreadPool* pool, F&& f) {  // f(chunk, begin, end)
  const int nc = chunk_count(n);
  auto body = [&](int c, int) {
    const Range r = split_range(n, c, nc, 16);
    f(c, r.begin, r.end);
  };
  if (pool) {
    pool->run(nc, body);
  } else {
    for (int c = 0; c < nc; ++c) body(c, nc);
  }
}

// Walks [begin, end): run(a, b) for the stretches without an override, one(id, value) for each
// overridden token, in index order.
template <class Run, class One>
void for_runs(const DenseLogits& d, int begin, int end, Run&& run, One&& one) {
  auto it =
      std::lower_bound(d.over.begin(), d.over.end(), std::pair<int, double>(begin, -kScanInf));
  int i = begin;
  for (; it != d.over.end() && it->first < end; ++it) {
    if (it->first > i) run(i, it->first);
    one(it->first, it->second);
    i = it->first + 1;
  }
  if (i < end) run(i, end);
}

// Ids in [begin, end) whose raw float is >= tau, ascending: 16 compared at once.
void chunk_at_least(std::span<const float> x, int begin, int end, float tau,
                    std::vector<int>& out) {
  int i = begin;
#if defined(__AVX512F__)
  const __m512 t = _mm512_set1_ps(tau);
  for (; i + 16 <= end; i += 16) {
    uint32_t m = _mm512_cmp_ps_mask(_mm512_loadu_ps(x.data() + i), t, _CMP_GE_OQ);
    while (m != 0) {
      out.push_back(i + std::countr_zero(m));
      m &= m - 1;
    }
  }
#else
  for (; i + 16 <= end; i += 16) {
    if (FloatArray(x.data() + i, 16).maxCoeff() < tau) continue;
    for (int j = i; j < i + 16; ++j) {
      if (x[j] >= tau) out.push_back(j);
    }
  }
#endif
  for (; i < end; ++i) {
    if (x[i] >= tau) out.push_back(i);
  }
}

// Ids (ascending) whose raw float is >= tau, the chunks on the pool.
std::vector<int> at_least(std::span<const float> x, float tau, ThreadPool* pool) {
  const int size = static_cast<int>(x.size());
  std::vector<std::vector<int>> parts(static_cast<size_t>(chunk_count(size)));
  for_chunks(size, pool, [&](int c, int b, int e) { chunk_at_least(x, b, e, tau, parts[c]); });
  std::vector<int> out;
  for (const std::vector<int>& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Ids of at least `cap` tokens (all of them if fewer) that include the best `cap` by raw float:
// those at or above a threshold guessed from every stride-th logit, lowered until enough pass.
std::vector<int> top_superset(std::span<const float> x, size_t cap, ThreadPool* pool) {
  const size_t size = x.size();
  constexpr size_t kSample = 1024;
  const size_t stride = std::max<size_t>(1, size / kSample);
  std::vector<float> sample;
  sample.reserve(size / stride + 1);
  for (size_t i = 0; i < size; i += stride) sample.push_back(x[i]);
  // Twice the share of the sample that the best `cap` should hold, plus a margin.
  size_t want = 2 * cap * sample.size() / size + 16;
  while (true) {
    float tau = -std::numeric_limits<float>::infinity();
    if (want < sample.size()) {
      std::nth_element(sample.begin(), sample.begin() + static_cast<std::ptrdiff_t>(want),
                       sample.end(), std::greater<float>());
      tau = sample[want];
    }
    std::vector<int> ids = at_least(x, tau, pool);
    if (ids.size() >= cap || want >= sample.size()) return ids;
    want *= 4;
  }
}

#if defined(__AVX512F__)
// exp of 8 doubles <= 0 to within 2 ulp of std::exp (1.7x faster than Eigen's packet exp here):
// x = n ln2 + r with ln2 in two parts (|r| <= ln2 / 2), e^r by its Taylor polynomial to degree
// 13 in Estrin's scheme (remainder < 2^-55), scaled by 2^n with vscalefpd. Inputs below -746
// are clamped there, where both this and std::exp give 0.
__m512d exp_pd(__m512d x) {
  auto c = [](double v) { return _mm512_set1_pd(v); };
  x = _mm512_max_pd(x, c(-746.0));
  const __m512d n = _mm512_roundscale_pd(_mm512_mul_pd(x, c(1.4426950408889634)),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512d r = _mm512_fnmadd_pd(n, c(6.93147180369123816490e-01), x);
  r = _mm512_fnmadd_pd(n, c(1.90821492927058770002e-10), r);
  const __m512d r2 = _mm512_mul_pd(r, r), r4 = _mm512_mul_pd(r2, r2), r8 = _mm512_mul_pd(r4, r4);
  const __m512d p01 = _mm512_fmadd_pd(r, c(1.0), c(1.0));
  const __m512d p23 = _mm512_fmadd_pd(r, c(1.0 / 6), c(0.5));
  const __m512d p45 = _mm512_fmadd_pd(r, c(1.0 / 120), c(1.0 / 24));
  const __m512d p67 = _mm512_fmadd_pd(r, c(1.0 / 5040), c(1.0 / 720));
  const __m512d p89 = _mm512_fmadd_pd(r, c(1.0 / 362880), c(1.0 / 40320));
  const __m512d pab = _mm512_fmadd_pd(r, c(1.0 / 39916800), c(1.0 / 3628800));
  const __m512d pcd = _mm512_fmadd_pd(r, c(1.0 / 6227020800.0), c(1.0 / 479001600));
  const __m512d p03 = _mm512_fmadd_pd(r2, p23, p01);
  const __m512d p47 = _mm512_fmadd_pd(r2, p67, p45);
  const __m512d p8b = _mm512_fmadd_pd(r2, pab, p89);
  const __m512d p07 = _mm512_fmadd_pd(r4, p47, p03);
  const __m512d p8d = _mm512_fmadd_pd(r4, pcd, p8b);
  return _mm512_scalef_pd(_mm512_fmadd_pd(r8, p8d, p07), n);
}
#endif

// e^x for one value with the same function as dense_probs's runs (so equal values stay equal).
double dense_exp(double x) {
#if defined(__AVX512F__)
  return _mm512_cvtsd_f64(exp_pd(_mm512_set1_pd(x)));
#else
  return std::exp(x);
#endif
}

// sum += exp(v - m), xsum += exp(v - m) * (v - m) over the tokens [i, j) (no override among
// them), v = base_value. AVX-512: 16 floats widened to two double packets, exp_pd, separate
// accumulators; else Eigen arrays with Eigen's packet exp. The tail goes through std::exp.
void run_exp_sums(const DenseLogits& d, int i, int j, double m, bool with_x, double& sum,
                  double& xsum) {
  const float* x = d.base.data();
#if defined(__AVX512F__)
  const __m512d vm = _mm512_set1_pd(m), vd = _mm512_set1_pd(d.divisor);
  __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
  __m512d x0 = _mm512_setzero_pd(), x1 = _mm512_setzero_pd();
  for (; i + 16 <= j; i += 16) {
    const __m512 f = _mm512_loadu_ps(x + i);
    __m512d a = _mm512_cvtps_pd(_mm512_castps512_ps256(f));
    __m512d b =
        _mm512_cvtps_pd(_mm256_castsi256_ps(_mm512_extracti64x4_epi64(_mm512_castps_si512(f), 1)));
    if (d.divided) {
      a = _mm512_div_pd(a, vd);
      b = _mm512_div_pd(b, vd);
    }
    a = _mm512_sub_pd(a, vm);
    b = _mm512_sub_pd(b, vm);
    const __m512d ea = exp_pd(a);
    const __m512d eb = exp_pd(b);
    s0 = _mm512_add_pd(s0, ea);
    s1 = _mm512_add_pd(s1, eb);
    if (with_x) {
      x0 = _mm512_fmadd_pd(ea, a, x0);
      x1 = _mm512_fmadd_pd(eb, b, x1);
    }
  }
  sum += _mm512_reduce_add_pd(_mm512_add_pd(s0, s1));
  if (with_x) xsum += _mm512_reduce_add_pd(_mm512_add_pd(x0, x1));
#else
  constexpr int kTile = 512;  // doubles kept in L1 between the exp and the sums
  Eigen::Array<double, Eigen::Dynamic, 1> xs(kTile), es(kTile);
  for (; i + kTile <= j; i += kTile) {
    xs = FloatArray(x + i, kTile).cast<double>();
    if (d.divided) xs /= d.divisor;
    xs -= m;
    es = xs.exp();
    sum += es.sum();
    if (with_x) xsum += (es * xs).sum();
  }
#endif
  for (; i < j; ++i) {
    const double v = d.base_value(i) - m;
    const double e1 = std::exp(v);
    sum += e1;
    if (with_x) xsum += e1 * v;
  }
}

}  // namespace

double DenseLogits::value(int i) const {
  const auto it = std::lower_bound(over.begin(), over.end(), std::pair<int, double>(i, -kScanInf));
  if (it != over.end() && it->first == i) return it->second;
  return base_value(i);
}

DenseSums dense_sums(const DenseLogits& d, bool with_x, ThreadPool* pool, double known_max) {
  const int n = d.size();
  const int nc = chunk_count(n);
  std::vector<double> part(static_cast<size_t>(nc) * 2, -kScanInf);
  if (!std::isnan(known_max)) {
    part.assign(part.size(), -kScanInf);
    part[0] = known_max;
  } else {
    // Max: division by a positive divisor is monotone, so the max of a run is its float max's.
    for_chunks(n, pool, [&](int c, int b, int e) {
      double m = -kScanInf;
      for_runs(
          d, b, e,
          [&](int i, int j) {
            const double fm = FloatArray(d.base.data() + i, j - i).maxCoeff();
            m = std::max(m, d.divided ? fm / d.divisor : fm);
          },
          [&](int, double v) { m = std::max(m, v); });
      part[c] = m;
    });
  }
  DenseSums s;
  s.max = *std::max_element(part.begin(), part.begin() + nc);
  const double m = s.max;
  for_chunks(n, pool, [&](int c, int b, int e) {
    double sum = 0, xsum = 0;
    for_runs(
        d, b, e, [&](int i, int j) { run_exp_sums(d, i, j, m, with_x, sum, xsum); },
        [&](int, double v) {
          const double e1 = std::exp(v - m);
          sum += e1;
          if (with_x) xsum += e1 * (v - m);
        });
    part[2 * c] = sum;
    part[2 * c + 1] = xsum;
  });
  for (int c = 0; c < nc; ++c) {
    s.sum += part[2 * c];
    s.xsum += part[2 * c + 1];
  }
  return s;
}

std::vector<double> dense_probs(const DenseLogits& d, double max, double inv, ThreadPool* pool) {
  std::vector<double> out(static_cast<size_t>(d.size()));
  for_chunks(d.size(), pool, [&](int, int b, int e) {
    for_runs(
        d, b, e,
        [&](int i, int j) {
#if defined(__AVX512F__)
          // 8 at a time, the run's tail padded: every token through exp_pd.
          const __m512d vm = _mm512_set1_pd(max), vi = _mm512_set1_pd(inv);
          const __m512d vd = _mm512_set1_pd(d.divisor);
          auto eight = [&](const float* src, double* dst) {
            __m512d x = _mm512_cvtps_pd(_mm256_loadu_ps(src));
            if (d.divided) x = _mm512_div_pd(x, vd);
            _mm512_storeu_pd(dst, _mm512_mul_pd(exp_pd(_mm512_sub_pd(x, vm)), vi));
          };
          int t = i;
          for (; t + 8 <= j; t += 8) eight(d.base.data() + t, out.data() + t);
          if (t < j) {  // the tail, padded to eight
            float src[8] = {};
            double dst[8];
            std::copy(d.base.data() + t, d.base.data() + j, src);
            eight(src, dst);
            std::copy(dst, dst + (j - t), out.data() + t);
          }
#else
          for (int t = i; t < j; ++t) {
            out[static_cast<size_t>(t)] = std::exp(d.base_value(t) - max) * inv;
          }
#endif
        },
        [&](int id, double v) { out[static_cast<size_t>(id)] = dense_exp(v - max) * inv; });
  });
  return out;
}

std::vector<int> dense_top(const DenseLogits& d, size_t n, ThreadPool* pool) {
  const int size = d.size();
  n = std::min(n, static_cast<size_t>(size));
  std::vector<std::pair<double, int>> cand;  // (value, id)
  if (n == static_cast<size_t>(size)) {
    cand.reserve(n);
    for (int i = 0; i < size; ++i) cand.push_back({d.value(i), i});
  } else {
    // The best n + overrides by raw float (the same order as by value for tokens without an
    // override: distinct floats stay distinct after the division), then the overrides with
    // their own values.
    const std::vector<int> ids = top_superset(d.base, n + d.over.size(), pool);
    cand.reserve(ids.size() + d.over.size());
    auto ov = d.over.begin();
    for (int id : ids) {  // ascending, like the overrides
      while (ov != d.over.end() && ov->first < id) ++ov;
      if (ov != d.over.end() && ov->first == id) continue;
      cand.push_back({d.base_value(id), id});
    }
    for (const auto& [id, v] : d.over) cand.push_back({v, id});
  }
  auto before = [](const std::pair<double, int>& a, const std::pair<double, int>& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  const size_t keep = std::min(n, cand.size());
  std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(keep), cand.end(),
                    before);
  std::vector<int> out(keep);
  for (size_t r = 0; r < keep; ++r) out[r] = cand[r].second;
  return out;
}

std::vector<int> dense_at_least(const DenseLogits& d, double lo, ThreadPool* pool) {
  const int size = d.size();
  const double loose = lo - 1e-6 * std::max(1.0, std::abs(lo));
  // The float bound below which base_value(i) < loose for sure.
  const double fb = d.divided ? loose * d.divisor : loose;
  constexpr float kFloatMax = std::numeric_limits<float>::max();
  constexpr float kFloatInf = std::numeric_limits<float>::infinity();
  const float f_lo = fb < -kFloatMax  ? -kFloatInf
                     : fb > kFloatMax ? kFloatInf  // no raw float reaches it
                                      : std::nextafter(static_cast<float>(fb), -kFloatInf);
  const int nc = chunk_count(size);
  std::vector<std::vector<int>> parts(static_cast<size_t>(nc));
  for_chunks(size, pool, [&](int c, int b, int e) {
    std::vector<int>& out = parts[c];
    for_runs(
        d, b, e,
        [&](int i, int j) {
          constexpr int kBlock = 16;
          int t = i;
          for (; t + kBlock <= j; t += kBlock) {
            if (FloatArray(d.base.data() + t, kBlock).maxCoeff() < f_lo) continue;
            for (int q = t; q < t + kBlock; ++q) {
              if (d.base[q] >= f_lo && d.base_value(q) >= loose) out.push_back(q);
            }
          }
          for (; t < j; ++t) {
            if (d.base[t] >= f_lo && d.base_value(t) >= loose) out.push_back(t);
          }
        },
        [&](int id, double v) {
          if (v >= loose) out.push_back(id);
        });
  });
  std::vector<int> out;
  for (const std::vector<int>& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

bool all_finite(std::span<const float> logits, ThreadPool* pool, float* max) {
  const int n = static_cast<int>(logits.size());
  const int nc = chunk_count(n);
  std::vector<uint8_t> ok(static_cast<size_t>(nc), 1);
  std::vector<float> mx(static_cast<size_t>(nc), -std::numeric_limits<float>::infinity());
  for_chunks(n, pool, [&](int c, int b, int e) {
    // x - x is 0 for a finite x and NaN for NaN or an infinity; NaN survives the sum.
    float acc = 0, m = -std::numeric_limits<float>::infinity();
    int i = b;
#if defined(__AVX512F__)
    __m512 va = _mm512_setzero_ps(), vm = _mm512_set1_ps(m);
    for (; i + 16 <= e; i += 16) {
      const __m512 f = _mm512_loadu_ps(logits.data() + i);
      va = _mm512_add_ps(va, _mm512_sub_ps(f, f));
      vm = _mm512_max_ps(vm, f);
    }
    acc = _mm512_reduce_add_ps(va);
    m = _mm512_reduce_max_ps(vm);
#endif
    for (; i < e; ++i) {
      acc += logits[i] - logits[i];
      m = std::max(m, logits[i]);
    }
    ok[c] = acc == 0 ? 1 : 0;
    mx[c] = m;
  });
  if (max) *max = *std::max_element(mx.begin(), mx.end());
  return std::all_of(ok.begin(), ok.end(), [](uint8_t x) { return x != 0; });
}

}  // namespace ts
