// The twenty plots of the tale generator, one function each: the ten at home and among friends
// (tale_plots_home.cpp) and the ten out of doors (tale_plots_outdoors.cpp). tale_plots.cpp orders
// them into the table a tale draws its plot from.
#pragma once
#include "train/tale_grammar.h"

namespace ts::tale_plot {

// At home and among friends.
void plot_lost_toy(TaleGrammar& g);
void plot_sharing(TaleGrammar& g);
void plot_gift(TaleGrammar& g);
void plot_food(TaleGrammar& g);
void plot_baking(TaleGrammar& g);
void plot_new_friend(TaleGrammar& g);
void plot_night(TaleGrammar& g);
void plot_fixing(TaleGrammar& g);
void plot_party(TaleGrammar& g);
void plot_learning(TaleGrammar& g);
// Out of doors.
void plot_brave(TaleGrammar& g);
void plot_animal(TaleGrammar& g);
void plot_weather(TaleGrammar& g);
void plot_garden(TaleGrammar& g);
void plot_treasure(TaleGrammar& g);
void plot_race(TaleGrammar& g);
void plot_beach(TaleGrammar& g);
void plot_snow(TaleGrammar& g);
void plot_lost_way(TaleGrammar& g);
void plot_boat(TaleGrammar& g);

}  // namespace ts::tale_plot
