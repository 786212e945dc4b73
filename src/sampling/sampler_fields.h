// The fields of SamplerSettings as files spell them, listed once for every reader and writer
// (trace JSON in src/trace/, the app's settings file). Files hold the flat form
// (flat_settings.h: "temperature", "top_k", ..., "order"), which every older file has and every
// older reader wants, and a "chain" of stage objects ({"kind": "top-k", "k": 40}), which is
// exact (a stage may repeat) and wins when present. An Io supplies io(key, value) for numbers,
// io.bytes(key, text) for the label, io.stage_kinds(key, order) and io.chain(key, stages, has);
// each Io decides its own encoding and how strict it is.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "sampling/flat_settings.h"
#include "sampling/sampler.h"

namespace ts {

// SamplerSettings as written in a file.
struct SamplerFileForm {
  std::string label;
  uint64_t seed = 42;
  FlatSettings flat;
  bool has_chain = false;  // reading: the file had a "chain"
  std::vector<Stage> chain;
};

inline SamplerFileForm to_file_form(const SamplerSettings& s) {
  return {s.label, s.seed, flatten(s.chain), true, s.chain};
}
inline SamplerSettings from_file_form(const SamplerFileForm& f) {
  SamplerSettings s;
  s.label = f.label;
  s.seed = f.seed;
  s.chain = f.has_chain ? f.chain : chain_of(f.flat);
  return s;
}

// The parameters of each stage inside a stage object: stage_fields (stage_param.h), from
// each stage's parameter table.

// F is SamplerFileForm or const SamplerFileForm: one list serves writers and readers.
template <class Io, class F>
requires std::is_same_v<std::remove_const_t<F>, SamplerFileForm>
void sampler_fields(Io& io, F& f) {
  io.bytes("label", f.label);
  io("temperature", f.flat.temperature);
  io("top_k", f.flat.top_k);
  io("top_p", f.flat.top_p);
  io("min_p", f.flat.min_p);
  io("repetition_penalty", f.flat.repetition_penalty);
  io("frequency_penalty", f.flat.frequency_penalty);
  io("presence_penalty", f.flat.presence_penalty);
  io("penalty_last_n", f.flat.penalty_last_n);
  io("seed", f.seed);
  io.stage_kinds("order", f.flat.order);
  io.chain("chain", f.chain, f.has_chain);  // optional: absent in files written before it
}

template <class Io>
void write_sampler(Io& io, const SamplerSettings& s) {
  const SamplerFileForm f = to_file_form(s);
  sampler_fields(io, f);
}
template <class Io>
void read_sampler(Io& io, SamplerSettings& s) {
  SamplerFileForm f;
  sampler_fields(io, f);
  s = from_file_form(f);
}

}  // namespace ts
