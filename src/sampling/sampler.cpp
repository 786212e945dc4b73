// sample(): the fast chain (fast_chain.h) when it applies, else the reference sampler
// (reference_sampler.h); both record the same. Also final_distribution() (the reference's dense
// vector) and draw_many() on the cumulative strip. No state kept but the bench's switch.
#include "sampling/sampler.h"

#include <algorithm>
#include <atomic>
#include <optional>

#include "base/rng.h"
#include "sampling/fast_chain.h"
#include "sampling/reference_sampler.h"
#include "sampling/stages.h"
#include "sampling/strip.h"

namespace ts {

namespace {
std::atomic<bool> g_fast_path{true};
}  // namespace

void set_sampler_fast_path(bool on) { g_fast_path.store(on, std::memory_order_relaxed); }

int sample(const SamplerSettings& settings, std::span<const float> logits,
           std::span<const int> history, uint64_t step, SamplingRecord* rec,
           const SampleOptions& opt) {
  const SamplerSettings s = clamp_settings(settings);
  if (g_fast_path.load(std::memory_order_relaxed)) {
    const std::optional<int> id =
        fast_sample(s, logits, history, step, rec, std::max(opt.record_top, 0), opt.pool);
    if (id) return *id;
  }
  return reference_sample(settings, logits, history, step, rec, opt);
}

std::vector<float> final_distribution(const SamplerSettings& settings,
                                      std::span<const float> logits,
                                      std::span<const int> history, uint64_t step) {
  return reference_final_distribution(settings, logits, history, step);
}

std::vector<float> final_distribution(const SamplerSettings& settings,
                                      std::span<const float> logits, std::span<const int> history,
                                      uint64_t step, const SampleOptions& opt) {
  return reference_final_distribution(settings, logits, history, step, opt);
}

void after_taking(const SamplerSettings& settings, SamplingRecord& rec, double taken_p) {
  const SamplerSettings s = clamp_settings(settings);
  for (size_t i = 0; i < s.chain.size() && i < rec.stages.size(); ++i) {
    std::visit(
        [&](const auto& v) {
          if constexpr (requires { v.after_draw(rec.stages[i], taken_p); })
            v.after_draw(rec.stages[i], taken_p);
        },
        s.chain[i]);
  }
}

std::vector<int> draw_many(const std::vector<float>& probs, uint64_t seed, uint64_t step, int n,
                           uint64_t stream) {
  const CumulativeStrip strip{std::span<const float>(probs)};
  const uint64_t sub_seed = random_bits(seed, step, stream == 0 ? 1 : stream);
  std::vector<int> out;
  out.reserve(static_cast<size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) out.push_back(strip.pick(uniform01(sub_seed, i)).id);
  return out;
}

}  // namespace ts
