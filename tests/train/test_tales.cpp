// The tale grammar (choices, slots, capitals, articles) on hand-checked templates, and the tale
// generator: deterministic, every slot filled, the cast kept, many openings and plots, no
// "her the teacher", and branching at many words (not only at names); the requests and chats of
// the chat model's corpus, checked against the shipped template models/tales-chat.jinja.
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "chat/chat_template.h"
#include "train/corpus.h"
#include "train/tale_chat.h"
#include "train/tale_gen.h"
#include "train/tale_grammar.h"
#include "train/tale_words.h"

using namespace ts;

TEST_CASE("tale grammar: slots, capitals, nested choices, articles") {
  TaleGrammar g(7);
  g.set("n", "Mia");
  g.set("ns", "she");
  g.set("hh", "{np} mom");
  g.set("np", "her");
  CHECK(g.expand("{Ns} saw {n}.") == "She saw Mia.");
  CHECK(g.expand("{Hh} smiled.") == "Her mom smiled.");
  CHECK(fix_articles("a apple, a pear, A egg, banana a") == "an apple, a pear, An egg, banana a");
  CHECK(fix_articles("a umbrella") == "an umbrella");
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) seen.insert(g.expand("[a|b[c|d]|]x"));
  CHECK(seen == std::set<std::string>{"ax", "bcx", "bdx", "x"});
  CHECK(g.expand("no choice") == "no choice");
}

TEST_CASE("tales are deterministic, filled, and keep their cast") {
  CHECK(generate_tale(1, 5) == generate_tale(1, 5));
  CHECK(generate_tale(1, 5) != generate_tale(1, 6));
  CHECK(generate_tale(1, 5) != generate_tale(2, 5));
  std::set<std::string> openings, names;
  for (int i = 0; i < 500; ++i) {
    const std::string s = generate_tale(3, static_cast<uint64_t>(i));
    INFO(s);
    CHECK(s.find('{') == std::string::npos);
    CHECK(s.find('[') == std::string::npos);
    CHECK(s.find("  ") == std::string::npos);
    CHECK(s.find("her the ") == std::string::npos);
    CHECK(s.find("his the ") == std::string::npos);
    for (auto c : tale_words::colors()) CHECK(s.find(" had " + std::string(c) + " ") == std::string::npos);
    for (auto c : tale_words::sizes()) CHECK(s.find(" had " + std::string(c) + " ") == std::string::npos);
    CHECK(s.size() > 150);
    const char last = s.back();
    CHECK((last == '.' || last == '!' || last == '"'));
    openings.insert(s.substr(0, s.find_first_of(",. ", 5)));
    const size_t at = s.find(" named ") != std::string::npos ? s.find(" named ") + 7 : s.find(" called ") + 8;
    names.insert(s.substr(at, s.find_first_of(" .,", at) - at));
  }
  CHECK(openings.size() >= 5);
  CHECK(names.size() >= 70);
  CHECK(generate_tales(3, 0, 2, "<|endoftext|>") ==
        generate_tale(3, 0) + "<|endoftext|>" + generate_tale(3, 1) + "<|endoftext|>");
}

TEST_CASE("tales branch at many words: most common two-word contexts have several continuations") {
  // Count, over 2,000 tales, the words that follow each pair of words. A template corpus has
  // one continuation for most pairs; this one must have several for a good share of the text.
  std::map<std::string, std::set<std::string>> next;
  std::map<std::string, size_t> count;
  for (int i = 0; i < 2000; ++i) {
    std::istringstream is(generate_tale(11, static_cast<uint64_t>(i)));
    std::string a, b, w;
    while (is >> w) {
      if (!a.empty()) {
        next[a + " " + b].insert(w);
        ++count[a + " " + b];
      }
      a = b;
      b = w;
    }
  }
  size_t total = 0, branching = 0;
  for (const auto& [ctx, n] : count) {
    total += n;
    if (next[ctx].size() >= 3) branching += n;
  }
  CHECK(static_cast<double>(branching) / static_cast<double>(total) > 0.4);
}

TEST_CASE("a tale's request names its hero and the tale is generate_tale's") {
  for (uint64_t i = 0; i < 200; ++i) {
    const TaleAndRequest t = generate_tale_and_request(3, i);
    INFO(t.request);
    CHECK(t.tale == generate_tale(3, i));
    CHECK(t.request.size() > 20);
    CHECK(t.request.find('{') == std::string::npos);
    CHECK(t.request.find("  ") == std::string::npos);
    CHECK(fix_articles(t.request) == t.request);  // "an owl", never "a owl"
    const char last = t.request.back();
    CHECK((last == '.' || last == '?' || last == '!'));
    // the request names a child from the name lists, and the tale is about that child
    std::string name;
    std::istringstream ws(t.request);
    for (std::string w; ws >> w && name.empty();) {
      while (!w.empty() && !std::isalpha(static_cast<unsigned char>(w.back()))) w.pop_back();
      for (auto n : tale_words::girl_names()) name = w == n ? w : name;
      for (auto n : tale_words::boy_names()) name = w == n ? w : name;
    }
    REQUIRE(!name.empty());
    CHECK(t.tale.find(" " + name + " ") != std::string::npos);
  }
  CHECK(generate_tale_and_request(3, 4).request != generate_tale_and_request(3, 5).request);
}

TEST_CASE("a training chat begins with the shipped template's rendering of its messages") {
  std::ifstream in(std::string(TS_SOURCE_DIR) + "/models/tales-chat.jinja", std::ios::binary);
  REQUIRE_MESSAGE(in, "models/tales-chat.jinja is shipped with the project");
  std::ostringstream text;
  text << in.rdbuf();
  chat::ChatTemplateSource src;
  src.template_text = text.str();
  int with_system = 0;
  for (uint64_t i = 0; i < 20; ++i) {
    const TaleAndRequest t = generate_tale_and_request(5, i);
    const std::string doc = generate_tale_chat(5, i);
    chat::Conversation conv;
    const bool system = doc.rfind("<|im_start|>system\n", 0) == 0;
    with_system += system ? 1 : 0;
    if (system) conv.messages.push_back({{"role", "system"}, {"content", kTaleChatSystem}});
    conv.messages.push_back({{"role", "user"}, {"content", t.request}});
    Result<std::string> prompt = chat::render_chat(src, conv, true);
    REQUIRE_MESSAGE(prompt.ok(), prompt.error().message);
    CHECK(doc == prompt.value() + t.tale + kChatTurnEnd);
  }
  CHECK(with_system == 8);  // two chats in five
  // the training log's sample prompts of a chat corpus stop where the assistant's turn begins
  Corpus corpus;
  for (uint64_t i = 0; i < 4; ++i) corpus.docs.push_back(generate_tale_chat(5, i));
  const std::vector<std::string> prompts = sample_prompts(corpus, 2, 0.5);
  REQUIRE(prompts.size() == 2);
  for (const std::string& p : prompts) {
    CHECK(p.rfind("<|im_start|>", 0) == 0);
    CHECK(p.size() > 40);
    CHECK(p.substr(p.size() - 22) == "<|im_start|>assistant\n");
  }
  CHECK(generate_tale_chats(5, 0, 2, "<|endoftext|>") ==
        generate_tale_chat(5, 0) + "<|endoftext|>" + generate_tale_chat(5, 1) + "<|endoftext|>");
}
