// The constraint stages of a chain (one-of, regex: stage_constraint.h) as automata, for the
// searches that apply their rule themselves instead of running the chain (beam search).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "sampling/stage.h"
#include "sampling/text_regex.h"

namespace ts {

struct ChainConstraints {
  std::vector<TextRegex> automata;  // one per stage that is on and compiles, in chain order
  std::string described;            // their records joined by "; " ("one-of yes|no"), or ""
};
ChainConstraints chain_constraints(std::span<const Stage> chain);

}  // namespace ts
