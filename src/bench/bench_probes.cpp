// The bandwidth and FMA probes (see bench_probes.h). GCC/clang vector extensions at the native
// width; the contraction of a * m + c into one FMA instruction is the compilers' default for
// gnu++20 (GCC -ffp-contract=fast, clang "on": within one expression). Every result is summed
// and compared with what the arithmetic must give, so neither loop can be dropped.
#include "bench/bench_probes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "engine/thread_pool.h"

namespace ts::bench {

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

struct ReadProbe::Buffer {
  std::unique_ptr<ProbeVec[]> v;  // (n_vec, kProbeLanes)
};

ReadProbe::ReadProbe(ThreadPool& pool, size_t bytes)
    : pool_(pool), buf_(std::make_unique<Buffer>()) {
  // n_vec vectors of 1.0f, first touched by the pool's threads.
  n_chunks_ = pool.size() * kChunksPerThread;
  const size_t block = static_cast<size_t>(kReadAccs) * n_chunks_;
  n_vec_ = std::max<size_t>(1, bytes / sizeof(ProbeVec) / block) * block;
  const size_t per_chunk = n_vec_ / n_chunks_;
  buf_->v.reset(new ProbeVec[n_vec_]);
  pool_.run(n_chunks_, [&](int t, int) {
    for (size_t i = t * per_chunk; i < (t + 1) * per_chunk; ++i) buf_->v[i] = ProbeVec{} + 1.0f;
  });
}

ReadProbe::~ReadProbe() = default;

double ReadProbe::pass() {
  const size_t per_chunk = n_vec_ / n_chunks_;
  std::vector<double> partial(n_chunks_);
  const auto t0 = ProbeClock::now();
  pool_.run(n_chunks_, [&](int t, int) { partial[t] = read_sum(&buf_->v[t * per_chunk], per_chunk); });
  const double secs = probe_seconds(t0);
  double total = 0;
  for (double p : partial) total += p;
  const double expected = static_cast<double>(n_vec_) * kProbeLanes;
  checked_ = checked_ && std::abs(total - expected) <= 1e-3 * expected;
  return secs > 0 ? n_vec_ * sizeof(ProbeVec) / secs : 0.0;
}

ProbeResult run_probes(int n_threads, const ProbeOptions& opt) {
  ProbeResult r;
  r.threads = n_threads;
  ThreadPool pool(n_threads);
  const int reps = std::max(1, opt.repeats);
  bool ok = true;

  ReadProbe read(pool, opt.read_bytes);
  for (int rep = 0; rep <= reps; ++rep) {  // rep 0 warms up (pages, workers awake)
    const double bytes_per_s = read.pass();
    if (rep > 0) r.read_bytes_per_s = std::max(r.read_bytes_per_s, bytes_per_s);
  }
  ok = ok && read.checked();

  const FmaProbe fma = run_fma_probe(pool, opt.fma_flops, reps);
  r.fma_flops_per_s = fma.flops_per_s;
  ok = ok && fma.checked;
  r.checked = ok;
  return r;
}

}  // namespace ts::bench
