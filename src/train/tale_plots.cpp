// The tale generator's plots (tale_plots.h): each sets the scene, writes its beats with the cast's
// keys ({n}, {f}, {hh}, {t}, ...) and scenery between them. Word lists live in tale_words.cpp.
#include "train/tale_plots.h"

#include "train/tale_beats.h"

namespace ts {

namespace {

using G = TaleGrammar;

// The sentences stay whole, one literal each:
// clang-format off

void plot_lost_toy(G& g) {
  static const char* const s1[] = {"One day, {n} took {np} {t} to {pl}.",
                                   "One [day|morning], {n} and {f} went to {pl} with the {tt}.",
                                   "{Then}, {n} {walk} to {pl} with {np} {t}."};
  beat(g, s1);
  static const char* const s2[] = {"{Ns} played with it for a [long|very long] time.",
                                   "They had so much fun.", "{Ns} saw {pt} and went to look.",
                                   "{Ns} put the {tt} down to [look at|play near] {pt}."};
  beat(g, s2);
  color(g);
  static const char* const s3[] = {
      "When it was time to go home, {n} could not find {np} {tt}!", "But then, the {tt} was gone!",
      "Suddenly, {n} looked down. The {tt} was not there!",
      "[Later|After a while], {n} saw that {np} {tt} was [missing|gone]."};
  beat(g, s3);
  static const char* const s4[] = {
      "\"Where is my {tt}?\" {ns} [cried|asked|said].", "{Ns} felt {very}{sad}.",
      "\"Oh no! My {tt}!\" {said} {n}.",
      "{N} looked [everywhere|all around], but {ns} could not see it."};
  beat(g, s4);
  static const char* const s5[] = {"\"Don't worry, I will help you [look|find it],\" said {f}.",
                                   "\"Let's look together,\" said {f}.",
                                   "{F} [came over|ran over|saw {no}] and said, \"I can help!\"",
                                   "{Hh} said, \"Let's [look|think] [again|carefully].\""};
  beat(g, s5);
  static const char* const s6[] = {
      "They looked [under|behind] [a big tree|the bench|the bushes|a rock].",
      "They looked near the [water|flowers|gate] and [under|behind] the [bench|slide|fence].",
      "They looked [everywhere|high and low]."};
  beat(g, s6);
  static const char* const s7[] = {
      "At last, {f} found the {tt} [in the tall grass|under a leaf|next to {pt}|behind a bush].",
      "Then {n} saw something [red|blue|small|shiny] [behind a bush|in the grass]. It was the {tt}!",
      "At last, they found the {tt} [next to {pt}|by the gate|in a hole]."};
  beat(g, s7);
  static const char* const s8[] = {
      "\"Thank you for helping me!\" said {n}, and {ns} [smiled|jumped for joy].",
      "{N} was so {hap}. {Ns} [hugged|held] {np} {tt} [tight|close].",
      "\"I will never lose it again,\" {n} said."};
  beat(g, s8);
}

void plot_sharing(G& g) {
  static const char* const s1[] = {"One day, {f} came to play.",
                                   "One day, {n} met {fkind} {in_pl}.",
                                   "{Then}, {f} came over to {np} house."};
  beat(g, s1);
  static const char* const s2[] = {"{F} saw the {tt} and wanted to play with it too.",
                                   "{F} [liked|loved] the {tt} very much."};
  beat(g, s2);
  static const char* const s3[] = {"\"Can I play with your {tt}?\" asked {f}.",
                                   "\"Please, can I have a turn?\" {fs} asked.",
                                   "\"May I [try|hold] it?\" asked {f}."};
  beat(g, s3);
  static const char* const s4[] = {"But {n} did not want to share. \"No, it is mine!\" {ns} said.",
                                   "{N} held the {tt} close and said, \"No!\"",
                                   "{N} [shook {np} head|turned away]. \"Not now,\" {ns} said."};
  beat(g, s4);
  static const char* const s5[] = {"{F} felt {sad} and [walked|went] away.",
                                   "{F} looked down at {fp} feet. {Fs} was {very}{sad}."};
  beat(g, s5);
  color(g);
  static const char* const s6[] = {"Soon, {n} felt bad. Playing alone was not [fun|much fun].",
                                   "{N} played alone, but {ns} was not {hap}.",
                                   "{Hh} saw this and said, \"[Sharing is kind|Friends share].\""};
  beat(g, s6);
  static const char* const s7[] = {
      "{Ns} ran to {f} and said, \"I am sorry. Let's play together.\"",
      "{Ns} [went|walked] to {f} and said, \"You can have a turn. I am sorry.\""};
  beat(g, s7);
  static const char* const s8[] = {
      "{F} smiled. They played with the {tt} [all day|until dinner|for a long time].",
      "{F} was {hap}. They took turns and laughed a lot."};
  beat(g, s8);
  static const char* const s9[] = {"{N} learned that sharing is more fun than playing alone.",
                                   "{N} learned that it is good to share.",
                                   "From then on, {n} [always|often] shared {np} toys."};
  beat(g, s9);
}

void plot_brave(G& g) {
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

void plot_animal(G& g) {
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

void plot_weather(G& g) {
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

void plot_gift(G& g) {
  g.set("mk", "[a cake|a picture|a card|a paper boat|a little house|a necklace|a flower crown]");
  g.set("gift", "[cake|picture|card|boat|house|necklace|crown]");
  static const char* const s1[] = {
      "One day, {n} wanted to make a gift for {hh}.",
      "It was almost [the birthday of|a special day for] {hh}, so {n} wanted to make a gift."};
  beat(g, s1);
  static const char* const s2[] = {
      "{Ns} [decided|wanted] to make {mk}.",
      "{Ns} got [paper|glue|paint|everything] ready and started to work."};
  beat(g, s2);
  static const char* const s3[] = {"{Ns} worked very hard.",
                                   "{Ns} worked all [morning|afternoon|day]."};
  beat(g, s3);
  static const char* const s4[] = {"But then, {pet} the [dog|cat] ran by and knocked it over!",
                                   "But then, it [fell down|broke] with a big crash!",
                                   "But then {ns} spilled [water|paint|juice] all over it!"};
  beat(g, s4);
  static const char* const s5[] = {"{N} started to cry. \"It is ruined!\" {ns} said.",
                                   "{N} felt {very}{sad}."};
  beat(g, s5);
  static const char* const s6[] = {"{F} came over. \"I can help you,\" {fs} said.",
                                   "Then {np} friend {f} came to help."};
  beat(g, s6);
  static const char* const s7[] = {"Together, they made it again. This time it was even better.",
                                   "They worked together, and soon it was done."};
  beat(g, s7);
  static const char* const s8[] = {"{N} gave it to {hh}.", "{N} showed it to {hh}."};
  beat(g, s8);
  static const char* const s9[] = {"\"This is the best gift ever!\" said {hh}.",
                                   "{Hh} gave {no} a big hug and said, \"Thank you!\""};
  beat(g, s9);
}

void plot_food(G& g) {
  static const char* const s1[] = {"One day, {n} and {f} went to {pl}.",
                                   "At lunch time, {n} sat next to {f} {in_pl}."};
  beat(g, s1);
  static const char* const s2[] = {"{N} had {food} in {np} bag.",
                                   "{Hh} had packed {food} for {no}."};
  beat(g, s2);
  static const char* const s3[] = {"{F} had no lunch. {Fs} looked {sad}.",
                                   "{F} had forgotten {fp} lunch at home."};
  beat(g, s3);
  static const char* const s4[] = {"\"Are you hungry?\" asked {n}.",
                                   "{N} saw that {f} was hungry."};
  beat(g, s4);
  static const char* const s5[] = {"{Ns} broke {np} food in two and gave half to {f}.",
                                   "\"You can have some of mine,\" {ns} said."};
  beat(g, s5);
  static const char* const s6[] = {"\"Thank you!\" said {f}. {Fs} smiled a big smile.",
                                   "{F} was so {hap}. \"You are kind,\" {fs} said."};
  beat(g, s6);
  static const char* const s7[] = {
      "They ate together and then went to play.",
      "After lunch, they [played tag|went swimming|drew pictures] together."};
  beat(g, s7);
}

void plot_garden(G& g) {
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

void plot_treasure(G& g) {
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

void plot_baking(G& g) {
  static const char* const s1[] = {
      "One day, {n} and {hh} decided to bake [a cake|cookies|bread|a pie].",
      "One [rainy|cold|sunny] day, {n} wanted to bake something for {f}."};
  beat(g, s1);
  static const char* const s2[] = {"They got out the flour, the eggs and the [sugar|milk|butter].",
                                   "{N} put on a big apron."};
  beat(g, s2);
  static const char* const s3[] = {"{N} poured the flour, but it went everywhere!",
                                   "{N} mixed and mixed until {np} arms were tired.",
                                   "{N} cracked an egg, and it fell on the floor."};
  beat(g, s3);
  static const char* const s4[] = {"{Hh} laughed. \"That's okay. Let's try again.\"",
                                   "\"Oops!\" said {n}, and they both laughed."};
  beat(g, s4);
  color(g);
  static const char* const s5[] = {"They put it in the oven and waited.",
                                   "Soon, the kitchen smelled [sweet|warm|so good]."};
  beat(g, s5);
  static const char* const s6[] = {"When it was ready, they shared it with {f}.",
                                   "It was the [best|yummiest|sweetest] thing {n} had ever made."};
  beat(g, s6);
}

void plot_new_friend(G& g) {
  static const char* const s1[] = {
      "One day, a new {fnoun} came to {np} class. {Fs} was called {f}.",
      "One day, {f} moved into the house next door."};
  beat(g, s1);
  static const char* const s2[] = {"{F} was very quiet and sat alone.",
                                   "{F} did not know anyone and looked {sad}."};
  beat(g, s2);
  static const char* const s3[] = {"{N} wanted to say hello, but {ns} felt shy.",
                                   "{N} saw that {f} was alone."};
  beat(g, s3);
  static const char* const s4[] = {"{N} walked over and said, \"Hi! Do you want to play?\"",
                                   "{N} took a deep breath and said, \"Hello, I am {n}.\""};
  beat(g, s4);
  static const char* const s5[] = {"{F} smiled a little. \"Yes, please,\" {fs} said.",
                                   "{F} looked up and smiled. \"Hi,\" {fs} said."};
  beat(g, s5);
  color(g);
  static const char* const s6[] = {
      "They played with {np} {t} all afternoon.",
      "They found out that they both loved [drawing|dogs|music|the rain|soccer]."};
  beat(g, s6);
  static const char* const s7[] = {"Soon, {n} and {f} were best friends.",
                                   "{N} was glad {ns} had said hello."};
  beat(g, s7);
}

void plot_race(G& g) {
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

void plot_beach(G& g) {
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

void plot_night(G& g) {
  static const char* const s1[] = {"One night, {n} could not sleep.",
                                   "One night, {n} heard a strange sound."};
  beat(g, s1);
  static const char* const s2[] = {
      "Tap, tap, tap! Something was at the window.",
      "Scratch, scratch! The sound came from [the door|under the bed|the closet]."};
  beat(g, s2);
  static const char* const s3[] = {"{N} pulled the blanket up to {np} nose.",
                                   "{N} was scared. \"Who is there?\" {ns} [whispered|asked]."};
  beat(g, s3);
  static const char* const s4[] = {"{Ns} called for {hh}.",
                                   "{Ns} took {np} flashlight and looked."};
  beat(g, s4);
  static const char* const s5[] = {
      "It was only [a little owl|the wind|{pet} the cat|a branch of the old tree|a tiny mouse]!",
      "It was just [the rain|a moth|{pet} the dog] and nothing more."};
  beat(g, s5);
  static const char* const s6[] = {"{N} laughed. \"I was scared of nothing,\" {ns} said.",
                                   "{Hh} gave {no} a hug. \"Sleep well,\" {hs} said."};
  beat(g, s6);
  static const char* const s7[] = {"Soon {n} was fast asleep.",
                                   "{N} closed {np} eyes and fell asleep with a smile."};
  beat(g, s7);
}

void plot_fixing(G& g) {
  static const char* const s1[] = {"One day, {np} {t} broke.",
                                   "One day, {n} dropped {np} {t}, and it broke."};
  beat(g, s1);
  static const char* const s2[] = {"{N} was {very}{sad}. \"Now I can't play with it,\" {ns} said.",
                                   "\"It is broken!\" {ns} cried."};
  beat(g, s2);
  static const char* const s3[] = {"{Hh} said, \"Maybe we can fix it.\"",
                                   "{F} said, \"Let's try to fix it together.\""};
  beat(g, s3);
  static const char* const s4[] = {"They got [some glue|some tape|a little box of tools].",
                                   "They looked at it very carefully."};
  beat(g, s4);
  static const char* const s5[] = {"It was hard. The first time, it did not work.",
                                   "They tried and tried."};
  beat(g, s5);
  color(g);
  static const char* const s6[] = {"At last, the {tt} was as good as new!",
                                   "Then, with one more try, it worked!"};
  beat(g, s6);
  static const char* const s7[] = {"{N} jumped up and down. \"Thank you!\" {ns} said.",
                                   "{N} learned that some things can be fixed with patience."};
  beat(g, s7);
}

void plot_snow(G& g) {
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

void plot_lost_way(G& g) {
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

void plot_party(G& g) {
  static const char* const s1[] = {"It was {f}'s birthday.",
                                   "One day, {n} had a secret plan: a surprise party for {f}."};
  beat(g, s1);
  static const char* const s2[] = {"{N} and {hh} made a cake with [pink|white|blue] icing.",
                                   "{N} put up [balloons|paper stars|a big sign] everywhere."};
  beat(g, s2);
  static const char* const s3[] = {"All the friends hid behind the [sofa|door|table].",
                                   "Everyone waited very quietly."};
  beat(g, s3);
  static const char* const s4[] = {
      "When {f} came in, everyone jumped up and shouted, \"Surprise!\"",
      "The door opened. \"Surprise!\" they all shouted."};
  beat(g, s4);
  static const char* const s5[] = {
      "{F} was so surprised that {fs} [dropped {fp} bag|laughed and laughed|started to cry happy tears].",
      "{F} could not stop smiling."};
  beat(g, s5);
  color(g);
  static const char* const s6[] = {"They ate cake, played games and danced.",
                                   "They sang a song and ate the cake."};
  beat(g, s6);
  static const char* const s7[] = {"\"This is the best birthday ever!\" said {f}.",
                                   "\"Thank you, {n},\" said {f}. \"You are my best friend.\""};
  beat(g, s7);
}

void plot_learning(G& g) {
  static const char* const skills[][2] = {{"read a book all by {no}self", "read the whole book"},
                                          {"tie {np} shoes", "tied {np} shoes"},
                                          {"whistle", "whistled a little song"},
                                          {"ride a bike", "rode all the way down the street"},
                                          {"swim", "swam across the pool"},
                                          {"write {np} name", "wrote {np} name"}};
  const size_t k = g.below(6);
  g.set("skill", skills[k][0]);
  g.set("skilled", skills[k][1]);
  static const char* const s1[] = {"{N} wanted to learn to {skill}.",
                                   "{N} could not {skill} yet, and {ns} wanted to learn."};
  beat(g, s1);
  static const char* const s2[] = {
      "{Ns} tried, but it was too hard.",
      "The first time, it did not work. The second time, it did not work."};
  beat(g, s2);
  static const char* const s3[] = {"\"I will never learn,\" {ns} said.",
                                   "{N} felt {sad} and wanted to give up."};
  beat(g, s3);
  static const char* const s4[] = {
      "\"Try again,\" said {hh}. \"Everyone learns a little at a time.\"",
      "{F} said, \"I can show you how.\""};
  beat(g, s4);
  static const char* const s5[] = {"So {n} tried again, and again, and again.",
                                   "Every day, {n} practiced a little."};
  beat(g, s5);
  color(g);
  static const char* const s6[] = {"One day, {ns} {skilled}!", "At last, {ns} {skilled}!"};
  beat(g, s6);
  static const char* const s7[] = {"\"I did it!\" {ns} [shouted|laughed|said].",
                                   "{N} was so proud of {no}self."};
  beat(g, s7);
}

void plot_boat(G& g) {
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

// What a reader might have asked for, per plot (in kPlots' order): a clause after "who", true of
// every tale that plot writes.
constexpr const char* kPlotRequests[] = {"loses {np} {tt}",
                                         "learns to share",
                                         "is brave",
                                         "helps a little {a}",
                                         "wants to play outside with {f}",
                                         "makes a gift",
                                         "has lunch with {f}",
                                         "grows a garden",
                                         "follows a secret map",
                                         "bakes something",
                                         "makes a new friend named {f}",
                                         "runs a race",
                                         "goes to the seaside",
                                         "is awake one night",
                                         "fixes {np} broken {tt}",
                                         "plays in the snow",
                                         "gets lost",
                                         "celebrates {f}'s birthday",
                                         "learns something new",
                                         "plays with a little boat"};

constexpr TalePlot kPlots[] = {plot_lost_toy, plot_sharing, plot_brave,      plot_animal,
                               plot_weather,  plot_gift,    plot_food,       plot_garden,
                               plot_treasure, plot_baking,  plot_new_friend, plot_race,
                               plot_beach,    plot_night,   plot_fixing,     plot_snow,
                               plot_lost_way, plot_party,   plot_learning,   plot_boat};
static_assert(sizeof kPlots / sizeof kPlots[0] == sizeof kPlotRequests / sizeof kPlotRequests[0]);

// clang-format on

}  // namespace

std::span<const TalePlot> tale_plots() { return kPlots; }
std::span<const char* const> tale_plot_requests() { return kPlotRequests; }

}  // namespace ts
