// The tale generator's plots at home and among friends (tale_plot_list.h): a lost toy, sharing,
// a gift, lunch, baking, a new friend, a night awake, a repair, a party, learning something.
// Each sets the scene, writes its beats with the cast's keys ({n}, {f}, {hh}, {t}, ...) and
// scenery between them (tale_beats.h). Word lists live in tale_words.cpp.
#include "train/tale_beats.h"
#include "train/tale_plot_list.h"

namespace ts::tale_plot {

// The sentences stay whole, one literal each:
// clang-format off

void plot_lost_toy(TaleGrammar& g) {
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

void plot_sharing(TaleGrammar& g) {
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

void plot_gift(TaleGrammar& g) {
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

void plot_food(TaleGrammar& g) {
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

void plot_baking(TaleGrammar& g) {
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

void plot_new_friend(TaleGrammar& g) {
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

void plot_night(TaleGrammar& g) {
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

void plot_fixing(TaleGrammar& g) {
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

void plot_party(TaleGrammar& g) {
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

void plot_learning(TaleGrammar& g) {
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

// clang-format on

}  // namespace ts::tale_plot
