// The sampler chain: an ordered list of stages over the full vocabulary (penalties,
// temperature, top-k, top-p, min-p), then a greedy pick or a random draw with the counter-based
// RNG. Every stage's candidates are recorded so the app can show the distribution after each.
// Pure functions of (settings, logits, history, step): no hidden state, so rewind is free.
// sample() is O(vocabulary) (fast_chain.h); it records exactly what reference_sampler.h records.
// Stage values live in stage.h, their maths in stages.h, the cumulative strip in strip.h, stop
// checks in stop.h.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/error.h"
#include "sampling/chain_state.h"
#include "sampling/stage.h"

namespace ts {

class ThreadPool;

struct SamplerSettings {
  std::string label;   // lane label shown in the app ("greedy", "T=0.8", ...)
  uint64_t seed = 42;  // any value, 0 and 2^64-1 included
  // The stages in the order they run, each with its own parameters; any order, a stage may
  // repeat, a missing stage is off. Default: llama.cpp's common order with temperature last
  // (penalties, top-k, top-p, min-p, temperature), every stage at its off value.
  std::vector<Stage> chain = default_chain();
  bool operator==(const SamplerSettings&) const = default;
};

// Greedy: some Temperature stage of the chain has t = 0 (that stage keeps only the argmax and
// the draw takes rank 0 of the final distribution, wherever the stage stands).
bool greedy(const SamplerSettings& s);

// The first stage of type T in the chain, or null.
template <class T>
const T* find_stage(const SamplerSettings& s) {
  for (const Stage& st : s.chain)
    if (const T* v = std::get_if<T>(&st)) return v;
  return nullptr;
}
template <class T>
T* find_stage(SamplerSettings& s) {
  for (Stage& st : s.chain)
    if (T* v = std::get_if<T>(&st)) return v;
  return nullptr;
}
// The first stage of type T, or T's off values when the chain has none (for readers that want
// "the top-k" of a chain).
template <class T>
T stage_or_off(const SamplerSettings& s) {
  const T* v = find_stage<T>(s);
  return v ? *v : T{};
}
// The first stage of type T, appended at the end of the chain (off) when there is none: for
// writers that set "the temperature" of settings built from the default chain.
template <class T>
T& stage(SamplerSettings& s) {
  if (T* v = find_stage<T>(s)) return *v;
  s.chain.push_back(T{});
  return std::get<T>(s.chain.back());
}

// Rejects nonsense with a message naming the field and the allowed range (stage.h's validate,
// for each stage of the chain; with its place in the chain when that kind repeats).
// sample() assumes validated settings; given invalid ones it clamps them and never crashes.
Status validate(const SamplerSettings& s);
// "T=0.8 top-k=40 top-p=0.9 seed=42"; "greedy" for T=0; off stages omitted; penalties when on;
// "order=..." appended when the order differs from the default. A chain that repeats a stage
// lists its stages in chain order, then seed and order.
std::string describe(const SamplerSettings& s);

struct Candidate {
  int id = 0;
  float logit = 0.0f;  // after this stage
  float p = 0.0f;      // probability after this stage (renormalised over kept tokens)
  bool kept = true;    // false: cut by this stage (shown greyed)
};

struct StageRecord {
  StageKind kind = StageKind::Temperature;
  std::string name;    // "top-p 0.90", "temperature 0 (greedy)", "top-k off"
  int n_kept = 0;      // tokens still possible after the stage
  // The threshold, 0 when the stage is off: top-k: logit of the k-th (lowest kept) token;
  // top-p: the probability mass of the kept set (>= p); min-p: the probability min_p * p_max;
  // temperature 0: the max logit (only that token survives); penalties, temperature > 0: 0.
  float cut_at = 0;
  // Top candidates after the stage among the tokens alive before it: the kept ones sorted by p
  // descending then id, then the ones this stage cut (kept = false, p = 0, logit as before the
  // cut) by logit descending then id, so the app can grey them. At most record_top.
  std::vector<Candidate> top;
  // What the stage found besides its cut, as its descriptor records it (XTC: "coin", "fired";
  // typical-p: "entropy"; ...), and the history positions it looked at (for highlighting).
  // Empty for the original five stages.
  std::vector<StageValue> values;
  std::vector<int> marks;
};

struct DrawRecord {
  bool greedy = false;
  double u = 0;          // the uniform number (seed, step); unused when greedy
  int chosen_id = -1;
  int chosen_rank = 0;   // 0 = most probable in the final distribution
  float chosen_p = 0;    // its probability in the final distribution
  double cum_lo = 0;     // chosen token's interval on the cumulative strip [cum_lo, cum_hi)
  double cum_hi = 0;
  float entropy = 0;     // of the final distribution, in bits
  float raw_entropy = 0; // of softmax(raw logits), in bits
};

struct SamplingRecord {
  std::vector<Candidate> raw;       // top of softmax(raw logits), record_top entries
  std::vector<StageRecord> stages;  // in chain order
  std::vector<Candidate> final_dist;  // the distribution drawn from (top record_top, kept only)
  DrawRecord draw;
};

struct SampleOptions {
  int record_top = 64;  // candidates kept per stage in the record
  // Splits the passes over the vocabulary (null: the calling thread only). The result does not
  // depend on it: the vocabulary is cut into the same chunks either way.
  ThreadPool* pool = nullptr;
  // The parent step's record (null: none): the state stages carry across steps (mirostat's mu)
  // comes from it, so the result is still a function of the inputs and rewind restores it.
  const SamplingRecord* previous = nullptr;
  // The vocabulary's bytes and where the generated text begins, for the constraint stages
  // (stage_constraint.h); without them those stages cut nothing.
  TokenText text = {};
};

// Runs the chain on `logits` (vocab_size) for generation step `step` (the RNG counter).
// `history` is the token sequence so far (for penalties). Returns the chosen id; fills rec
// (may be null). Stages not in the chain are not applied.
// - NaN and -inf logits are impossible tokens; +inf beats every finite logit. If no raw logit is
//   possible at all, every token is treated as logit 0 (uniform) so a token is still chosen.
// - Every stage keeps at least one token, so the final distribution is never empty.
// - Greedy (a Temperature stage with t = 0): that stage keeps only the argmax (ties: lowest id),
//   and the draw takes rank 0 of the final distribution with p = 1 and records greedy = true.
//   u is still recorded (it is not used).
// - Otherwise u = uniform01(seed, step, 0) lands on the cumulative strip (strip.h).
// Returns -1 only for an empty `logits`.
int sample(const SamplerSettings& s, std::span<const float> logits, std::span<const int> history,
           uint64_t step, SamplingRecord* rec, const SampleOptions& opt = {});

// Bench only (bench --step): false makes sample() run the reference sampler (the "before"
// figures); true (the default) takes the fast path whenever it applies. Process-wide.
void set_sampler_fast_path(bool on);

// The final distribution as a dense vector (vocab_size), for "sample this step N times".
// `step` is the RNG counter a coin-flipping stage (XTC) uses, as sample()'s.
std::vector<float> final_distribution(const SamplerSettings& s, std::span<const float> logits,
                                      std::span<const int> history, uint64_t step = 0);
// The same with the parent step's record (mirostat's mu) and the vocabulary's text (constraints)
// from `opt`, as sample() saw them.
std::vector<float> final_distribution(const SamplerSettings& s, std::span<const float> logits,
                                      std::span<const int> history, uint64_t step,
                                      const SampleOptions& opt);
// A token other than the drawn one was taken (forced): the stages that update their state from
// the taken token (mirostat's mu_next) update it from this one's final probability instead.
void after_taking(const SamplerSettings& s, SamplingRecord& rec, double taken_p);
// Draw n ids from that distribution with stream `stream` of the RNG. Stream 0 belongs to the
// generation draw, so stream 0 is replaced by 1. Draw i uses
// uniform01(random_bits(seed, step, stream), i): deterministic, independent of n's other draws.
std::vector<int> draw_many(const std::vector<float>& probs, uint64_t seed, uint64_t step, int n,
                           uint64_t stream = 1);

}  // namespace ts
