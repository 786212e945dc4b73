// A procedural generator of simple English children's stories (the default training corpus):
// a named hero (child or animal) with a friend, a toy, a place, a small plot (a lost toy, sharing,
// being brave, helping an animal, bad weather, making a gift, sharing food), dialogue in quotes,
// a resolution and an ending. Pronouns follow each character's gender. Deterministic: story i of
// seed s is always the same text, on every platform (counter-based RNG, no std distributions).
#pragma once
#include <cstdint>
#include <string>

namespace ts {

// One story, no trailing separator. Usually 8-16 sentences.
std::string generate_story(uint64_t seed, uint64_t index);

// Stories index first .. first+count-1, each followed by `separator` (e.g. "<|endoftext|>").
std::string generate_stories(uint64_t seed, uint64_t first, uint64_t count,
                             const std::string& separator);

}  // namespace ts
