// The tale generator's plots out of doors (tale_plot_list.h): being brave, a little animal, the
// weather, a garden, a treasure map, a race, the seaside, snow, getting lost, a little boat.
// Each sets the scene, writes its beats with the cast's keys ({n}, {f}, {hh}, {t}, ...) and
// scenery between them (tale_beats.h). Word lists live in tale_words.cpp.
#include "train/tale_beats.h"
#include "train/tale_plot_list.h"

namespace ts::tale_plot {

// The sentences stay whole, one literal each:
// clang-format off

void plot_brave(TaleGrammar& g) {
  static const char* const dares[][2] = {
      {"go down the big slide", "went down the big slide"},
      {"climb the tall tree", "climbed the tall tree"},
      {"swim in the lake", "swam in the lake"},
      {"ride {np} new bike", "rode {np} new bike"},
      {"jump over the big puddle", "jumped over the big puddle"},
      {"sing in front of the class", "sang in front of the class"},
      {"pet the big horse", "petted the big horse"},
      {"cross the little bridge", "crossed the little bridge"}};
  const size_t d = g.below(8);
  g.set("dare", dares[d][0]);
  g.set("dared", dares[d][1]);
  static const char* const s1[] = {"One day, {n} went to {pl} with {hh}.",
                                   "One day, {hh} took {no} to {pl}."};
  beat(g, s1);
  static const char* const s2[] = {"{N} wanted to {dare}, but {ns} was scared.",
                                   "{N} wanted to {dare}. But {ns} felt [scared|afraid|nervous]."};
  beat(g, s2);
  static const char* const s3[] = {"\"What if I fall?\" {ns} asked.",
                                   "\"I can't do it,\" {ns} said in a [small|quiet] voice.",
                                   "\"It is too [big|hard|scary] for me,\" {ns} said."};
  beat(g, s3);
  static const char* const s4[] = {"{Hh} smiled and said, \"You can do it. I am right here.\"",
                                   "{Hh} held {np} hand. \"Be brave,\" {hs} said.",
                                   "\"Take a deep breath,\" said {hh}. \"I believe in you.\""};
  beat(g, s4);
  color(g, 0.5);
  static const char* const s5[] = {"{N} took a deep breath.", "{N} counted to three.",
                                   "{N} closed {np} eyes for a moment."};
  beat(g, s5);
  static const char* const s6[] = {"Then {ns} {dared}!", "Slowly, {ns} {dared}.",
                                   "{Ns} {dared}, and it was so much fun!"};
  beat(g, s6);
  static const char* const s7[] = {"\"I did it!\" {ns} shouted.",
                                   "\"Look at me!\" {ns} said with a big smile.",
                                   "\"That was fun!\" {ns} [laughed|said]."};
  beat(g, s7);
  static const char* const s8[] = {"{Hh} was {very}proud of {no}.", "{N} felt {hap} and brave."};
  beat(g, s8);
}

void plot_animal(TaleGrammar& g) {
  static const char* const s1[] = {"One day, {n} was walking {in_pl}.",
                                   "One day, {n} went to {pl} to play.",
                                   "{Then}, {n} {walk} to {pl}."};
  beat(g, s1);
  static const char* const s2[] = {"{Ns} saw a little {a} stuck in a bush.",
                                   "{Ns} heard a small sound. It was a little {a}!",
                                   "{Ns} found a little {a} that was lost."};
  beat(g, s2);
  static const char* const s3[] = {"The {a} looked [cold|tired|hungry] and {sad}.",
                                   "The {a} said, \"{As}, {as}!\" It was very hungry.",
                                   "The poor {a} could not find its home."};
  beat(g, s3);
  static const char* const s4[] = {
      "\"Don't be scared, little {a},\" {n} said [softly|gently]. \"I will help you.\"",
      "{N} wanted to help the {a}."};
  beat(g, s4);
  static const char* const s5[] = {"{Ns} gave the {a} {food} and a warm blanket.",
                                   "{Ns} picked it up very [gently|carefully] and gave it {food}.",
                                   "{Ns} shared {food} with the {a}."};
  beat(g, s5);
  color(g);
  static const char* const s6[] = {
      "The {a} was happy. It said \"{as}\" and [licked|touched] {np} hand.",
      "Soon the {a} felt better."};
  beat(g, s6);
  static const char* const s7[] = {
      "Then {n} helped the {a} find its mother. They were so glad to see each other.",
      "{N} took the {a} home, and {hh} said it could stay.",
      "{N} and {hh} took the {a} back to its [home|family|nest]."};
  beat(g, s7);
  static const char* const s8[] = {"Every day after that, the {a} came to visit {no}.",
                                   "{N} felt {hap} that {ns} could help."};
  beat(g, s8);
}

void plot_weather(TaleGrammar& g) {
  static const char* const s1[] = {"One day, {n} and {f} wanted to have a picnic {in_pl}.",
                                   "One day, {n} wanted to play with {f} {in_pl}."};
  beat(g, s1);
  static const char* const s2[] = {"They packed {food} and {food}.",
                                   "{Ns} put on {np} [red|blue|yellow|green] hat and ran outside."};
  beat(g, s2);
  static const char* const s3[] = {
      "But then [it started to rain|the wind began to blow|dark clouds came|it got very cold].",
      "Suddenly, [it started to rain|the wind began to blow|it began to snow]."};
  beat(g, s3);
  static const char* const s4[] = {"{N} was {sad}. \"Now we can't play,\" {ns} said.",
                                   "\"Oh no,\" said {f}. \"Our day is ruined.\""};
  beat(g, s4);
  static const char* const s5[] = {
      "{Hh} had an idea. \"Let's [make a fort|bake cookies|play a game] inside,\" {hs} said.",
      "{F} had an idea. \"We can play inside!\" {fs} said."};
  beat(g, s5);
  static const char* const s6[] = {
      "So they built a fort with pillows and read a book in it.",
      "They played a game and [laughed|talked] a lot.",
      "They [drew pictures|made a puppet show|sang songs] together. It was a lot of fun."};
  beat(g, s6);
  static const char* const s7[] = {"Later, the sun came out and there was a big rainbow.",
                                   "After a while, the sky was blue again."};
  beat(g, s7);
  static const char* const s8[] = {
      "\"Look!\" said {n}. They ran outside and had their picnic after all.",
      "{N} and {f} laughed. It was a good day after all."};
  beat(g, s8);
}

void plot_garden(TaleGrammar& g) {
  g.set("plant", "[sunflowers|tomatoes|carrots|beans|roses|pumpkins]");
  g.set("pl_one", "[sunflower|tomato|carrot|bean|rose|pumpkin]");
  static const char* const s1[] = {"One spring day, {hh} gave {n} a little bag of seeds.",
                                   "One day, {n} found some seeds in an old box."};
  beat(g, s1);
  static const char* const s2[] = {"\"These will grow into {plant},\" said {hh}.",
                                   "{N} wanted to grow {plant}."};
  beat(g, s2);
  static const char* const s3[] = {"{Ns} dug small holes in the garden and put the seeds in.",
                                   "{Ns} planted the seeds in a [row|pot|sunny spot]."};
  beat(g, s3);
  static const char* const s4[] = {"Every day, {ns} gave them water.",
                                   "Every morning, {n} looked at the dirt, but nothing was there."};
  beat(g, s4);
  static const char* const s5[] = {"\"Why are they not growing?\" {ns} asked.",
                                   "{N} was not patient. \"It is taking too long!\" {ns} said."};
  beat(g, s5);
  static const char* const s6[] = {"\"Plants need time,\" said {hh}. \"Be patient.\"",
                                   "{Hh} smiled. \"Wait and see,\" {hs} said."};
  beat(g, s6);
  color(g, 0.5);
  static const char* const s7[] = {"One morning, {n} saw a tiny green leaf!",
                                   "After many days, little green shoots came up."};
  beat(g, s7);
  static const char* const s8[] = {"Soon the garden was full of {plant}.",
                                   "By the summer, there was a big {pl_one} in the garden."};
  beat(g, s8);
  static const char* const s9[] = {
      "{N} was so proud. {Ns} shared them with {f} and [the neighbors|{np} family|everyone].",
      "{N} learned that good things take time."};
  beat(g, s9);
}

void plot_treasure(TaleGrammar& g) {
  static const char* const s1[] = {
      "One day, {n} found an old map [in the attic|under {np} bed|in a book|in the sand].",
      "One day, {f} showed {n} a secret map."};
  beat(g, s1);
  static const char* const s2[] = {"The map had a big red X on it.",
                                   "\"It is a treasure map!\" {said} {n}."};
  beat(g, s2);
  static const char* const s3[] = {
      "{N} and {f} followed the map [past the old tree|over the hill|along the river|through the garden].",
      "They followed the map step by step."};
  beat(g, s3);
  color(g, 0.5);
  static const char* const s4[] = {"At the X, they started to dig.",
                                   "At last, they came to a big rock with an X on it."};
  beat(g, s4);
  static const char* const s5[] = {"They found a small box.",
                                   "Under the [rock|sand|leaves], there was an old wooden box."};
  beat(g, s5);
  static const char* const s6[] = {
      "Inside the box were [shiny stones|old coins|colored marbles|a note and a key|seashells].",
      "They opened the box. Inside, there was a note that said, \"The real treasure is a good friend.\""};
  beat(g, s6);
  static const char* const s7[] = {"{N} and {f} laughed and laughed.",
                                   "\"This is the best treasure ever!\" said {f}."};
  beat(g, s7);
}

void plot_race(TaleGrammar& g) {
  static const char* const s1[] = {
      "One day, there was a big race {in_pl}.",
      "One day, {n} and {f} had a race to the [big tree|gate|top of the hill]."};
  beat(g, s1);
  static const char* const s2[] = {"{N} wanted to win.", "\"I will be first!\" said {n}."};
  beat(g, s2);
  static const char* const s3[] = {"\"Ready, set, go!\" [said|shouted] {hh}.",
                                   "They lined up. One, two, three, go!"};
  beat(g, s3);
  static const char* const s4[] = {"{N} ran as fast as {ns} could.", "{N} and {f} ran and ran."};
  beat(g, s4);
  static const char* const s5[] = {"But then {f} fell down and hurt {fp} knee.",
                                   "Suddenly, {f} tripped and fell."};
  beat(g, s5);
  static const char* const s6[] = {"{N} stopped running. {Ns} went back to help.",
                                   "{N} could win, but {ns} turned around to help {f}."};
  beat(g, s6);
  static const char* const s7[] = {"\"Are you okay?\" asked {n}. {Ns} helped {fo} up.",
                                   "{Ns} held {fp} hand and helped {fo} stand."};
  beat(g, s7);
  static const char* const s8[] = {"They crossed the line together.",
                                   "They walked to the end together, side by side."};
  beat(g, s8);
  static const char* const s9[] = {"Everyone clapped and cheered.",
                                   "{Hh} said, \"That was the bravest thing I saw today.\""};
  beat(g, s9);
}

void plot_beach(TaleGrammar& g) {
  static const char* const s1[] = {"One [hot|sunny] day, {n} went to the beach with {hh}.",
                                   "One summer day, {n} and {f} went to the sea."};
  beat(g, s1);
  static const char* const s2[] = {
      "{Ns} built a [big|tall|huge] sandcastle. Then a big wave came and knocked it down!",
      "{Ns} looked for shells in the sand. Then {ns} found a [pink|white|shiny|tiny] shell.",
      "{Ns} [splashed|played] in the water. Then {ns} saw a little crab [walking sideways|hiding under a rock]."};
  beat(g, s2);
  color(g, 0.5);
  static const char* const s4[] = {"\"Oh no!\" {said} {n}.",
                                   "\"Look at this!\" {n} called to {f}."};
  beat(g, s4);
  static const char* const s5[] = {"They [played|laughed|looked around] together for a long time.",
                                   "They [watched the waves|laughed] for a long time."};
  beat(g, s5);
  static const char* const s6[] = {"When the sun went down, they walked home, tired and {hap}.",
                                   "It was the best day at the beach."};
  beat(g, s6);
}

void plot_snow(TaleGrammar& g) {
  static const char* const s1[] = {
      "One winter morning, {n} looked out of the window. Everything was white!",
      "One cold day, it snowed and snowed."};
  beat(g, s1);
  static const char* const s2[] = {"{N} put on {np} warm coat, {np} hat and {np} boots.",
                                   "\"Snow!\" {said} {n}, and {ns} ran outside."};
  beat(g, s2);
  static const char* const s3[] = {
      "{N} and {f} made a big snowman. They gave it a carrot nose and a [red|blue|green] scarf.",
      "{N} and {f} went down the hill on a sled. The sled went fast, and they laughed all the way down.",
      "{N} and {f} made angels in the snow. Then they threw snowballs at each other."};
  beat(g, s3);
  color(g);
  static const char* const s5[] = {"Soon {np} hands were cold.",
                                   "When it got dark, {hh} called them in."};
  beat(g, s5);
  static const char* const s6[] = {"They drank warm milk by the fire.",
                                   "{Hh} made hot soup for everyone."};
  beat(g, s6);
}

void plot_lost_way(TaleGrammar& g) {
  static const char* const s1[] = {
      "One day, {n} went for a walk in the woods.",
      "One day, {n} was at the [busy market|big park|fair] with {hh}."};
  beat(g, s1);
  static const char* const s2[] = {
      "{Ns} saw a [pretty butterfly|little rabbit|bright red bird] and followed it.",
      "{Ns} stopped to look at {pt}."};
  beat(g, s2);
  static const char* const s3[] = {"When {ns} looked up, {ns} did not know where {ns} was.",
                                   "When {ns} turned around, {hh} was gone!"};
  beat(g, s3);
  static const char* const s4[] = {"{N} felt scared. {Np} heart went thump, thump.",
                                   "\"Where am I?\" {ns} [said|whispered]."};
  beat(g, s4);
  static const char* const s5[] = {
      "Then {ns} remembered what {hh} said: \"If you get lost, stay where you are.\"",
      "{N} took a deep breath and thought [hard|carefully]."};
  beat(g, s5);
  static const char* const s6[] = {"{Ns} [sat down|waited] by a [big tree|bench|tall lamp].",
                                   "{Ns} asked a kind lady for help."};
  beat(g, s6);
  static const char* const s7[] = {"Soon {ns} heard a voice calling, \"{N}! {N}!\"",
                                   "Soon {hh} came running."};
  beat(g, s7);
  static const char* const s8[] = {"{N} ran and gave {hh} a big hug.",
                                   "\"I was so worried,\" said {hh}, holding {no} tight."};
  beat(g, s8);
}

void plot_boat(TaleGrammar& g) {
  static const char* const s1[] = {
      "One day, {n} made a little boat out of [paper|wood|an old box].",
      "One day, {n} and {f} found a little boat by the lake."};
  beat(g, s1);
  static const char* const s2[] = {"{Ns} painted it [red|blue|yellow] and gave it a name.",
                                   "They put it on the water."};
  beat(g, s2);
  static const char* const s3[] = {
      "The boat floated away, [far|faster and faster] across the water.",
      "The wind pushed the boat to the middle of the lake."};
  beat(g, s3);
  static const char* const s4[] = {"\"Come back!\" {said} {n}.",
                                   "{N} ran along the shore after it."};
  beat(g, s4);
  color(g);
  static const char* const s5[] = {"A [duck|swan|big fish] pushed the boat back to the shore.",
                                   "At last, the wind turned and the boat came back."};
  beat(g, s5);
  static const char* const s6[] = {"{N} picked it up and held it tight.",
                                   "\"Thank you, wind!\" {n} laughed."};
  beat(g, s6);
}

// clang-format on

}  // namespace ts::tale_plot
