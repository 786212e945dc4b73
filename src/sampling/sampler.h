// The sampler chain: an ordered list of stages over the full vocabulary (penalties,
// temperature, top-k, top-p, min-p), then a greedy pick or a random draw with the counter-based
// RNG. Every stage's candidates are recorded so the app can show the distribution after each.
// Pure functions of (settings, logits, history, step): no hidden state, so rewind is free.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/error.h"

namespace ts {

enum class StageKind { Penalties, Temperature, TopK, TopP, MinP };
const char* stage_name(StageKind k);

struct SamplerSettings {
  std::string label;            // lane label shown in the app ("greedy", "T=0.8", ...)
  float temperature = 1.0f;     // 0 = greedy
  int top_k = 0;                // 0 = off
  float top_p = 1.0f;           // 1 = off; must be in (0, 1]
  float min_p = 0.0f;           // 0 = off; must be in [0, 1]
  float repetition_penalty = 1.0f;  // 1 = off; > 0
  float frequency_penalty = 0.0f;   // 0 = off
  float presence_penalty = 0.0f;    // 0 = off
  int penalty_last_n = 64;          // how many previous tokens the penalties look at
  uint64_t seed = 42;
  // Order of the stages; default is llama.cpp's common order with temperature last but the draw.
  std::vector<StageKind> order = {StageKind::Penalties, StageKind::TopK, StageKind::TopP,
                                  StageKind::MinP, StageKind::Temperature};
  bool greedy() const { return temperature == 0.0f; }
};

// Rejects nonsense with a message naming the field: negative temperature, top-p outside (0,1],
// top-k < 0, min-p outside [0,1], repetition penalty <= 0, NaN anywhere, a stage twice.
Status validate(const SamplerSettings& s);
std::string describe(const SamplerSettings& s);  // "T=0.8 top-k=40 top-p=0.9 seed=42"

struct Candidate {
  int id = 0;
  float logit = 0.0f;  // after this stage
  float p = 0.0f;      // probability after this stage (renormalised over kept tokens)
  bool kept = true;    // false: cut by this stage (shown greyed)
};

struct StageRecord {
  StageKind kind = StageKind::Temperature;
  std::string name;    // "top-p 0.9"
  int n_kept = 0;      // tokens still possible after the stage
  float cut_at = 0;    // the threshold that cut (k-th logit, cumulative p, min prob), 0 if none
  // Top candidates after the stage, sorted by p descending then id; includes tokens this stage
  // cut (kept = false) among the recorded ones, so the app can grey them. At most record_top.
  std::vector<Candidate> top;
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
};

// Runs the chain on `logits` (vocab_size) for generation step `step` (the RNG counter).
// `history` is the token sequence so far (for penalties). Returns the chosen id; fills rec.
int sample(const SamplerSettings& s, std::span<const float> logits, std::span<const int> history,
           uint64_t step, SamplingRecord* rec, const SampleOptions& opt = {});

// The final distribution as a dense vector (vocab_size), for "sample this step N times".
std::vector<float> final_distribution(const SamplerSettings& s, std::span<const float> logits,
                                      std::span<const int> history);
// Draw n ids from that distribution with stream `stream` of the RNG (never stream 0).
std::vector<int> draw_many(const std::vector<float>& probs, uint64_t seed, uint64_t step, int n,
                           uint64_t stream = 1);

}  // namespace ts
