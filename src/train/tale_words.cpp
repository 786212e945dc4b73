// The tale generator's vocabulary. Parallel lists must keep the same length and order.
#include "train/tale_words.h"

#include <array>

namespace ts::tale_words {

namespace {

using SV = std::string_view;

constexpr std::array kGirls = {
    SV("Mia"), SV("Lily"), SV("Emma"), SV("Anna"), SV("Sara"), SV("Lucy"), SV("Zoe"), SV("Ella"), SV("Ruby"),
    SV("Amy"), SV("Rose"), SV("Kate"), SV("Nora"), SV("Ivy"), SV("Maya"), SV("Lena"), SV("Hana"), SV("Jade"),
    SV("Lola"), SV("Daisy"), SV("Molly"), SV("Sophie"), SV("Grace"), SV("Alice"), SV("Clara"), SV("Eva"),
    SV("Tina"), SV("Nina"), SV("Rosa"), SV("Amara"), SV("Leah"), SV("Poppy"), SV("Fatima"), SV("Mei"),
    SV("Priya"), SV("Olivia"), SV("Chloe"), SV("Hannah"), SV("Julia"), SV("Layla"), SV("Sofia"), SV("Aisha")};
constexpr std::array kBoys = {
    SV("Tom"), SV("Ben"), SV("Max"), SV("Sam"), SV("Leo"), SV("Jack"), SV("Tim"), SV("Finn"), SV("Noah"),
    SV("Luke"), SV("Jake"), SV("Theo"), SV("Oscar"), SV("Henry"), SV("Adam"), SV("Omar"), SV("Ravi"),
    SV("Kai"), SV("Hugo"), SV("Eli"), SV("Milo"), SV("Toby"), SV("Ollie"), SV("Ryan"), SV("Dan"), SV("Joe"),
    SV("Liam"), SV("Arlo"), SV("Felix"), SV("Jonah"), SV("Ali"), SV("Kenji"), SV("Pablo"), SV("Ivan"),
    SV("Sunny"), SV("Lucas"), SV("Ethan"), SV("Mason"), SV("David"), SV("Carlos"), SV("Yusuf"), SV("Peter")};
constexpr std::array kPets = {SV("Rex"), SV("Biscuit"), SV("Pip"), SV("Coco"), SV("Buddy"), SV("Luna"),
                              SV("Max"), SV("Socks"), SV("Pepper"), SV("Bella"), SV("Mittens"), SV("Bo")};
constexpr std::array kAnimals = {SV("cat"), SV("dog"), SV("bunny"), SV("bear"), SV("bird"), SV("fox"),
                                 SV("mouse"), SV("duck"), SV("frog"), SV("pig"), SV("owl"), SV("lion"),
                                 SV("puppy"), SV("kitten"), SV("cow"), SV("squirrel"), SV("hedgehog"), SV("goat")};
constexpr std::array kSounds = {SV("meow"), SV("woof"), SV("squeak"), SV("growl"), SV("tweet"), SV("yip"),
                                SV("squeak"), SV("quack"), SV("ribbit"), SV("oink"), SV("hoot"), SV("roar"),
                                SV("woof"), SV("mew"), SV("moo"), SV("chit"), SV("sniff"), SV("baa")};
constexpr std::array kTraits = {SV("kind"), SV("happy"), SV("curious"), SV("brave"), SV("shy"), SV("funny"),
                                SV("clever"), SV("gentle"), SV("busy"), SV("quiet"), SV("cheerful"), SV("silly")};
constexpr std::array kColors = {SV("red"), SV("blue"), SV("green"), SV("yellow"), SV("pink"), SV("purple"),
                                SV("orange"), SV("white"), SV("brown"), SV("black")};
constexpr std::array kSizes = {SV("big"), SV("little"), SV("shiny"), SV("soft"), SV("old"), SV("new"),
                               SV("tiny"), SV("pretty"), SV("funny")};
constexpr std::array kToys = {SV("ball"), SV("kite"), SV("teddy bear"), SV("toy car"), SV("doll"), SV("boat"),
                              SV("hat"), SV("drum"), SV("train"), SV("book"), SV("blanket"), SV("balloon"),
                              SV("truck"), SV("robot"), SV("crayon"), SV("bike"), SV("scarf"), SV("puzzle")};
constexpr std::array kPlaces = {SV("the park"), SV("the garden"), SV("the forest"), SV("the beach"),
                                SV("the farm"), SV("the lake"), SV("the hill"), SV("school"), SV("the zoo"),
                                SV("the river"), SV("the market"), SV("the playground"), SV("the library"),
                                SV("the meadow")};
constexpr std::array kPlacePreps = {SV("at"), SV("in"), SV("in"), SV("at"), SV("on"), SV("by"), SV("on"),
                                    SV("at"), SV("at"), SV("by"), SV("at"), SV("at"), SV("at"), SV("in")};
constexpr std::array kPlaceThings = {SV("a big slide"), SV("a pretty flower"), SV("a tall tree"),
                                     SV("a shiny shell"), SV("a little lamb"), SV("a white swan"),
                                     SV("a round rock"), SV("a new poster"), SV("a funny monkey"),
                                     SV("a small boat"), SV("a red apple"), SV("a high swing"),
                                     SV("a big book"), SV("a yellow butterfly")};
constexpr std::array kHelpers = {SV("{np} mom"), SV("{np} dad"), SV("{np} grandma"), SV("{np} grandpa"),
                                 SV("the teacher"), SV("{np} big sister"), SV("{np} big brother"),
                                 SV("{np} aunt"), SV("{np} uncle")};
constexpr std::array kHelperPronouns = {SV("she"), SV("he"), SV("she"), SV("he"), SV("she"),
                                        SV("she"), SV("he"), SV("she"), SV("he")};

static_assert(kAnimals.size() == kSounds.size());
static_assert(kPlaces.size() == kPlaceThings.size() && kPlaces.size() == kPlacePreps.size());
static_assert(kHelpers.size() == kHelperPronouns.size());

}  // namespace

List girl_names() { return kGirls; }
List boy_names() { return kBoys; }
List pet_names() { return kPets; }
List animals() { return kAnimals; }
List animal_sounds() { return kSounds; }
List traits() { return kTraits; }
List colors() { return kColors; }
List sizes() { return kSizes; }
List toys() { return kToys; }
List places() { return kPlaces; }
List place_preps() { return kPlacePreps; }
List place_things() { return kPlaceThings; }
List helpers() { return kHelpers; }
List helper_pronouns() { return kHelperPronouns; }

}  // namespace ts::tale_words
