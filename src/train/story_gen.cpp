// The story grammar: each story picks a cast and a plot, then each sentence slot picks one of
// several templates. Templates use {keys}: an upper-case first letter capitalises the value
// ({S} = "She", {s} = "she"). Fixed keys hold the cast; feeling/activity keys pick anew each use.
#include "train/story_gen.h"

#include <initializer_list>
#include <map>
#include <string_view>

#include "base/rng.h"
#include "train/story_words.h"

namespace ts {

namespace {

namespace w = story_words;

class StoryWriter {
 public:
  StoryWriter(uint64_t seed, uint64_t index) : rng_(splitmix64(seed * 0x9E3779B97F4A7C15ull + index)) {}

  std::string_view pick(w::List l) { return l[rng_.below(l.size())]; }
  size_t index(size_t n) { return rng_.below(n); }
  bool chance(double p) { return rng_.uniform() < p; }
  void set(const std::string& key, std::string_view v) { vars_[key] = std::string(v); }

  // Appends one of the templates, expanded, followed by a space.
  void say(std::initializer_list<const char*> templates) {
    const char* t = *(templates.begin() + rng_.below(templates.size()));
    out_ += expand(t);
    out_ += ' ';
  }
  void paragraph() {
    while (!out_.empty() && out_.back() == ' ') out_.pop_back();
    out_ += "\n\n";
  }
  std::string finish() {
    while (!out_.empty() && (out_.back() == ' ' || out_.back() == '\n')) out_.pop_back();
    return out_;
  }

 private:
  std::string value(const std::string& key) {
    if (key == "hap") return std::string(pick(w::happy_feelings()));
    if (key == "sad") return std::string(pick(w::sad_feelings()));
    if (key == "food") return std::string(pick(w::foods()));
    auto it = vars_.find(key);
    return it == vars_.end() ? "{" + key + "}" : it->second;
  }
  std::string expand(std::string_view t) {
    std::string s;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '{') {
        s += t[i];
        continue;
      }
      const size_t end = t.find('}', i);
      std::string key(t.substr(i + 1, end - i - 1));
      const bool cap = key[0] >= 'A' && key[0] <= 'Z';
      if (cap) key[0] = static_cast<char>(key[0] - 'A' + 'a');
      std::string v = value(key);
      if (v.find('{') != std::string::npos && v[0] != '{') v = expand(v);  // a value with keys
      if (cap && !v.empty() && v[0] >= 'a' && v[0] <= 'z') v[0] = static_cast<char>(v[0] - 'a' + 'A');
      s += v;
      i = end;
    }
    return s;
  }

  SplitMix rng_;
  std::map<std::string, std::string> vars_;
  std::string out_;
};

// A character: keys <k> (name), <k>s <k>o <k>p (he/him/his), <k>kind ("a little girl named Mia").
void cast_character(StoryWriter& wr, const std::string& k, bool may_be_animal) {
  const bool girl = wr.chance(0.5);
  const std::string_view name = wr.pick(girl ? w::girl_names() : w::boy_names());
  wr.set(k, name);
  wr.set(k + "s", girl ? "she" : "he");
  wr.set(k + "o", girl ? "her" : "him");
  wr.set(k + "p", girl ? "her" : "his");
  static constexpr std::string_view kAdj[] = {"little", "kind", "happy", "curious", "brave",
                                              "shy", "funny", "clever"};
  const std::string adj(kAdj[wr.index(8)]);
  std::string noun;
  if (may_be_animal && wr.chance(0.3)) {
    const size_t a = wr.index(w::animals().size());
    noun = std::string(w::animals()[a]);
    wr.set(k + "animal", noun);
    wr.set(k + "sound", w::animal_sounds()[a]);
  } else {
    noun = girl ? "girl" : "boy";
  }
  const std::string article = (adj[0] == 'a' || adj[0] == 'e' || adj[0] == 'i' || adj[0] == 'o' || adj[0] == 'u') ? "an " : "a ";
  wr.set(k + "kind", article + adj + " " + noun + (wr.chance(0.8) ? " named " : " called ") + std::string(name));
  wr.set(k + "noun", noun);
}

void intro(StoryWriter& wr) {
  wr.say({"Once upon a time, there was {nkind}.", "Once upon a time, in a small town, there lived {nkind}.",
          "There was once {nkind}.", "Once upon a time, there was {nkind} who lived near {pl}.",
          "One sunny morning, {nkind} woke up early."});
  wr.say({"{Ns} loved {np} {t} very much.", "{Ns} had {a_t} that {ns} loved.",
          "{Np} favorite toy was {a_t}.", "{Ns} liked to {play} {in_pl}.",
          "{Ns} loved to {play} with {np} friend {f}.", "Every day, {ns} played {in_pl} with {np} {t}."});
}

void plot_lost_toy(StoryWriter& wr) {
  wr.say({"One day, {n} went to {pl} with {np} {t}.", "One day, {n} took {np} {t} to {pl}."});
  wr.say({"{Ns} played with it for a long time.", "{Ns} had so much fun.", "{Ns} saw {pt} and went to look."});
  wr.say({"When it was time to go home, {n} could not find {np} {tt}!", "But then, {np} {tt} was gone!",
          "Suddenly, {n} looked down. The {tt} was not there!"});
  wr.say({"\"Where is my {tt}?\" {ns} cried.", "{Ns} felt very {sad}.", "\"Oh no! My {tt}!\" said {n}."});
  wr.say({"{Np} friend {f} saw that {ns} was {sad}.", "Just then, {np} friend {f} came by."});
  wr.say({"\"Don't worry, I will help you look,\" said {f}.", "\"Let's look together,\" said {f}.",
          "{F} said, \"I can help you find it!\""});
  wr.say({"They looked under a big tree. They looked behind the rocks.", "They looked near the water and under the bench.",
          "They looked everywhere."});
  wr.say({"At last, {f} found the {tt} in the tall grass.", "Then {n} saw something {color} behind a bush. It was the {tt}!",
          "At last, they found the {tt} next to {pt}."});
  wr.say({"\"Thank you, {f}!\" said {n}. {Ns} gave {fo} a big hug.", "{N} was so {hap}. {Ns} hugged {np} {tt} tight.",
          "\"You are a good friend,\" {n} said to {f}."});
}

void plot_sharing(StoryWriter& wr) {
  wr.say({"One day, {np} friend {f} came to play.", "One day, {n} met {fkind} {in_pl}."});
  wr.say({"{F} saw the {tt} and wanted to play with it too.", "{F} liked the {t} very much."});
  wr.say({"\"Can I play with your {tt}?\" asked {f}.", "\"Please, can I have a turn?\" {fs} asked."});
  wr.say({"But {n} did not want to share. \"No, it is mine!\" {ns} said.", "{N} held the {tt} close and said, \"No!\""});
  wr.say({"{F} felt {sad} and walked away.", "{F} looked down at {fp} feet. {Fs} was very {sad}."});
  wr.say({"Soon, {n} felt bad. Playing alone was not fun.", "{N} played alone, but {ns} was not {hap}."});
  wr.say({"{Ns} ran to {f} and said, \"I am sorry. Let's play together.\"",
          "{Ns} went to {f} and said, \"You can have a turn. I am sorry.\""});
  wr.say({"{F} smiled. They played with the {tt} all day.", "{F} was {hap}. They took turns and laughed a lot."});
  wr.say({"{N} learned that sharing is more fun than playing alone.", "{N} learned that it is good to share."});
}

void plot_brave(StoryWriter& wr) {
  static constexpr const char* kDares[][2] = {
      {"go down the big slide", "went down the big slide"}, {"climb the tall tree", "climbed the tall tree"},
      {"swim in the lake", "swam in the lake"}, {"ride {np} new bike", "rode {np} new bike"},
      {"jump over the big puddle", "jumped over the big puddle"}, {"sing in front of the class", "sang in front of the class"}};
  const size_t d = wr.index(6);
  wr.set("dare", kDares[d][0]);
  wr.set("dared", kDares[d][1]);
  wr.say({"One day, {n} went to {pl} with {np} {h}.", "One day, {np} {h} took {no} to {pl}."});
  wr.say({"{N} wanted to {dare}, but {ns} was scared.", "{N} wanted to {dare}. But {ns} felt scared."});
  wr.say({"\"What if I fall?\" {ns} asked.", "\"I can't do it,\" {ns} said in a small voice.", "\"It is too big for me,\" {ns} said."});
  wr.say({"{Np} {h} smiled and said, \"You can do it. I am right here.\"", "{Np} {h} held {np} hand. \"Be brave,\" {hs} said.",
          "\"Take a deep breath,\" said {np} {h}. \"I believe in you.\""});
  wr.say({"{N} took a deep breath.", "{N} counted to three.", "{N} closed {np} eyes for a moment."});
  wr.say({"Then {ns} {dared}!", "Slowly, {ns} {dared}.", "{Ns} {dared}, and it was so much fun!"});
  wr.say({"\"I did it!\" {ns} shouted.", "\"Look at me!\" {ns} said with a big smile."});
  wr.say({"{Np} {h} was very proud of {no}.", "{N} felt {hap} and brave."});
}

void plot_animal(StoryWriter& wr) {
  wr.say({"One day, {n} was walking {in_pl}.", "One day, {n} went to {pl} to {play}."});
  wr.say({"{Ns} saw a little {a} stuck in a bush.", "{Ns} heard a small sound. It was a little {a}!",
          "{Ns} found a little {a} that was lost."});
  wr.say({"The {a} looked cold and {sad}.", "The {a} said, \"{As}, {as}!\" It was very hungry.", "The poor {a} could not find its home."});
  wr.say({"\"Don't be scared, little {a},\" {n} said softly. \"I will help you.\"", "{N} wanted to help the {a}."});
  wr.say({"{Ns} gave the {a} {food} and a warm blanket.", "{Ns} picked it up very gently and gave it {food}.",
          "{Ns} shared {food} with the {a}."});
  wr.say({"The {a} was happy. It said \"{as}\" and licked {np} hand.", "Soon the {a} felt better and wagged its tail."});
  wr.say({"Then {n} helped the {a} find its mother. They were so glad to see each other.",
          "{N} took the {a} home, and {np} {h} said it could stay."});
  wr.say({"Every day after that, the {a} came to visit {no}.", "{N} felt {hap} that {ns} could help."});
}

void plot_weather(StoryWriter& wr) {
  wr.say({"One day, {n} and {f} wanted to have a picnic {in_pl}.", "One day, {n} wanted to {play} with {f} {in_pl}."});
  wr.say({"They packed {food} and {food}.", "{Ns} put on {np} {color} hat and ran outside."});
  wr.say({"But then {w}.", "Suddenly, {w}."});
  wr.say({"{N} was {sad}. \"Now we can't play,\" {ns} said.", "\"Oh no,\" said {f}. \"Our day is ruined.\""});
  wr.say({"{Np} {h} had an idea. \"Let's make {mk} inside,\" {hs} said.", "{F} had an idea. \"We can play inside!\" {fs} said."});
  wr.say({"So they made {mk} together. It was a lot of fun.", "They built a fort with pillows and read a book in it."});
  wr.say({"Later, the sun came out and there was a big rainbow.", "After a while, the sky was blue again."});
  wr.say({"\"Look!\" said {n}. They ran outside and had their picnic after all.",
          "{N} and {f} laughed. It was a good day after all."});
}

void plot_making(StoryWriter& wr) {
  wr.say({"One day, {n} wanted to make {mk} for {np} {h}.", "{Np} {h} had a birthday soon, so {n} wanted to make {mk}."});
  wr.say({"{Ns} worked very hard.", "{Ns} got everything ready and started to work.", "{Ns} worked all morning."});
  wr.say({"But then, {np} little {a2} ran by and knocked it over!", "But then, it fell down with a big crash!"});
  wr.say({"{N} started to cry. \"It is ruined!\" {ns} said.", "{N} felt very {sad}."});
  wr.say({"{F} came over. \"I can help you,\" {fs} said.", "Then {np} friend {f} came to help."});
  wr.say({"Together, they made it again. This time it was even better.", "They worked together, and soon it was done."});
  wr.say({"{N} gave it to {np} {h}.", "{N} showed it to {np} {h}."});
  wr.say({"\"This is the best gift ever!\" said {np} {h}.", "{Np} {h} gave {no} a big hug and said, \"Thank you!\""});
}

void plot_food(StoryWriter& wr) {
  wr.say({"One day, {n} and {f} went to {pl}.", "At lunch time, {n} sat next to {f} {in_pl}."});
  wr.say({"{N} had {food} in {np} bag.", "{Np} {h} had packed {food} for {no}."});
  wr.say({"{F} had no lunch. {Fs} looked {sad}.", "{F} had forgotten {fp} lunch at home."});
  wr.say({"\"Are you hungry?\" asked {n}.", "{N} saw that {f} was hungry."});
  wr.say({"{Ns} broke {np} food in two and gave half to {f}.", "\"You can have some of mine,\" {ns} said."});
  wr.say({"\"Thank you!\" said {f}. {Fs} smiled a big smile.", "{F} was so {hap}. \"You are kind,\" {fs} said."});
  wr.say({"They ate together and then went to {play}.", "After lunch, they went {playing} together."});
}

void ending(StoryWriter& wr, bool with_friend) {
  if (with_friend && wr.chance(0.3)) {
    wr.say({"From that day on, {n} and {f} were best friends.", "{N} and {f} played together every day after that."});
    return;
  }
  wr.say({"{N} went home {hap}. It was the best day ever.",
          "That night, {n} went to bed with a big smile.", "And they all lived happily ever after.",
          "{N} would always remember that day.", "It was a good day, and {n} was {hap}."});
}

}  // namespace

std::string generate_story(uint64_t seed, uint64_t index) {
  StoryWriter wr(seed, index);
  cast_character(wr, "n", true);
  cast_character(wr, "f", false);
  const size_t h = wr.index(w::helpers().size());
  wr.set("h", w::helpers()[h]);
  wr.set("hs", w::helper_pronouns()[h]);
  const std::string color(wr.pick(w::colors())), toy(wr.pick(w::toys()));
  const std::string t = (wr.chance(0.5) ? color : std::string(wr.pick(w::sizes()))) + " " + toy;
  wr.set("t", t);
  wr.set("tt", toy);
  wr.set("a_t", std::string((t[0] == 'o' || t[0] == 'a' || t[0] == 'e' || t[0] == 'i' || t[0] == 'u') ? "an " : "a ") + t);
  wr.set("color", color);
  const size_t pl = wr.index(w::places().size());
  wr.set("pl", w::places()[pl]);
  wr.set("pt", w::place_things()[pl]);
  wr.set("in_pl", std::string(w::place_preps()[pl]) + " " + std::string(w::places()[pl]));
  const size_t a = wr.index(w::animals().size());
  wr.set("a", w::animals()[a]);
  wr.set("as", w::animal_sounds()[a]);
  wr.set("a2", w::animals()[wr.index(w::animals().size())]);
  const size_t p = wr.index(w::play_verbs().size());
  wr.set("play", w::play_verbs()[p]);
  wr.set("playing", w::play_verbs_ing()[p]);
  wr.set("w", wr.pick(w::weather_bad()));
  wr.set("mk", wr.pick(w::makes()));

  intro(wr);
  wr.paragraph();
  const size_t plot = wr.index(7);
  switch (plot) {
    case 0: plot_lost_toy(wr); break;
    case 1: plot_sharing(wr); break;
    case 2: plot_brave(wr); break;
    case 3: plot_animal(wr); break;
    case 4: plot_weather(wr); break;
    case 5: plot_making(wr); break;
    default: plot_food(wr); break;
  }
  wr.paragraph();
  ending(wr, plot != 2 && plot != 3);  // the brave and animal plots have no friend
  return wr.finish();
}

std::string generate_stories(uint64_t seed, uint64_t first, uint64_t count,
                             const std::string& separator) {
  std::string out;
  for (uint64_t i = first; i < first + count; ++i) {
    out += generate_story(seed, i);
    out += separator;
  }
  return out;
}

}  // namespace ts
