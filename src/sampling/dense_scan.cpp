// The vocabulary-wide passes of the fast sampler (dense_scan.h): chunked over a ThreadPool, each
// chunk walking runs of tokens without an override with packet maths (Eigen's float max, an
// AVX-512 double exp) and the few penalised tokens one by one, in index order.
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

// e^x for one value with the same function as the packets (so equal values keep equal terms).
double dense_exp(double x) {
#if defined(__AVX512F__)
  return _mm512_cvtsd_f64(exp_pd(_mm512_set1_pd(x)));
#else
  return std::exp(x);
#endif
}

}  // namespace

double DenseLogits::value(int i) const {
  const auto it = std::lower_bound(over.begin(), over.end(), std::pair<int, double>(i, -kScanInf));
  if (it != over.end() && it->first == i) return it->second;
  return base_value(i);
}

DenseSums dense_exps(const DenseLogits& d, std::vector<double>& out, ThreadPool* pool,
                     double known_max) {
  const int n = d.size();
  const int nc = chunk_count(n);
  std::vector<double> part(static_cast<size_t>(nc) * 2, -kScanInf);
  if (!std::isnan(known_max)) {
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
  out.resize(static_cast<size_t>(n));
  for_chunks(n, pool, [&](int c, int b, int e) {
    double sum = 0, xsum = 0;
    auto one = [&](int id, double v) {
      const double x = v - m;
      const double e1 = dense_exp(x);
      out[static_cast<size_t>(id)] = e1;
      sum += e1;
      xsum += e1 * x;
    };
    for_runs(
        d, b, e,
        [&](int i, int j) {
          int t = i;
#if defined(__AVX512F__)
          // 8 at a time into separate accumulators; the run's tail one by one, through the
          // same packet exp (dense_exp).
          const __m512d vm = _mm512_set1_pd(m), vd = _mm512_set1_pd(d.divisor);
          __m512d s0 = _mm512_setzero_pd(), x0 = _mm512_setzero_pd();
          for (; t + 8 <= j; t += 8) {
            __m512d x = _mm512_cvtps_pd(_mm256_loadu_ps(d.base.data() + t));
            if (d.divided) x = _mm512_div_pd(x, vd);
            x = _mm512_sub_pd(x, vm);
            const __m512d ex = exp_pd(x);
            _mm512_storeu_pd(out.data() + t, ex);
            s0 = _mm512_add_pd(s0, ex);
            x0 = _mm512_fmadd_pd(ex, x, x0);
          }
          sum += _mm512_reduce_add_pd(s0);
          xsum += _mm512_reduce_add_pd(x0);
#endif
          for (; t < j; ++t) one(t, d.base_value(t));
        },
        one);
    part[2 * c] = sum;
    part[2 * c + 1] = xsum;
  });
  for (int c = 0; c < nc; ++c) {
    s.sum += part[2 * c];
    s.xsum += part[2 * c + 1];
  }
  return s;
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

void dense_kept(const DenseLogits& d, std::span<const double> prob, double at, int last,
                std::vector<int>& ids, std::vector<double>& values, ThreadPool* pool) {
  const int n = d.size();
  const int nc = chunk_count(n);
  // Each chunk writes into its own slice of ids / values (sized for all of it, plus a packet's
  // slack), then the slices are moved together in order.
  std::vector<size_t> kept(static_cast<size_t>(nc), 0);
  std::vector<size_t> start(static_cast<size_t>(nc) + 1, 0);
  for (int c = 0; c < nc; ++c) {
    const Range r = split_range(n, c, nc, 16);
    start[c + 1] = start[c] + static_cast<size_t>(r.end - r.begin) + 16;
  }
  ids.resize(start[nc]);
  values.resize(start[nc]);
  for_chunks(n, pool, [&](int c, int b, int e) {
    int* pi = ids.data() + start[c];
    double* pv = values.data() + start[c];
    size_t k = 0;
    auto one = [&](int t, double v) {
      const double x = prob[static_cast<size_t>(t)];
      if (x > at || (x == at && t <= last)) {
        pi[k] = t;
        pv[k] = v;
        ++k;
      }
    };
    for_runs(
        d, b, e,
        [&](int i, int j) {
          int t = i;
#if defined(__AVX512F__) && defined(__AVX512VL__)
          // 8 at a time: the kept lanes compressed to the front of a full store (the slack
          // takes the rest), advanced by their count.
          const __m512d va = _mm512_set1_pd(at), vd = _mm512_set1_pd(d.divisor);
          const __m256i vlast = _mm256_set1_epi32(last);
          const __m256i step = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
          for (; t + 8 <= j; t += 8) {
            const __m512d x = _mm512_loadu_pd(prob.data() + t);
            const __m256i idx = _mm256_add_epi32(_mm256_set1_epi32(t), step);
            const __mmask8 gt = _mm512_cmp_pd_mask(x, va, _CMP_GT_OQ);
            const __mmask8 eq = _mm512_cmp_pd_mask(x, va, _CMP_EQ_OQ) &
                                _mm256_cmp_epi32_mask(idx, vlast, _MM_CMPINT_LE);
            const __mmask8 m = gt | eq;
            if (m == 0) continue;
            __m512d v = _mm512_cvtps_pd(_mm256_loadu_ps(d.base.data() + t));
            if (d.divided) v = _mm512_div_pd(v, vd);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(pi + k),
                                _mm256_maskz_compress_epi32(m, idx));
            _mm512_storeu_pd(pv + k, _mm512_maskz_compress_pd(m, v));
            k += static_cast<size_t>(std::popcount(static_cast<unsigned>(m)));
          }
#endif
          for (; t < j; ++t) one(t, d.base_value(t));
        },
        one);
    kept[c] = k;
  });
  size_t w = kept[0];
  for (int c = 1; c < nc; ++c) {
    std::copy_n(ids.begin() + static_cast<std::ptrdiff_t>(start[c]), kept[c], ids.begin() + w);
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(start[c]), kept[c],
                values.begin() + w);
    w += kept[c];
  }
  ids.resize(w);
  values.resize(w);
}

DenseSums sparse_softmax(std::span<const double> v, std::vector<double>& prob, ThreadPool* pool) {
  const int n = static_cast<int>(v.size());
  const int nc = chunk_count(n);
  std::vector<double> part(static_cast<size_t>(nc) * 2, -kScanInf);
  for_chunks(n, pool, [&](int c, int b, int e) {
    part[c] = b < e ? Eigen::Map<const Eigen::ArrayXd>(v.data() + b, e - b).maxCoeff() : -kScanInf;
  });
  DenseSums s;
  s.max = *std::max_element(part.begin(), part.begin() + nc);
  const double m = s.max;
  prob.resize(v.size());
  for_chunks(n, pool, [&](int c, int b, int e) {
    double sum = 0, xsum = 0;
    int j = b;
#if defined(__AVX512F__)
    const __m512d vm = _mm512_set1_pd(m);
    __m512d s0 = _mm512_setzero_pd(), x0 = _mm512_setzero_pd();
    for (; j + 8 <= e; j += 8) {
      const __m512d x = _mm512_sub_pd(_mm512_loadu_pd(v.data() + j), vm);
      const __m512d ex = exp_pd(x);
      _mm512_storeu_pd(prob.data() + j, ex);
      s0 = _mm512_add_pd(s0, ex);
      x0 = _mm512_fmadd_pd(ex, x, x0);
    }
    sum = _mm512_reduce_add_pd(s0);
    xsum = _mm512_reduce_add_pd(x0);
#endif
    for (; j < e; ++j) {
      const double x = v[static_cast<size_t>(j)] - m;
      const double ex = dense_exp(x);
      prob[static_cast<size_t>(j)] = ex;
      sum += ex;
      xsum += ex * x;
    }
    part[2 * c] = sum;
    part[2 * c + 1] = xsum;
  });
  s.sum = 0;
  for (int c = 0; c < nc; ++c) {
    s.sum += part[2 * c];
    s.xsum += part[2 * c + 1];
  }
  const double inv = 1.0 / s.sum;
  for_chunks(n, pool, [&](int, int b, int e) {
    for (int j = b; j < e; ++j) prob[static_cast<size_t>(j)] *= inv;
  });
  return s;
}

void divide_values(std::span<double> v, double t, ThreadPool* pool) {
  const int n = static_cast<int>(v.size());
  for_chunks(n, pool, [&](int, int b, int e) {
    int j = b;
#if defined(__AVX512F__)
    const __m512d vt = _mm512_set1_pd(t);
    for (; j + 8 <= e; j += 8) {
      _mm512_storeu_pd(v.data() + j, _mm512_div_pd(_mm512_loadu_pd(v.data() + j), vt));
    }
#endif
    for (; j < e; ++j) v[static_cast<size_t>(j)] /= t;
  });
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
