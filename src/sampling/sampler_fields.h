// The fields of SamplerSettings as files spell them, listed once for every reader and writer
// (trace JSON in src/trace/, the app's settings file): sampler_fields(io, s) names each key and
// the member it holds. An Io supplies io(key, value) for numbers, io.bytes(key, text) for the
// label and io.stage_kinds(key, order); each Io decides its own encoding and how strict it is.
#pragma once
#include <type_traits>

#include "sampling/sampler.h"

namespace ts {

// S is SamplerSettings or const SamplerSettings: one list serves writers and readers.
template <class Io, class S>
  requires std::is_same_v<std::remove_const_t<S>, SamplerSettings>
void sampler_fields(Io& io, S& s) {
  io.bytes("label", s.label);
  io("temperature", s.temperature);
  io("top_k", s.top_k);
  io("top_p", s.top_p);
  io("min_p", s.min_p);
  io("repetition_penalty", s.repetition_penalty);
  io("frequency_penalty", s.frequency_penalty);
  io("presence_penalty", s.presence_penalty);
  io("penalty_last_n", s.penalty_last_n);
  io("seed", s.seed);
  io.stage_kinds("order", s.order);
}

}  // namespace ts
