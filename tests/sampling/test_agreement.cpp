// Agreement of sample()'s fast path (fast_chain.h) with the reference sampler on random logits:
// ties, -inf and NaN, every stage on and off in random orders, penalties with out-of-range
// history, vocabularies over the chunk size, with and without a thread pool. Ids, order, kept
// flags, names and counts must be identical; so must every float computed on the kept tokens
// after a cut. Values that come from a sum over the whole vocabulary (raw probabilities and
// entropy, records of stages before the first cut) use a vectorised exp and chunked sums: their
// double differs from the reference's in the last bits, so the float may differ by 1 ulp (rarely;
// the test reports how many did) and never more.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <vector>

#include "base/rng.h"
#include "engine/thread_pool.h"
#include "sampling/fast_chain.h"
#include "sampling/fast_state.h"
#include "sampling/reference_sampler.h"
#include "sampling/sampler.h"
#include "sampling/stages.h"

using namespace ts;

namespace {

// Distance in float ulps (same sign assumed; inf if signs or classes differ).
double ulps(float a, float b) {
  if (std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b)) return 0;
  if (std::isnan(a) || std::isnan(b) || (a < 0) != (b < 0)) return 1e30;
  const int64_t ia = std::bit_cast<int32_t>(std::abs(a));
  const int64_t ib = std::bit_cast<int32_t>(std::abs(b));
  return static_cast<double>(std::llabs(ia - ib));
}

struct Tally {
  int compared = 0;    // float fields compared
  int off_by_ulp = 0;  // of those, not bit-identical (within the tolerance)
  int fast_cases = 0;  // cases that took the fast path
};

// `exact`: the field must be bit-identical; else within 1 ulp (or 1e-12 absolute near 0, for an
// entropy that rounds differently while tiny).
void check_float(const char* what, float fast, float ref, bool exact, Tally& t) {
  ++t.compared;
  const double d = ulps(fast, ref);
  if (d == 0) return;
  ++t.off_by_ulp;
  INFO(what << ": fast " << fast << " reference " << ref << " (" << d << " ulp)");
  CHECK(!exact);
  CHECK((d <= 1 || std::abs(static_cast<double>(fast) - ref) <= 1e-12));
}

void check_candidates(const char* what, const std::vector<Candidate>& f,
                      const std::vector<Candidate>& r, bool exact, Tally& t) {
  INFO(what);
  REQUIRE(f.size() == r.size());
  for (size_t i = 0; i < f.size(); ++i) {
    INFO("rank " << i);
    CHECK(f[i].id == r[i].id);
    CHECK(f[i].kept == r[i].kept);
    check_float("logit", f[i].logit, r[i].logit, true, t);
    check_float("p", f[i].p, r[i].p, exact, t);
  }
}

// Bit for bit once a stage has cut the set to at most kExactKept tokens (fast_state.h); before
// that (the whole vocabulary, or a large kept set) within the tolerance of check_float.
void check_records(const SamplingRecord& f, const SamplingRecord& r, int vocab, Tally& t) {
  check_candidates("raw", f.raw, r.raw, false, t);
  check_float("raw entropy", f.draw.raw_entropy, r.draw.raw_entropy, false, t);
  REQUIRE(f.stages.size() == r.stages.size());
  bool exact = false;  // the state before stage i is a small kept set
  for (size_t i = 0; i < f.stages.size(); ++i) {
    const StageRecord& a = f.stages[i];
    const StageRecord& b = r.stages[i];
    INFO("stage " << i << " " << b.name);
    CHECK(a.kind == b.kind);
    CHECK(a.name == b.name);
    CHECK(a.n_kept == b.n_kept);
    // top-p's mass and min-p's threshold come from the softmax of the state before the stage.
    check_float("cut_at", a.cut_at, b.cut_at,
                exact || b.kind == StageKind::TopK || b.kind == StageKind::Temperature, t);
    exact = b.n_kept < vocab && static_cast<size_t>(b.n_kept) <= kExactKept;
    check_candidates("stage", a.top, b.top, exact, t);
  }
  exact = exact || r.draw.greedy;
  check_candidates("final", f.final_dist, r.final_dist, exact, t);
  CHECK(f.draw.greedy == r.draw.greedy);
  CHECK(f.draw.u == r.draw.u);
  CHECK(f.draw.chosen_id == r.draw.chosen_id);
  CHECK(f.draw.chosen_rank == r.draw.chosen_rank);
  check_float("chosen p", f.draw.chosen_p, r.draw.chosen_p, exact, t);
  check_float("entropy", f.draw.entropy, r.draw.entropy, exact, t);
  if (exact) {
    CHECK(f.draw.cum_lo == r.draw.cum_lo);
    CHECK(f.draw.cum_hi == r.draw.cum_hi);
  } else {
    CHECK(std::abs(f.draw.cum_lo - r.draw.cum_lo) <= 1e-12);
    CHECK(std::abs(f.draw.cum_hi - r.draw.cum_hi) <= 1e-12);
  }
}

std::vector<float> random_logits(SplitMix& rng, int n, int style) {
  std::vector<float> x(static_cast<size_t>(n));
  const double scale = style % 3 == 0 ? 0.3 : style % 3 == 1 ? 3.0 : 30.0;
  for (float& v : x) {
    double g = 0;  // roughly normal: sum of uniforms
    for (int k = 0; k < 4; ++k) g += rng.uniform() - 0.5;
    v = static_cast<float>(g * scale);
    if (style >= 3) v = std::round(v * 2.0f) / 2.0f;  // many exact ties
  }
  if (style >= 6 && n > 0) {  // impossible tokens: the reference path
    x[rng.below(static_cast<uint64_t>(n))] = -std::numeric_limits<float>::infinity();
    if (style == 7) x[rng.below(static_cast<uint64_t>(n))] = std::nanf("");
  }
  return x;
}

SamplerSettings random_settings(SplitMix& rng, int vocab) {
  SamplerSettings s;
  const float temps[] = {0.0f, 0.8f, 1.0f, 1.7f, 1e-3f, 0.5f};
  const int ks[] = {0, 1, 5, 40, vocab + 3};
  const float ps[] = {1.0f, 0.95f, 0.5f, 0.1f, 0.999f};
  const float mps[] = {0.0f, 0.05f, 0.3f, 1.0f, 1e-4f};
  const float reps[] = {1.0f, 1.1f, 0.8f, 1.3f};
  stage<Temperature>(s).t = temps[rng.below(6)];
  stage<TopK>(s).k = ks[rng.below(5)];
  stage<TopP>(s).p = ps[rng.below(5)];
  stage<MinP>(s).p = mps[rng.below(5)];
  stage<Penalties>(s).repeat = reps[rng.below(4)];
  stage<Penalties>(s).frequency = rng.below(3) == 0 ? 0.2f : 0.0f;
  stage<Penalties>(s).presence = rng.below(3) == 0 ? -0.5f : 0.0f;
  stage<Penalties>(s).last_n = static_cast<int>(rng.below(3)) * 32;
  s.seed = rng.next();
  // A random order of a random subset of the stages.
  std::vector<StageKind> all = {StageKind::Penalties, StageKind::TopK, StageKind::TopP,
                                StageKind::MinP, StageKind::Temperature};
  for (size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng.below(i)]);
  if (rng.below(3) != 0) {  // else the default order
    const size_t n = 1 + rng.below(5);
    const SamplerSettings values = s;
    s.chain.clear();
    for (size_t i = 0; i < n; ++i) {
      for (const Stage& st : values.chain)
        if (kind_of(st) == all[i]) s.chain.push_back(st);
    }
  }
  return s;
}

// A chain of 1 to 8 stages of random kinds, repeats likely (top-k 40 then top-k 5, two
// temperatures, penalties twice, ...), each with its own random values.
SamplerSettings random_chain_with_repeats(SplitMix& rng, int vocab) {
  SamplerSettings s;
  s.seed = rng.next();
  s.chain.clear();
  const size_t n = 1 + rng.below(8);
  for (size_t i = 0; i < n; ++i) {
    switch (rng.below(5)) {
      case 0: {
        const float ts[] = {0.0f, 0.8f, 1.7f, 1e-3f, 0.5f};
        s.chain.push_back(Temperature{ts[rng.below(5)]});
        break;
      }
      case 1: {
        const int ks[] = {1, 5, 40, vocab + 3};
        s.chain.push_back(TopK{ks[rng.below(4)]});
        break;
      }
      case 2: {
        const float ps[] = {0.95f, 0.5f, 0.1f, 0.999f};
        s.chain.push_back(TopP{ps[rng.below(4)]});
        break;
      }
      case 3: {
        const float ps[] = {0.05f, 0.3f, 1.0f, 1e-4f};
        s.chain.push_back(MinP{ps[rng.below(4)]});
        break;
      }
      default: {
        const float reps[] = {1.1f, 0.8f, 1.3f};
        s.chain.push_back(Penalties{reps[rng.below(3)], rng.below(2) ? 0.2f : 0.0f,
                                    rng.below(2) ? -0.5f : 0.0f, 32});
        break;
      }
    }
  }
  return s;
}

void run_cases(int vocab, int n_cases, uint64_t seed, ThreadPool* pool, Tally& t,
               bool repeats = false) {
  SplitMix rng(seed);
  for (int c = 0; c < n_cases; ++c) {
    const int style = static_cast<int>(rng.below(8));
    const std::vector<float> logits = random_logits(rng, vocab, style);
    const SamplerSettings s =
        repeats ? random_chain_with_repeats(rng, vocab) : random_settings(rng, vocab);
    std::vector<int> history;
    for (int h = 0; h < 80; ++h) {
      // Mostly low ids (repeats), some out of range on both sides.
      const uint64_t r = rng.below(20);
      history.push_back(r == 0   ? -1
                        : r == 1 ? vocab + 5
                                 : static_cast<int>(rng.below(std::min<uint64_t>(vocab, 50))));
    }
    const uint64_t step = rng.below(1000);
    SampleOptions opt;
    opt.record_top = static_cast<int>(rng.below(3)) == 0 ? 8 : 32;
    opt.pool = pool;
    INFO("vocab " << vocab << " case " << c << " style " << style << ": " << describe(s)
                  << " chain size " << s.chain.size() << " record_top " << opt.record_top);
    if (fast_path_applies(clamp_settings(s), logits, pool)) ++t.fast_cases;
    SamplingRecord fast, ref;
    const int a = sample(s, logits, history, step, &fast, opt);
    const int b = reference_sample(s, logits, history, step, &ref, opt);
    CHECK(a == b);
    check_records(fast, ref, vocab, t);
    CHECK(sample(s, logits, history, step, nullptr, opt) == b);  // no record: same choice
  }
}

}  // namespace

TEST_CASE("the fast sampler records what the reference records (small vocabularies)") {
  Tally t;
  for (int vocab : {1, 2, 3, 7, 40, 41, 100, 1000}) run_cases(vocab, 300, 1000 + vocab, nullptr, t);
  MESSAGE(
      t.fast_cases << " fast-path cases; " << t.off_by_ulp << " of " << t.compared
                   << " float fields not bit-identical (1 ulp allowed on whole-vocabulary sums)");
  CHECK(t.fast_cases > 1000);
}

TEST_CASE("the fast sampler records what the reference records (repeated stages)") {
  Tally t;
  for (int vocab : {1, 3, 41, 1000}) run_cases(vocab, 200, 500 + vocab, nullptr, t, true);
  ThreadPool pool(2);
  run_cases(20000, 30, 321, &pool, t, true);
  MESSAGE(t.fast_cases << " fast-path cases with repeated stages; " << t.off_by_ulp << " of "
                       << t.compared << " float fields not bit-identical");
  CHECK(t.fast_cases > 500);
}

TEST_CASE("the fast sampler records what the reference records (large vocabularies, a pool)") {
  Tally t;
  ThreadPool pool(2);
  for (int vocab : {20000, 40000}) {
    run_cases(vocab, 40, 77 + vocab, &pool, t);
    run_cases(vocab, 20, 99 + vocab, nullptr, t);
  }
  MESSAGE(
      t.fast_cases << " fast-path cases; " << t.off_by_ulp << " of " << t.compared
                   << " float fields not bit-identical (1 ulp allowed on whole-vocabulary sums)");
  CHECK(t.fast_cases > 50);
}

TEST_CASE("the default chain is bit-identical after top-k, and the pool changes nothing") {
  SplitMix rng(5);
  ThreadPool pool(2);
  SamplerSettings s;
  stage<Penalties>(s).repeat = 1.1f;
  stage<TopK>(s).k = 40;
  stage<TopP>(s).p = 0.95f;
  stage<MinP>(s).p = 0.05f;
  stage<Temperature>(s).t = 0.8f;
  for (int c = 0; c < 20; ++c) {
    const std::vector<float> logits = random_logits(rng, 32000, c % 6);
    const std::vector<int> history = {5, 9, 9, 31999, 0, 5};
    SamplingRecord fast, pooled, ref;
    SampleOptions opt;
    opt.record_top = 32;
    REQUIRE(fast_path_applies(clamp_settings(s), logits, nullptr));
    sample(s, logits, history, c, &fast, opt);
    reference_sample(s, logits, history, c, &ref, opt);
    opt.pool = &pool;
    sample(s, logits, history, c, &pooled, opt);
    for (size_t i = 2; i < ref.stages.size(); ++i) {  // after penalties and top-k
      REQUIRE(fast.stages[i].top.size() == ref.stages[i].top.size());
      CHECK(fast.stages[i].cut_at == ref.stages[i].cut_at);
      for (size_t r = 0; r < ref.stages[i].top.size(); ++r) {
        CHECK(fast.stages[i].top[r].id == ref.stages[i].top[r].id);
        CHECK(fast.stages[i].top[r].p == ref.stages[i].top[r].p);
      }
    }
    CHECK(fast.draw.chosen_id == ref.draw.chosen_id);
    CHECK(fast.draw.chosen_p == ref.draw.chosen_p);
    CHECK(fast.draw.cum_lo == ref.draw.cum_lo);
    CHECK(fast.draw.cum_hi == ref.draw.cum_hi);
    CHECK(fast.draw.entropy == ref.draw.entropy);
    // The pool splits the same chunks: every field the same bits.
    CHECK(pooled.draw.raw_entropy == fast.draw.raw_entropy);
    for (size_t r = 0; r < fast.raw.size(); ++r) CHECK(pooled.raw[r].p == fast.raw[r].p);
    CHECK(pooled.draw.chosen_id == fast.draw.chosen_id);
  }
}

TEST_CASE("a chain that cuts nothing draws from the whole vocabulary like the reference") {
  // Temperature (and penalties) only: the strip spans every token, the crossing is deep on flat
  // logits, and ties in the logits make runs of equal probability.
  SplitMix rng(11);
  Tally t;
  for (int c = 0; c < 200; ++c) {
    const int vocab = c % 2 ? 1000 : 20000;
    const std::vector<float> logits = random_logits(rng, vocab, c % 6);
    SamplerSettings s;
    stage<Temperature>(s).t = c % 3 == 0 ? 1.0f : 0.7f;
    if (c % 4 == 0) stage<Penalties>(s).repeat = 1.2f;
    const std::vector<int> history = {1, 2, 2, 3};
    REQUIRE(fast_path_applies(clamp_settings(s), logits, nullptr));
    SamplingRecord fast, ref;
    CHECK(sample(s, logits, history, c, &fast) == reference_sample(s, logits, history, c, &ref));
    INFO("case " << c);
    check_records(fast, ref, vocab, t);
  }
  MESSAGE(t.off_by_ulp << " of " << t.compared << " float fields not bit-identical");
}

TEST_CASE("flat distributions over Qwen2.5's 151,936 tokens: the chains without top-k agree") {
  // A random model's logits (standard deviation about 0.35) and a spread of 3: top-p keeps most
  // of the vocabulary, the draw lands deep in the strip; every chain of the issue without top-k.
  constexpr int kVocab = 151936;
  SplitMix rng(2026);
  ThreadPool pool(2);
  Tally t;
  std::vector<SamplerSettings> chains;
  auto add = [&](std::vector<Stage> chain) {
    SamplerSettings s;
    s.chain = std::move(chain);
    chains.push_back(s);
  };
  add({Temperature{0.8f}});
  add({Temperature{1.0f}});
  add({TopP{0.95f}, Temperature{0.8f}});
  add({Temperature{0.8f}, TopP{0.95f}});
  add({Penalties{1.1f, 0.0f, 0.0f, 64}, TopP{0.95f}, MinP{0.05f}, Temperature{0.8f}});
  add({Penalties{1.1f, 0.0f, 0.0f, 64}, Temperature{0.8f}});
  add({TopP{0.5f}});
  add({MinP{0.05f}, Temperature{0.8f}});
  add({Temperature{0.0f}});
  for (int c = 0; c < 2 * static_cast<int>(chains.size()); ++c) {
    SamplerSettings s = chains[static_cast<size_t>(c) % chains.size()];
    s.seed = rng.next();
    const double spread = c < static_cast<int>(chains.size()) ? 0.6 : 5.2;  // x std ~0.35, ~3
    std::vector<float> logits(kVocab);
    for (float& v : logits) {
      double g = 0;
      for (int k = 0; k < 4; ++k) g += rng.uniform() - 0.5;
      v = static_cast<float>(g * spread);
    }
    std::vector<int> history;
    for (int h = 0; h < 64; ++h) history.push_back(static_cast<int>(rng.below(kVocab)));
    SampleOptions opt;
    opt.record_top = 32;
    opt.pool = c % 2 ? &pool : nullptr;
    INFO("case " << c << ": " << describe(s));
    REQUIRE(fast_path_applies(clamp_settings(s), logits, nullptr));
    SamplingRecord fast, ref;
    const int a = sample(s, logits, history, static_cast<uint64_t>(c), &fast, opt);
    CHECK(a == reference_sample(s, logits, history, static_cast<uint64_t>(c), &ref, opt));
    check_records(fast, ref, kVocab, t);
  }
  MESSAGE(t.off_by_ulp << " of " << t.compared << " float fields not bit-identical");
}
