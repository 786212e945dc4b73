// The steps every plot of the tale generator takes between its beats (tale_plots.cpp): a beat is
// one template sentence, then sometimes one or two free scene sentences (tale_scene.h); color
// is an occasional sentence of scenery, a thought or a small action.
#pragma once
#include <cstddef>

#include "train/tale_grammar.h"
#include "train/tale_scene.h"

namespace ts {

// A sentence of scenery, a thought or a small action between the plot's beats (sometimes).
// The sentences stay whole, one literal each:
// clang-format off
inline void color(TaleGrammar& g, double p = 0.35) {
  if (!g.chance(p)) return;
  static const char* const k[] = {
      "The sun was [warm|bright|high in the sky].",
      "[Birds|Little birds] [sang|chirped] in the [trees|bushes].",
      "A [soft|cool|gentle] wind [blew|moved] the [leaves|grass].",
      "The sky was [blue|grey|full of white clouds].",
      "{N} [smiled|laughed|nodded|looked around].",
      "{Ns} [felt|was] {very}{hap}.",
      "{N} took a [deep|big|long] breath.",
      "[It was a [warm|cold|quiet|busy] day.|Everything was [quiet|still|calm].]",
      "{Ns} could hear [the birds|the wind|the water|children laughing] [nearby|far away|all around].",
      "{N} thought about it for a [moment|minute|while]."};
  g.say(k);
}
// clang-format on

// A plot beat, then sometimes one or two free scene sentences (tale_scene.h).
template <size_t N>
void beat(TaleGrammar& g, const char* const (&n)[N]) {
  g.say(n);
  const size_t r = g.below(100);
  tale_scene(g, r < 10 ? 0 : r < 50 ? 1 : 2);
}

}  // namespace ts
