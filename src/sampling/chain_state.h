// The working state a sampler stage edits (logits in double plus an alive mask), what a stage
// reports back (its record name, threshold and recorded values) and what it may read besides the
// logits (the token history, the seed and the step for a stage that flips a coin). Shared by the
// stage descriptors (stage.h) and the reference chain (stages.h).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ts {

struct ChainState {
  std::vector<double> logit;   // (vocab_size) current logits; cut tokens keep their last value
  std::vector<uint8_t> alive;  // (vocab_size) 1 = still possible
  int n_alive() const;
};

// One value a stage records beside its cut (XTC's coin, typical-p's entropy, ...). A key that
// starts with "mass" is a share of the probability mass (the app shows it in %).
struct StageValue {
  std::string key;  // "coin", "fired", "entropy", "mass removed"
  double value = 0;
  bool operator==(const StageValue&) const = default;
};

struct StageOutcome {
  StageOutcome(std::string n = {}, double at = 0) : name(std::move(n)), cut_at(at) {}
  std::string name;   // "top-p 0.90"
  double cut_at = 0;  // see StageRecord::cut_at
  std::vector<StageValue> values;
  std::vector<int> marks;  // history positions the stage looked at (for highlighting)
};

struct StageRecord;  // sampler.h

// What a stage that reads text sees of the vocabulary (the constraint stages): each token's
// bytes as the text shows them (empty for special tokens), the end-of-text id and where in the
// history the constrained text begins (the first generated token). Empty pieces: none known.
struct TokenText {
  std::span<const std::string> pieces;  // (vocab_size)
  int eos_id = -1;
  size_t start = 0;
};

// What a stage may read besides the logits. The RNG stream 0 belongs to the draw.
struct StageContext {
  std::span<const int> history;
  uint64_t seed = 42;
  uint64_t step = 0;
  // The same stage's record at the parent step (same place in the chain, same kind), or null:
  // where a stage with state across steps (mirostat's mu) finds it, so rewinding restores it.
  const StageRecord* previous = nullptr;
  TokenText text = {};
};

}  // namespace ts
