// The tale generator (tale_gen.h): a cast, a setting, then an opening, one of the twenty plots of
// tale_plots.h, and an ending. Every sentence is a template of tale_grammar.h; choices inside
// sentences ([a|b]) make the text branch at many words, not only at names. Word lists live in
// tale_words.cpp.
#include "train/tale_gen.h"

#include "train/tale_grammar.h"
#include "train/tale_plots.h"
#include "train/tale_words.h"

namespace ts {

namespace {

namespace tw = tale_words;

using G = TaleGrammar;

std::string pick(G& g, tw::List l) { return std::string(l[g.below(l.size())]); }

// Keys <k> (name), <k>s/<k>o/<k>p (she/her/her), <k>kind ("a shy little girl named Mia").
void cast(G& g, const std::string& k, bool may_be_animal) {
  const bool girl = g.chance(0.5);
  g.set(k, pick(g, girl ? tw::girl_names() : tw::boy_names()));
  g.set(k + "s", girl ? "she" : "he");
  g.set(k + "o", girl ? "her" : "him");
  g.set(k + "p", girl ? "her" : "his");
  std::string noun = girl ? "girl" : "boy";
  if (may_be_animal && g.chance(0.35)) noun = pick(g, tw::animals());
  g.set(k + "noun", noun);
  const std::string adj = pick(g, tw::traits());
  g.set(k + "kind", "a " + adj + (g.chance(0.4) ? " little " : " ") + noun + " [named|called] " + g.get(k));
  g.set(k + "trait", adj);
}

void setting(G& g) {
  // The helper is a full reference with its possessive ("her mom", "the teacher"), so no
  // template can write "her the teacher".
  const size_t h = g.below(tw::helpers().size());
  g.set("hh", std::string(tw::helpers()[h]));
  g.set("hs", std::string(tw::helper_pronouns()[h]));
  g.set("ho", g.get("hs") == "she" ? "her" : "him");
  const size_t p = g.below(tw::places().size());
  g.set("pl", std::string(tw::places()[p]));
  g.set("in_pl", std::string(tw::place_preps()[p]) + " " + g.get("pl"));
  g.set("pt", std::string(tw::place_things()[p]));
  const std::string toy = pick(g, tw::toys());
  g.set("tt", toy);
  g.set("t", (g.chance(0.5) ? pick(g, tw::colors()) : pick(g, tw::sizes())) + " " + toy);
  const size_t a = g.below(tw::animals().size());
  g.set("a", std::string(tw::animals()[a]));
  g.set("as", std::string(tw::animal_sounds()[a]));
  g.set("pet", pick(g, tw::pet_names()));
  // Choice keys: expanded anew at every use.
  g.set("walk", "[walked|ran|skipped|hurried|went]");
  g.set("hap", "[happy|glad|excited|proud|cheerful]");
  g.set("sad", "[sad|upset|worried|unhappy]");
  g.set("then", "[Then|After that|Soon|Next|A little later|Before long]");
  g.set("food", "[an apple|a cookie|a sandwich|some cake|a banana|some soup|a pear|some bread|a muffin|some grapes|a piece of cheese]");
  g.set("said", "[said|called|shouted|whispered|laughed]");
  g.set("very", "[very |so |really |]");
  g.set("good", "[good|kind|nice|wonderful]");
  g.set("fast", "[quickly|slowly|carefully|happily]");
}

void opening(G& g) {
  static const char* const a[] = {
      "Once upon a time, there was {nkind}.",
      "Once upon a time, in a [small|quiet|busy|little] [town|village|house by the sea|house near the woods], there lived {nkind}.",
      "There was once {nkind}.",
      "Once upon a time, {nkind} lived near {pl}.",
      "One [sunny|rainy|cold|windy|bright] [morning|day|afternoon], {nkind} woke up [early|late|with a smile].",
      "Long ago, there was {nkind} who loved [stories|the sea|the rain|flowers|music|animals].",
      "{Nkind} lived [in a little house|on a farm|by the river|near the woods|in a big city] with {np} [family|mom and dad|grandma|dog, {pet}|cat, {pet}]."};
  g.say(a);
  static const char* const b[] = {
      "{Ns} loved {np} {t} [very much|more than anything|a lot].",
      "{Ns} had a {t} that {ns} [loved|liked|took everywhere].",
      "{Np} favorite [toy|thing] was {np} {t}.",
      "{Ns} liked to [play|run|read|draw|sing|dance] {in_pl}.",
      "{Ns} [loved|liked] to play with {np} [best |]friend {f}.",
      "Every day, {ns} [played|went for a walk] {in_pl} [with {f}|with {np} {t}|after school].",
      "{Ns} was {nkind2} and liked to [help others|ask questions|make new friends|try new things]."};
  g.set("nkind2", "[always|very] " + g.get("ntrait"));
  g.say(b);
  if (g.chance(0.4)) {
    static const char* const c[] = {
        "{Np} best friend was {fkind}.", "{N} and {f} did everything together.",
        "{Hh} [was very kind|told good stories|made the best soup|loved to sing].",
        "{Ns} also had a [dog|cat|bunny|fish|bird] called {pet}."};
    g.say(c);
  }
}

void ending(G& g) {
  static const char* const e[] = {"{N} went home {hap}. It was the best day ever.", "That night, {n} went to bed with a big smile.",
                                  "And they all lived happily ever after.", "{N} would always remember that day.",
                                  "It was a [good|lovely|wonderful] day, and {n} was {hap}.", "The end.",
                                  "From that day on, {n} and {f} were best friends.", "{N} could not wait to tell {hh} all about it."};
  g.say(e);
}

}  // namespace

namespace {

// The tale; `plot` receives which plot it told. The grammar is left as the tale ended.
std::string tell(G& g, size_t* plot) {
  cast(g, "n", true);
  cast(g, "f", false);
  setting(g);
  opening(g);
  g.paragraph();
  *plot = g.below(tale_plots().size());
  tale_plots()[*plot](g);
  g.paragraph();
  ending(g);
  return g.finish();
}

}  // namespace

std::string generate_tale(uint64_t seed, uint64_t index) {
  G g(splitmix64(seed * 0xD1B54A32D192ED03ull + index));
  size_t plot = 0;
  return tell(g, &plot);
}

TaleAndRequest generate_tale_and_request(uint64_t seed, uint64_t index) {
  G g(splitmix64(seed * 0xD1B54A32D192ED03ull + index));
  size_t plot = 0;
  TaleAndRequest out;
  out.tale = tell(g, &plot);
  // Drawn after the tale is written, so the tale is generate_tale's, word for word.
  g.set("who", tale_plot_requests()[plot]);
  g.set("kid", "a {nnoun}");
  static const char* const asks[] = {
      "Tell me a story about {kid} named {n} who {who}.",
      "Can you tell me a story about {n}, {kid} who {who}?",
      "Please tell me a tale about {kid} called {n} who {who}.",
      "Write a short story about {kid} named {n} who {who}.",
      "I would like a story about {n}. {Ns} is {kid} who {who}.",
      "Tell me a tale where {n}, {kid}, {who}."};
  out.request = g.expand(asks[g.below(sizeof asks / sizeof asks[0])]);
  return out;
}

std::string generate_tales(uint64_t seed, uint64_t first, uint64_t count, const std::string& separator) {
  std::string out;
  for (uint64_t i = first; i < first + count; ++i) {
    out += generate_tale(seed, i);
    out += separator;
  }
  return out;
}

}  // namespace ts
