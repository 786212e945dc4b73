// Scene sentences (tale_scene.h). A sentence = [opener,] subject + verb frame [+ adverbial]
// [+ second clause]. The subject's words are stored in temporary keys (s = how it is named,
// sx = its pronoun, sp = its possessive, sw = was/were, so = its object form) and the other
// person's in o / oo,
// so every frame agrees with its subject. Frames are grouped by meaning; each slot is a choice
// of many words that fit it.
#include "train/tale_scene.h"

#include <string>

namespace ts {

namespace {

using G = TaleGrammar;

// Shared slots, expanded anew at every use.
void define_slots(G& g) {
  g.set(
      "lm",
      "[the old tree|the little bridge|the garden gate|the pond|the big rock|the fence|the swings|"
      "the bench|the window|the front door|the top of the hill|the river|the kitchen|the sandbox|"
      "the flower bed|the barn|the tall grass|the apple tree|the wooden gate|the stream|the shed]");
  g.set("thing",
        "[a [little |small |smooth |round |flat |]stone|a [red|yellow|brown|green|big] leaf|"
        "a [long|thin|crooked|strong] stick|a [white|soft|blue|long] feather|a "
        "[pretty|tiny|pink|white] shell|"
        "a [red|yellow|purple|white|blue] flower|an old [key|coin|shoe|map|cup|bell]|a pine cone|"
        "a [big|small|empty|wooden] box|a [funny|tiny|green|shiny] bug|a "
        "[snail|ladybug|worm|beetle|caterpillar]|"
        "a [paper|toy|little] [boat|plane|star]|a [ball|kite|book|jar] [of [marbles|buttons]|]]");
  g.set("tnoun",
        "[stone|leaf|stick|feather|shell|flower|key|coin|box|bug|snail|boat|star|book|picture]");
  g.set(
      "feel",
      "[happy|glad|tired|sleepy|hungry|excited|proud|calm|brave|cold|warm|curious|sad|worried|shy|"
      "silly|surprised|thirsty|busy|quiet]");
  g.set("deg", "[very |so |a little |really |]");
  g.set("walk2", "[walked|ran|skipped|hurried|raced|wandered|marched|tiptoed|hopped|went]");
  g.set("toward", "[to|toward|up to|past|around]");
  g.set(
      "vb",
      "[play [a game|tag|hide and seek|catch]|build a [tower|castle|house|fort] [out of "
      "[sticks|blocks|sand|boxes]|]|"
      "draw a [picture|map|cat|house|flower|boat|dog]|climb the [apple tree|hill|fence|big rock]|"
      "read a [book|story|short story]|sing a [song|new song|funny song]|find {thing}|help {oo}|go "
      "home|"
      "look for {thing}|run [fast|very fast|around the garden|to the gate]|jump [high|over the "
      "puddle|up and down]|"
      "see the [ducks|horses|boats|stars|flowers]|make [a cake|a card|a hat|a necklace|lemonade]]");
  g.set("when",
        "[{in_pl}|after lunch|in the morning|that afternoon|before dinner|with a smile|again|"
        "for a moment|all morning|once more|on the way home|in the sun|under a tree|near {lm}]");
  g.set("opener",
        "[Then|After that|Later|Soon|Next|Suddenly|That day|In the morning|After a while|Just then|"
        "Now|At first|For a while]");
  g.set(
      "hear",
      "[a bird sing|a dog bark|a bell ring|the wind blow|a frog croak|someone laugh|the rain fall|"
      "a car go by|the leaves move|a bee buzz|the water splash]");
}

struct Who {
  const char *name, *pron, *poss, *obj, *was, *other, *other_obj;
  bool plural;
};

// The subject of one sentence: the hero, the friend, the helper or the two friends together.
Who pick_subject(G& g) {
  switch (g.below(6)) {
    case 0:
    case 1:
      return {"{n}", "{ns}", "{np}", "{no}", "was", "{f}", "{fo}", false};
    case 2:
    case 3:
      return {"{f}", "{fs}", "{fp}", "{fo}", "was", "{n}", "{no}", false};
    case 4:
      return {"{hh}", "{hs}", "{hp}", "{ho}", "was", "{n}", "{no}", false};
    default:
      return {"[{n} and {f}|the two friends|they]",
              "they",
              "their",
              "them",
              "were",
              "{hh}",
              "{ho}",
              true};
  }
}

// One verb phrase for subject `w` (past tense), without the subject.
std::string frame(G& g, const Who& w) {
  switch (g.below(w.plural ? 9 : 11)) {
    case 0:
      return "{walk2} {toward} [{lm}|{pl}]";
    case 1:
      return "[saw|found|spotted|noticed|picked up|looked at] {thing} [[under|behind|near|next "
             "to|beside] {lm}|]";
    case 2:
      return "[held|carried|showed {oo}|gave {oo}|painted|drew] {thing}";
    case 3:
      return "[felt|looked|seemed|{sw}] {deg}{feel}";
    case 4:
      return "[wanted|tried|hoped|decided|started|liked|loved] to {vb}";
    case 5:
      return w.plural ? "[played|laughed|danced|sang|talked|sat|rested|waited] [together|side by "
                        "side|for a while|"
                        "for a long time|all afternoon|in the sun|under the tree|]"
                      : "[played|laughed|danced|sang|read|drew|rested|sat|waited|hummed] "
                        "[quietly|happily|"
                        "for a while|for a long time|all afternoon|in the sun|under the tree|with "
                        "{oo}|]";
    case 6:
      return "[ate|shared|packed|found|saved] {food}";
    case 7:
      return "[heard|could hear|stopped to hear] {hear}";
    case 8:
      return "[thought about|remembered|talked about|dreamed about] [{thing}|{pl}|the "
             "[game|story|song|picture|race|trip]]";
    case 9:
      return "[smiled at|waved to|called to|looked at|ran after|sat next to|waited for|hugged] {o}";
    default:
      return "[put|hid|kept|found] {thing} [in {sp} [pocket|bag|box|hat]|under {sp} bed|by the "
             "door|in a safe place]";
  }
}

// Words spoken by a single person (first person singular).
std::string speech(G& g) {
  switch (g.below(3)) {
    case 0:
      return "\"[Look at this {tnoun}|Let's {vb}|I [like|love|want] {thing}|This is [fun|great|so "
             "much fun|"
             "the best day ever|a good idea]|I am [so |very |]{feel}|Come [here|with me|and see]|"
             "What a [nice|lovely|funny|big|strange|pretty] {tnoun}|Wait for me|We did it|Thank "
             "you, {o}]"
             "[!|,]\" [said|called|shouted|whispered|laughed|sang] {s}.";
    case 1:
      return "\"[Where is the {tnoun}|Can we {vb}|Do you want to {vb}|What is that|Is it time to "
             "go home|"
             "Will you [help me|play with me|come too]|Who is there|Can I have a turn]?\" asked "
             "{s}.";
    default:
      return "{S} [said|told {oo}|whispered to {oo}], \"[I want to {vb}|Let's {vb}|I found {thing}|"
             "I [like|love] {pl}|It is [a lovely|a busy|a cold|a warm|such a nice] day]!\"";
  }
}

// A scenery sentence with no person in it.
std::string scenery(G& g) {
  switch (g.below(5)) {
    case 0:
      return "The [sun|moon] [shone|glowed|rose|was [warm|bright|high]] [over|above|behind] {lm}.";
    case 1:
      return "A [soft|cool|gentle|little|strong] [wind|breeze] [blew|moved|shook] the "
             "[leaves|grass|flowers|trees].";
    case 2:
      return "[Birds|Little birds|Bees|Frogs|Ducks] [sang|chirped|buzzed|called|splashed] [in the "
             "trees|by the pond|near {lm}|all around].";
    case 3:
      return "The sky was [blue|grey|pink|full of [white|big|soft] clouds|clear and "
             "[bright|blue]].";
    default:
      return "It was a [warm|cold|quiet|busy|windy|sunny|rainy|lovely] "
             "[day|morning|afternoon|evening].";
  }
}

void one_sentence(G& g) {
  if (g.chance(0.12)) {
    g.say_one(scenery(g));
    return;
  }
  Who w = pick_subject(g);
  // Speech is first person singular: never the pair.
  if (w.plural && g.chance(0.3)) w = {"{n}", "{ns}", "{np}", "{no}", "was", "{f}", "{fo}", false};
  g.set("s", w.name);
  g.set("sp", w.poss);
  g.set("sw", w.was);
  g.set("so", w.obj);
  g.set("o", w.other);
  g.set("oo", w.other_obj);
  if (!w.plural && g.chance(0.18)) {
    g.say_one(speech(g));
    return;
  }
  // Named half the time, otherwise by pronoun; capitalised only at the start of the sentence.
  const bool opener = g.chance(0.3);
  const bool named = g.chance(0.5);
  std::string t = opener ? "{opener}, " : "";
  t += named ? (opener ? "{s}" : "{S}") : (opener ? "{sx}" : "{Sx}");
  g.set("sx", w.pron);
  t += " " + frame(g, w);
  if (g.chance(0.3)) t += " {when}";
  const size_t r = g.below(100);
  if (r < 15) {
    t += ", and [then |]" + std::string(w.pron) + " " + frame(g, w);
  } else if (r < 25) {
    t += " because " + std::string(w.pron) + " {sw} {deg}{feel}";
  } else if (r < 32) {
    t += ", but " + std::string(w.pron) + " [did not [mind|stop|give up]|{sw} still {feel}]";
  }
  t += g.chance(0.1) ? "!" : ".";
  g.say_one(t);
}

}  // namespace

void tale_scene(TaleGrammar& g, int count) {
  define_slots(g);
  g.set("hp", g.get("hs") == "she" ? "her" : "his");
  for (int i = 0; i < count; ++i) one_sentence(g);
}

}  // namespace ts
