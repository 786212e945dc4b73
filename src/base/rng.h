// Counter-based random numbers: the uniform number for (seed, step) is a pure function of both,
// so a re-run, a rewind or another lane with the same seed draws the same u ("common random
// numbers"). splitmix64 mixing; never std::*_distribution (its output differs across libraries).
#pragma once
#include <cstdint>

namespace ts {

constexpr uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// 64 random bits for (seed, counter, stream). stream 0 is the generation draw; other streams are
// for side experiments (e.g. "sample this step 1,000 times") so they never disturb stream 0.
constexpr uint64_t random_bits(uint64_t seed, uint64_t counter, uint64_t stream = 0) {
  return splitmix64(splitmix64(seed ^ splitmix64(stream + 0x632BE59BD9B4E019ull)) + counter);
}

// Uniform double in [0, 1) with 53 random bits.
constexpr double uniform01(uint64_t seed, uint64_t counter, uint64_t stream = 0) {
  return static_cast<double>(random_bits(seed, counter, stream) >> 11) * 0x1.0p-53;
}

// A small sequential generator for training and tests (weight init, shuffling): state is one u64.
struct SplitMix {
  uint64_t state;
  explicit SplitMix(uint64_t seed) : state(seed) {}
  uint64_t next() { return splitmix64(state++); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Normal(0,1) by Box-Muller (deterministic across platforms given the same libm).
  double normal();
  // Integer in [0, n).
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }
};

}  // namespace ts
