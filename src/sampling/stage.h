// A sampler stage as a value carrying its own parameters: penalties, temperature, top-k, top-p,
// min-p. A chain (SamplerSettings::chain, sampler.h) is an ordered list of these, so stages can
// be reordered or repeated. Here: the types, their names, validation, clamping and the name a
// stage's record gets; the maths over the vocabulary is in stages.h.
#pragma once
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/error.h"

namespace ts {

enum class StageKind { Penalties, Temperature, TopK, TopP, MinP };
const char* stage_name(StageKind k);  // "penalties", "temperature", "top-k", "top-p", "min-p"
// Inverse of stage_name (for CLI flags and session files); error names the allowed values.
Result<StageKind> parse_stage_kind(std::string_view name);

// Default values are the stage's "off" values (temperature 1 divides by one).
struct Penalties {
  float repeat = 1.0f;     // repetition penalty: 1 = off; > 0
  float frequency = 0.0f;  // 0 = off
  float presence = 0.0f;   // 0 = off
  int last_n = 64;         // how many previous tokens are looked at; 0 = off
  bool operator==(const Penalties&) const = default;
};
struct Temperature {
  float t = 1.0f;  // 0 = greedy: only the argmax survives
  bool operator==(const Temperature&) const = default;
};
struct TopK {
  int k = 0;  // 0 = off
  bool operator==(const TopK&) const = default;
};
struct TopP {
  float p = 1.0f;  // 1 = off; must be in (0, 1]
  bool operator==(const TopP&) const = default;
};
struct MinP {
  float p = 0.0f;  // 0 = off; must be in [0, 1]
  bool operator==(const MinP&) const = default;
};

// The alternatives are in StageKind's order: kind_of(s) is s.index().
using Stage = std::variant<Penalties, Temperature, TopK, TopP, MinP>;

StageKind kind_of(const Stage& s);
Stage default_stage(StageKind k);  // the stage of that kind with its off values
// Today's default chain: llama.cpp's common order, temperature last but the draw, all off.
std::vector<Stage> default_chain();

// True when the stage leaves the logits as they are (penalties with no effect or last_n 0,
// top-k 0, top-p >= 1, min-p 0). A temperature is never off: 1 divides, 0 is greedy.
bool is_off(const Stage& s);
// Rejects a value with a message naming the field and the allowed range, e.g. "sampler: top_p
// must be in (0, 1] (1 = off), got 0" (the field names of the settings file).
Status validate(const Stage& s);
// Each parameter pulled into its range (sample() never crashes on unvalidated settings).
Stage clamp(const Stage& s);
// The name of the stage's record: "top-p 0.90", "top-k off", "temperature 0 (greedy)",
// "penalties rep 1.10 freq 0.00 pres 0.00 last 64".
std::string record_name(const Stage& s);

// "0.90" for 0.9, but "0.025" when two decimals would lose digits.
std::string format_param(double x);

}  // namespace ts
