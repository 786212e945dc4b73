// Word lists for the tale generator (tale_gen.h): names, animals, traits, toys, places, helpers.
// Written for tokenscope; words a small child would know. Parallel lists keep one order.
#pragma once
#include <span>
#include <string_view>

namespace ts::tale_words {

using List = std::span<const std::string_view>;

List girl_names();
List boy_names();
List pet_names();
List animals();          // "cat", "fox" ...
List animal_sounds();    // parallel to animals()
List traits();           // "shy", "curious" ...
List colors();
List sizes();
List toys();
List places();           // with article: "the park" ...
List place_preps();      // parallel to places()
List place_things();     // parallel to places(): "a big slide" ...
List helpers();          // a full reference, possessive included: "{np} mom", "the teacher"
List helper_pronouns();  // parallel to helpers()

}  // namespace ts::tale_words
