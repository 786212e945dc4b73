// The tale generator: procedural children's stories with many more plots, characters, places,
// sentence shapes, dialogue and connectives than story_gen.h, so that a model trained on them is
// genuinely unsure at many steps between several readable words (the default model's corpus).
// A story keeps its cast (names, genders, pronouns, the helper) from start to end. Deterministic:
// tale i of seed s is the same text on every platform.
#pragma once
#include <cstdint>
#include <string>

namespace ts {

// One tale, no trailing separator. Usually 10-20 sentences.
std::string generate_tale(uint64_t seed, uint64_t index);

// A tale (generate_tale's, the same text) and a request for it that a reader might have typed:
// "Tell me a story about a fox named Lily who gets lost." It names the hero, what the hero is
// and what the plot is about, so a model trained on chats has to read the request to answer it.
struct TaleAndRequest {
  std::string tale;
  std::string request;
};
TaleAndRequest generate_tale_and_request(uint64_t seed, uint64_t index);

// Tales first .. first+count-1, each followed by `separator`.
std::string generate_tales(uint64_t seed, uint64_t first, uint64_t count, const std::string& separator);

}  // namespace ts
