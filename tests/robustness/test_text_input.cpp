// Odd prompts through a session on a tiny model: empty, longer than the context, invalid UTF-8,
// NUL bytes, control characters, 1 MB of text, emoji and combining characters. Each either works
// (tokens in range, labels valid UTF-8 on one line, the KV length equal to the position) or is
// refused with a clean line that leaves the session as it was.
#include <doctest/doctest.h>

#include <string>

#include "base/utf8.h"
#include "fuzz/harness_session.h"
#include "fuzz/seed_models.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts {

namespace {

struct Prompt {
  const char* name;
  std::string text;
};

std::vector<Prompt> odd_prompts() {
  std::string mb;
  while (mb.size() < (1u << 20)) mb += "the hat sat \xF0\x9F\x98\x80 on e\xCC\x81 the mat. ";
  return {
      {"empty", ""},
      {"one space", " "},
      {"invalid UTF-8", std::string("\xFF\xFE\xC3 \xE2\x82 \xED\xA0\x80 \xC0\xAF", 14)},
      {"NUL bytes", std::string("a\0b\0\0c", 6)},
      {"control characters", "\x1B[31mred\x1B[0m\r\n\t\x07\x7F\x01"},
      {"emoji and combining marks",
       "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB e\xCC\x81\xCC\x81 \xE4\xBD\xA0\xE5\xA5\xBD"},
      {"special-token text", "<s></s><unk>"},
      {"longer than the context", std::string(500, 'e')},
      {"1 MB of text", mb},
  };
}

}  // namespace

TEST_CASE("odd prompts: tokenized, cut to the context, generated from, shown as valid UTF-8") {
  for (const char* space : {"\xE2\x96\x81", " "}) {
    for (const Prompt& p : odd_prompts()) {
      INFO("prompt: " << std::string(p.name) << ", space '" << std::string(space) << "'");
      Session s;
      REQUIRE(s.set_model(fuzz::small_loaded("llama", fuzz::small_spm(300, true, space), 32)).ok());
      REQUIRE(s.set_prompt(p.text).ok());  // this vocabulary adds BOS: even "" is a prompt
      const int n = static_cast<int>(prompt_tokens(s).size());
      CHECK(n >= 1);
      CHECK(n <= config(s).n_ctx - 1);
      CHECK((prompt_cut(s) > 0) == (p.text.size() > 100));
      for (int id : prompt_tokens(s)) CHECK((id >= 0 && id < config(s).vocab_size));
      // Generate until the context is full: the last steps hit the n_ctx limit, not a crash.
      REQUIRE(set_max_tokens(s, 1000).ok());
      REQUIRE(s.run_to(1000).ok());
      CHECK(all_stopped(s));
      CHECK(kv_length(s, 0) <= config(s).n_ctx);
      CHECK(fuzz::check_session_view(s) == "");
      CHECK(utf8_valid(utf8_sanitize(generated_text(s, 0))));
    }
  }
}

TEST_CASE("odd prompts: an empty prompt without BOS is refused and changes nothing") {
  TokenizerData tok = fuzz::small_spm(40, false, " ");
  tok.add_bos = false;
  Session s;
  REQUIRE(s.set_model(fuzz::small_loaded("llama", tok)).ok());
  REQUIRE(s.set_prompt("the").ok());
  REQUIRE(s.step().ok());
  const std::vector<int> before = prompt_tokens(s);
  const Status st = s.set_prompt("");
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("empty") != std::string::npos);
  CHECK(prompt_text(s) == "the");
  CHECK(prompt_tokens(s) == before);
  CHECK(s.cursor() == 0);
}

TEST_CASE("odd prompts: partial UTF-8 pieces never show as invalid text") {
  // Byte-fallback tokens split an emoji into 4 pieces; each label and the growing text stay valid.
  Session s;
  REQUIRE(s.set_model(fuzz::small_loaded("llama", fuzz::small_spm(300, true, " "))).ok());
  REQUIRE(s.set_prompt("a").ok());
  REQUIRE(s.step().ok());
  const Tokenizer& tok = s.tokenizer();
  const std::string emoji = "\xF0\x9F\xA6\x8A";  // not a piece of this vocabulary
  std::string shown;
  for (unsigned char b : emoji) {
    const int id = tok.find([&] {
      char buf[8];
      std::snprintf(buf, sizeof buf, "<0x%02X>", b);
      return std::string(buf);
    }());
    REQUIRE(id >= 0);
    REQUIRE(s.force(id).ok());
    REQUIRE(s.step().ok());
    CHECK(utf8_valid(step_at(s, 0, s.cursor() - 1)->display));
    CHECK(utf8_valid(utf8_sanitize(generated_text(s, 0))));
  }
  // The four forced bytes together are the emoji again.
  CHECK(generated_text(s, 0).find(emoji) != std::string::npos);
}

}  // namespace ts
