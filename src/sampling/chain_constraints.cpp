// chain_constraints (chain_constraints.h): each constraint stage's automaton, in chain order.
#include "sampling/chain_constraints.h"

#include <optional>
#include <variant>

#include "sampling/stage_constraint.h"

namespace ts {

ChainConstraints chain_constraints(std::span<const Stage> chain) {
  ChainConstraints out;
  for (const Stage& st : chain) {
    std::optional<TextRegex> re;
    if (const auto* o = std::get_if<OneOf>(&st)) re = constraint_regex(*o);
    if (const auto* x = std::get_if<Regex>(&st)) re = constraint_regex(*x);
    if (!re) continue;
    out.automata.push_back(std::move(*re));
    if (!out.described.empty()) out.described += "; ";
    out.described += record_name(st);
  }
  return out;
}

}  // namespace ts
