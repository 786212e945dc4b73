// The bandwidth and FMA probes (see bench_probes.h). GCC/clang vector extensions at the native
// width; the contraction of a * m + c into one FMA instruction is the compilers' default for
// gnu++20 (GCC -ffp-contract=fast, clang "on": within one expression). Every result is summed
// and compared with what the arithmetic must give, so neither loop can be dropped.
#include "cli/bench_probes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "engine/thread_pool.h"

namespace ts::cli {

namespace {

#if defined(__AVX512F__)
constexpr int kProbeLanes = 16;
#elif defined(__AVX__)
constexpr int kProbeLanes = 8;
#else
constexpr int kProbeLanes = 4;
#endif
typedef float ProbeVec __attribute__((vector_size(kProbeLanes * sizeof(float))));

constexpr int kReadAccs = 4;  // independent add chains in the read loop
constexpr int kFmaAccs = 12;  // independent FMA chains: > latency (4) x ports (2)
constexpr int kChunksPerThread = 8;

using ProbeClock = std::chrono::steady_clock;

// Read by fma_chains so that the compiler cannot treat it as a const function and compute it
// once for several chunks or repetitions.
volatile float g_probe_offset = 0.0f;

double probe_seconds(ProbeClock::time_point t0) {
  return std::chrono::duration<double>(ProbeClock::now() - t0).count();
}

float lane_sum(ProbeVec v) {
  float s = 0;
  for (int i = 0; i < kProbeLanes; ++i) s += v[i];
  return s;
}

// Sum of n vectors from p, kReadAccs chains. n is a multiple of kReadAccs.
double read_sum(const ProbeVec* p, size_t n) {
  ProbeVec a[kReadAccs] = {};
  for (size_t i = 0; i < n; i += kReadAccs) {
#pragma GCC unroll 8
    for (int k = 0; k < kReadAccs; ++k) a[k] += p[i + k];
  }
  double s = 0;
  for (int k = 0; k < kReadAccs; ++k) s += lane_sum(a[k]);
  return s;
}

// iters rounds of a = a * m + c on kFmaAccs vectors; returns the sum of every lane.
double fma_chains(long iters) {
  const float offset = g_probe_offset;
  ProbeVec a[kFmaAccs];
  for (int k = 0; k < kFmaAccs; ++k) {
    a[k] = ProbeVec{} + (0.5f + 0.1f * static_cast<float>(k) + offset);
  }
  const ProbeVec m = ProbeVec{} + 0.999f, c = ProbeVec{} + 0.001f;  // fixed point 1.0
  for (long it = 0; it < iters; ++it) {
#pragma GCC unroll 16
    for (int k = 0; k < kFmaAccs; ++k) a[k] = a[k] * m + c;
  }
  double s = 0;
  for (int k = 0; k < kFmaAccs; ++k) s += lane_sum(a[k]);
  return s;
}

}  // namespace

int probe_vector_floats() { return kProbeLanes; }

FmaProbe run_fma_probe(ThreadPool& pool, double fma_flops, int repeats) {
  // Every chunk runs fma_flops / kChunksPerThread FLOPs of independent chains.
  FmaProbe r;
  const int n_chunks = pool.size() * kChunksPerThread;
  std::vector<double> partial(n_chunks);
  const double flops_per_iter = 2.0 * kFmaAccs * kProbeLanes;
  const long iters =
      std::max(1L, static_cast<long>(fma_flops / kChunksPerThread / flops_per_iter));
  bool ok = true;
  for (int rep = 0; rep <= std::max(1, repeats); ++rep) {  // rep 0 warms up
    const auto t0 = ProbeClock::now();
    pool.run(n_chunks, [&](int t, int) { partial[t] = fma_chains(iters); });
    const double secs = probe_seconds(t0);
    for (double p : partial) {
      // Every chain converges towards 1.0 from below or above; never leaves (0.5, 1.7).
      ok = ok && std::isfinite(p) && p > 0.5 * kFmaAccs * kProbeLanes &&
           p < 1.7 * kFmaAccs * kProbeLanes;
    }
    if (rep > 0 && secs > 0) {
      r.flops_per_s =
          std::max(r.flops_per_s, flops_per_iter * static_cast<double>(iters) * n_chunks / secs);
    }
  }
  r.checked = ok;
  return r;
}

ProbeResult run_probes(int n_threads, const ProbeOptions& opt) {
  ProbeResult r;
  r.threads = n_threads;
  ThreadPool pool(n_threads);
  const int n_chunks = n_threads * kChunksPerThread;
  const int reps = std::max(1, opt.repeats);
  bool ok = true;

  // Bandwidth: buffer of n_vec vectors of 1.0f, first touched by the pool's threads.
  const size_t block = static_cast<size_t>(kReadAccs) * n_chunks;
  const size_t n_vec = std::max<size_t>(1, opt.read_bytes / sizeof(ProbeVec) / block) * block;
  const size_t per_chunk = n_vec / n_chunks;
  std::unique_ptr<ProbeVec[]> buf(new ProbeVec[n_vec]);  // (n_vec, kProbeLanes)
  pool.run(n_chunks, [&](int t, int) {
    for (size_t i = t * per_chunk; i < (t + 1) * per_chunk; ++i) buf[i] = ProbeVec{} + 1.0f;
  });
  std::vector<double> partial(n_chunks);
  const double expected = static_cast<double>(n_vec) * kProbeLanes;
  for (int rep = 0; rep <= reps; ++rep) {  // rep 0 warms up (pages, workers awake)
    const auto t0 = ProbeClock::now();
    pool.run(n_chunks, [&](int t, int) { partial[t] = read_sum(&buf[t * per_chunk], per_chunk); });
    const double secs = probe_seconds(t0);
    double total = 0;
    for (double p : partial) total += p;
    ok = ok && std::abs(total - expected) <= 1e-3 * expected;
    if (rep > 0 && secs > 0) {
      r.read_bytes_per_s = std::max(r.read_bytes_per_s, n_vec * sizeof(ProbeVec) / secs);
    }
  }
  buf.reset();

  const FmaProbe fma = run_fma_probe(pool, opt.fma_flops, reps);
  r.fma_flops_per_s = fma.flops_per_s;
  ok = ok && fma.checked;
  r.checked = ok;
  return r;
}

}  // namespace ts::cli
