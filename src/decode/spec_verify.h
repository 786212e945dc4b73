// The verification rule of speculative sampling, one drafted position at a time, as pure
// functions of the two distributions (after the same sampler chain): the draft proposed x with
// probability q(x), the target gives it p(x). x is accepted iff u < min(1, p(x) / q(x)); at the
// first rejection the token is drawn from the residual max(0, p - q) normalised. Accepted drafts
// plus that draw are distributed exactly as p: P(x) = q(x) min(1, p/q) + (1 - Σ min(p, q)) r(x)
// = min(p, q) + max(0, p - q) = p(x). The random numbers come from the counter-based RNG
// (base/rng.h): one stream for the draft's proposals, one for the tests, one for the residual.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace ts {

// Streams of base/rng.h's random_bits: 0 is the generation draw, 1 sampler.h's draw_many default.
inline constexpr uint64_t kSpecDraftStream = 0x5EC0D1;     // the draft proposes x ~ q
inline constexpr uint64_t kSpecAcceptStream = 0x5EC0D2;    // u of the accept test
inline constexpr uint64_t kSpecResidualStream = 0x5EC0D3;  // the residual (or bonus) draw

enum class SpecResidual {
  PMinusQ,  // max(0, p - q) normalised: the output is distributed as the target's
  Target,   // p itself: the tempting mistake, which over-weights the draft's proposals (shown
            // in lessons and caught by the distribution test)
};

// The token at u on the cumulative sum of `probs` in id order (unnormalised weights are fine):
// the first id whose interval [cum, cum + p) holds u * Σ p. -1 when every weight is 0.
int spec_draw(std::span<const float> probs, double u);

// u < min(1, p / q); a q of 0 (x could not have been proposed) rejects.
bool spec_accept(float p_x, float q_x, double u);

// The distribution to draw from after a rejection, into `out` (vocab_size); returns the mass
// Σ max(0, p - q) before normalising (= 1 - Σ min(p, q), the chance that a proposal from q is
// rejected). When that mass is 0 (p == q: a rejection cannot happen) `out` is p.
double spec_residual(std::span<const float> p, std::span<const float> q, SpecResidual rule,
                     std::vector<float>& out);

}  // namespace ts
