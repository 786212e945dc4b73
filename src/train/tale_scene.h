// Free scene sentences for the tale generator (tale_gen.h): between a plot's beats, sentences
// composed word by word from a subject (one of the cast, or the two friends together), a verb
// frame (moving, finding, holding, feeling, wanting, playing, eating, hearing, thinking, speaking,
// asking), optional openers, adverbials and a second clause. Each slot has many fitting words,
// so a model trained on the tales is unsure between several readable words at most steps, while
// the plot's beats keep the story's shape. Plot props (the lost toy) are never used here, so a
// scene cannot contradict the plot.
#pragma once

#include "train/tale_grammar.h"

namespace ts {

// Appends `count` scene sentences. Needs the cast and setting keys of tale_gen.cpp
// (n, ns, no, np, f, fs, fo, fp, hh, hs, ho, pl, in_pl, a, pet).
void tale_scene(TaleGrammar& g, int count);

}  // namespace ts
