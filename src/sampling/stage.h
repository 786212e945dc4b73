// A sampler stage as a value carrying its own parameters. A chain (SamplerSettings::chain,
// sampler.h) is an ordered list of these, so stages can be reordered or repeated. Each stage
// type is its own descriptor (stage_param.h: name, parameters with ranges, check, clamp, record
// name, the reference maths); this file lists them once, in the Stage variant, and derives the
// names, validation, clamping and record names from it. The first five are the original stages
// (descriptors in stage.cpp, maths in stages.cpp); the others each have their own files.
//
// Adding a stage: its stage_<x>.h/.cpp (the descriptor and maths), its entry below (StageKind and
// the variant, in the same order), its test. The static_asserts below refuse a missing piece.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "base/error.h"
#include "sampling/stage_constraint.h"
#include "sampling/stage_dry.h"
#include "sampling/stage_dyn_temp.h"
#include "sampling/stage_logit_bias.h"
#include "sampling/stage_mirostat.h"
#include "sampling/stage_param.h"
#include "sampling/stage_top_n_sigma.h"
#include "sampling/stage_typical.h"
#include "sampling/stage_xtc.h"

namespace ts {

// Default values are the stage's "off" values (temperature 1 divides by one).
struct Penalties {
  float repeat = 1.0f;     // repetition penalty: 1 = off; > 0
  float frequency = 0.0f;  // 0 = off
  float presence = 0.0f;   // 0 = off
  int last_n = 64;         // how many previous tokens are looked at; 0 = off
  TS_STAGE_DESCRIPTOR(Penalties);
};
struct Temperature {
  float t = 1.0f;  // 0 = greedy: only the argmax survives
  TS_STAGE_DESCRIPTOR(Temperature);
};
struct TopK {
  int k = 0;  // 0 = off
  TS_STAGE_DESCRIPTOR(TopK);
};
struct TopP {
  float p = 1.0f;  // 1 = off; must be in (0, 1]
  TS_STAGE_DESCRIPTOR(TopP);
};
struct MinP {
  float p = 0.0f;  // 0 = off; must be in [0, 1]
  TS_STAGE_DESCRIPTOR(MinP);
};

// In the variant's order: kind_of(s) is s.index().
enum class StageKind {
  Penalties,
  Temperature,
  TopK,
  TopP,
  MinP,
  TypicalP,
  TopNSigma,
  Xtc,
  DynTemp,
  LogitBias,
  Dry,
  Mirostat,
  OneOf,
  Regex
};
using Stage = std::variant<Penalties, Temperature, TopK, TopP, MinP, TypicalP, TopNSigma, Xtc,
                           DynTemp, LogitBias, Dry, Mirostat, OneOf, Regex>;
constexpr int kStageCount = static_cast<int>(std::variant_size_v<Stage>);
static_assert(static_cast<int>(StageKind::Regex) + 1 == kStageCount,
              "StageKind and Stage list the same stages in the same order");
// The stages the flat form of the settings (flat_settings.h) knows: the first five.
constexpr int kFlatStageCount = 5;

namespace stage_detail {
template <size_t... I>
constexpr bool all_stage_types(std::index_sequence<I...>) {
  return (StageType<std::variant_alternative_t<I, Stage>> && ...);
}
}  // namespace stage_detail
static_assert(stage_detail::all_stage_types(std::make_index_sequence<kStageCount>{}),
              "every stage type provides the whole descriptor (stage_param.h)");

// Calls f.template operator()<S>() for each stage type S, in StageKind order.
template <class F>
void for_each_stage_type(F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) {
    (f.template operator()<std::variant_alternative_t<I, Stage>>(), ...);
  }(std::make_index_sequence<kStageCount>{});
}

const char* stage_name(StageKind k);  // "penalties", "temperature", "top-k", ...
// Inverse of stage_name (for CLI flags and session files); error names the allowed values.
Result<StageKind> parse_stage_kind(std::string_view name);

StageKind kind_of(const Stage& s);
Stage default_stage(StageKind k);  // the stage of that kind with its off values
// Where a stage of kind k goes when added to a chain that lacks it: a constraint (one-of,
// regex) first, so the cuts after it choose among tokens that fit; a temperature at the end;
// any other before the last temperature (llama.cpp's stages run before it), or at the end.
size_t stage_insert_at(const std::vector<Stage>& chain, StageKind k);
// Today's default chain: llama.cpp's common order, temperature last but the draw, all off.
std::vector<Stage> default_chain();

// True when the stage leaves the logits as they are (penalties with no effect or last_n 0,
// top-k 0, top-p >= 1, min-p 0, ...). A temperature is never off: 1 divides, 0 is greedy.
bool is_off(const Stage& s);
// Rejects a value with a message naming the field and the allowed range, e.g. "sampler: top_p
// must be in (0, 1] (1 = off), got 0" (the field names of the settings file).
Status validate(const Stage& s);
// Each parameter pulled into its range (sample() never crashes on unvalidated settings).
Stage clamp(const Stage& s);
// The name of the stage's record: "top-p 0.90", "top-k off", "temperature 0 (greedy)",
// "penalties rep 1.10 freq 0.00 pres 0.00 last 64".
std::string record_name(const Stage& s);

}  // namespace ts
