// The story generator's vocabulary. Parallel lists must keep the same length and order.
#include "train/story_words.h"

#include <array>

namespace ts::story_words {

namespace {

using SV = std::string_view;

constexpr std::array kGirls = {
    SV("Mia"),  SV("Lily"),  SV("Emma"),  SV("Anna"),  SV("Sara"),  SV("Lucy"),  SV("Zoe"),
    SV("Ella"), SV("Ruby"),  SV("Amy"),   SV("Rose"),  SV("Kate"),  SV("Nora"),  SV("Ivy"),
    SV("Maya"), SV("Lena"),  SV("Hana"),  SV("Jade"),  SV("Lola"),  SV("Daisy"), SV("Molly"),
    SV("Sophie"), SV("Grace"), SV("Alice"), SV("Clara"), SV("Eva"), SV("Tina"),  SV("Nina"),
    SV("Rosa"), SV("Amara"), SV("Leah"),  SV("Poppy"), SV("Fatima"), SV("Mei"),  SV("Priya")};
constexpr std::array kBoys = {
    SV("Tom"),  SV("Ben"),  SV("Max"),  SV("Sam"),  SV("Leo"),  SV("Jack"), SV("Tim"),
    SV("Finn"), SV("Noah"), SV("Luke"), SV("Jake"), SV("Theo"), SV("Oscar"), SV("Henry"),
    SV("Adam"), SV("Omar"), SV("Ravi"), SV("Kai"),  SV("Hugo"), SV("Eli"),  SV("Milo"),
    SV("Toby"), SV("Ollie"), SV("Ryan"), SV("Dan"),  SV("Joe"),  SV("Liam"), SV("Arlo"),
    SV("Felix"), SV("Jonah"), SV("Ali"), SV("Kenji"), SV("Pablo"), SV("Ivan"), SV("Sunny")};
constexpr std::array kAnimals = {SV("cat"),  SV("dog"),  SV("bunny"), SV("bear"), SV("bird"),
                                 SV("fox"),  SV("mouse"), SV("duck"), SV("frog"), SV("pig"),
                                 SV("owl"),  SV("lion"), SV("puppy"), SV("kitten"), SV("cow")};
constexpr std::array kSounds = {SV("meow"), SV("woof"), SV("squeak"), SV("growl"), SV("tweet"),
                                SV("yip"),  SV("squeak"), SV("quack"), SV("ribbit"), SV("oink"),
                                SV("hoot"), SV("roar"), SV("woof"),  SV("mew"),  SV("moo")};
constexpr std::array kColors = {SV("red"), SV("blue"), SV("green"), SV("yellow"), SV("pink"),
                                SV("purple"), SV("orange"), SV("white"), SV("brown")};
constexpr std::array kSizes = {SV("big"), SV("little"), SV("shiny"), SV("soft"), SV("old"),
                               SV("new"), SV("tiny"), SV("pretty")};
constexpr std::array kToys = {SV("ball"), SV("kite"), SV("teddy bear"), SV("toy car"),
                              SV("doll"), SV("boat"), SV("hat"), SV("drum"), SV("train"),
                              SV("book"), SV("blanket"), SV("balloon"), SV("truck"), SV("robot"),
                              SV("crayon"), SV("bike")};
constexpr std::array kPlaces = {SV("the park"), SV("the garden"), SV("the forest"),
                                SV("the beach"), SV("the farm"), SV("the lake"), SV("the hill"),
                                SV("school"), SV("the zoo"), SV("the river"), SV("the market"),
                                SV("the playground")};
constexpr std::array kPlacePreps = {SV("at"), SV("in"), SV("in"), SV("at"), SV("on"),
                                    SV("by"), SV("on"), SV("at"), SV("at"), SV("by"),
                                    SV("at"), SV("at")};
constexpr std::array kPlaceThings = {
    SV("a big slide"), SV("a pretty flower"), SV("a tall tree"), SV("a shiny shell"),
    SV("a little lamb"), SV("a white swan"), SV("a round rock"), SV("a new friend"),
    SV("a funny monkey"), SV("a small boat"), SV("a red apple"), SV("a high swing")};
constexpr std::array kHappy = {SV("happy"), SV("glad"), SV("excited"), SV("proud"),
                               SV("joyful")};
constexpr std::array kSad = {SV("sad"), SV("upset"), SV("worried"), SV("unhappy")};
constexpr std::array kFoods = {SV("an apple"), SV("a cookie"), SV("a sandwich"),
                               SV("some cake"), SV("a banana"), SV("some soup"),
                               SV("a pie"), SV("some bread"), SV("a carrot"), SV("some candy")};
constexpr std::array kPlay = {SV("run"), SV("jump"), SV("dance"), SV("sing"), SV("swim"),
                              SV("climb"), SV("play tag"), SV("draw"), SV("hide")};
constexpr std::array kPlayIng = {SV("running"), SV("jumping"), SV("dancing"), SV("singing"),
                                 SV("swimming"), SV("climbing"), SV("playing tag"),
                                 SV("drawing"), SV("hiding")};
constexpr std::array kWeather = {SV("it started to rain"), SV("the wind began to blow"),
                                 SV("dark clouds came"), SV("it got very cold"),
                                 SV("it began to snow")};
constexpr std::array kMakes = {SV("a cake"), SV("a sandcastle"), SV("a picture"),
                               SV("a tower of blocks"), SV("a paper boat"), SV("a card"),
                               SV("a snowman"), SV("a little house")};
constexpr std::array kHelpers = {SV("mom"), SV("dad"), SV("grandma"), SV("grandpa"),
                                 SV("the teacher"), SV("big sister"), SV("big brother")};
constexpr std::array kHelperPronouns = {SV("she"), SV("he"), SV("she"), SV("he"), SV("she"),
                                        SV("she"), SV("he")};

static_assert(kAnimals.size() == kSounds.size());
static_assert(kPlaces.size() == kPlaceThings.size());
static_assert(kPlaces.size() == kPlacePreps.size());
static_assert(kPlay.size() == kPlayIng.size());
static_assert(kHelpers.size() == kHelperPronouns.size());

}  // namespace

List girl_names() { return kGirls; }
List boy_names() { return kBoys; }
List animals() { return kAnimals; }
List animal_sounds() { return kSounds; }
List colors() { return kColors; }
List sizes() { return kSizes; }
List toys() { return kToys; }
List places() { return kPlaces; }
List place_things() { return kPlaceThings; }
List place_preps() { return kPlacePreps; }
List happy_feelings() { return kHappy; }
List sad_feelings() { return kSad; }
List foods() { return kFoods; }
List play_verbs() { return kPlay; }
List play_verbs_ing() { return kPlayIng; }
List weather_bad() { return kWeather; }
List makes() { return kMakes; }
List helpers() { return kHelpers; }
List helper_pronouns() { return kHelperPronouns; }

}  // namespace ts::story_words
