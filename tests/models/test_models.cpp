// The shipped models (models/*.gguf): each loads, generates, and still reproduces the greedy
// continuations recorded in its model card (models/*.md), token for token; a chat model's card
// records answers to requests, rendered through its own chat template.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "golden.h"
#include "session/chat_prompt.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_ops.h"

using namespace ts;

namespace {

struct CardSample {
  std::string prompt;
  std::string greedy;  // prompt + continuation, as `tokenscope generate` prints it
  bool chat = false;   // **Request:** (a chat model's card): the prompt is a user message,
                       // rendered by the model's template; greedy is the answer alone
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// The ```text block that starts at or after `from`; `from` moves past it.
bool next_text_block(const std::string& md, size_t& from, std::string& out) {
  const size_t open = md.find("```text\n", from);
  if (open == std::string::npos) return false;
  const size_t start = open + 8;
  const size_t close = md.find("\n```", start);
  if (close == std::string::npos) return false;
  out = md.substr(start, close - start);
  from = close + 4;
  return true;
}

// Reads "N new tokens" and every (prompt, greedy) pair of a card's Samples section.
std::vector<CardSample> card_samples(const std::string& md, int& new_tokens) {
  std::smatch m;
  new_tokens = std::regex_search(md, m, std::regex("(\\d+) new tokens")) ? std::stoi(m[1]) : 0;
  std::vector<CardSample> out;
  size_t pos = md.find("## Samples");
  while (pos != std::string::npos) {
    const size_t p = std::min(md.find("**Prompt:**", pos), md.find("**Request:**", pos));
    if (p == std::string::npos) break;
    CardSample s;
    s.chat = md.compare(p, 12, "**Request:**") == 0;
    const size_t eol = md.find('\n', p);
    const std::string line = md.substr(p, eol - p);
    const size_t tick = line.find('`');
    size_t cursor = eol;
    if (tick != std::string::npos) {  // **Prompt:** `text`
      s.prompt = line.substr(tick + 1, line.rfind('`') - tick - 1);
    } else if (!next_text_block(md, cursor, s.prompt)) {
      break;
    }
    const size_t g = md.find("Greedy (`--temperature 0`):", cursor);
    if (g == std::string::npos) break;
    cursor = g;
    if (!next_text_block(md, cursor, s.greedy)) break;
    out.push_back(s);
    pos = cursor;
  }
  return out;
}

}  // namespace

TEST_CASE("every shipped model loads, generates and matches its card's greedy samples") {
  const auto dir = ts::test::source_dir() / "models";
  int models = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".gguf") continue;
    ++models;
    const auto card_path = std::filesystem::path(entry.path()).replace_extension(".md");
    INFO("model " << entry.path().string());
    REQUIRE_MESSAGE(std::filesystem::exists(card_path), "every model needs a card beside it");
    int new_tokens = 0;
    const std::vector<CardSample> samples = card_samples(read_file(card_path), new_tokens);
    REQUIRE(new_tokens > 0);
    REQUIRE(samples.size() >= 2);

    Session s;
    REQUIRE(s.load_model(entry.path().string()).ok());
    SamplerSettings greedy;
    stage<Temperature>(greedy).t = 0.0f;
    REQUIRE(s.set_sampler(0, greedy).ok());
    REQUIRE(set_record_level(s, RecordLevel::Off).ok());
    REQUIRE(set_max_tokens(s, new_tokens).ok());
    for (const CardSample& c : samples) {
      INFO("prompt: " << c.prompt);
      if (c.chat) {
        Result<std::string> prompt = chat_prompt(s, c.prompt, "");
        REQUIRE_MESSAGE(prompt.ok(), prompt.error().message);
        REQUIRE(s.set_prompt(prompt.value()).ok());
      } else {
        REQUIRE(s.set_prompt(c.prompt).ok());
      }
      REQUIRE(s.run_to(new_tokens - 1).ok());
      CHECK(rstrip((c.chat ? "" : c.prompt) + generated_text(s, 0)) == rstrip(c.greedy));
    }
  }
  CHECK(models >= 2);
}
