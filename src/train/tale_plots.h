// The twenty plots of the tale generator (tale_gen.h), each a run of beats (tale_beats.h) over
// the cast and setting the generator has set in the grammar, and per plot a clause a reader
// might have asked for ("who gets lost"), true of every tale that plot writes.
#pragma once
#include <span>

#include "train/tale_grammar.h"

namespace ts {

using TalePlot = void (*)(TaleGrammar&);

// The plots, in a fixed order (a tale's plot is drawn by index: the order is part of the corpus).
std::span<const TalePlot> tale_plots();
// The request clause of each plot, in tale_plots()'s order.
std::span<const char* const> tale_plot_requests();

}  // namespace ts
