// A chat as one prompt: a conversation (messages with roles) rendered through a model's chat
// template (tokenizer.chat_template, a Jinja2 text) into the exact text the model reads, special
// tokens included, as Hugging Face's apply_chat_template renders it. This is the API front ends
// call; the template engine itself is template.h.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.h"
#include "tokenizer/tokenizer.h"

namespace ts::chat {

// What a conversation file holds: either a JSON array of messages, or an object with
// "messages" and optionally "add_generation_prompt", "tools", "documents" and any other
// variable the template reads ("enable_thinking", "date_string", ...).
struct Conversation {
  nlohmann::ordered_json messages = nlohmann::ordered_json::array();
  std::optional<bool> add_generation_prompt;  // absent: the caller's default
  nlohmann::ordered_json variables = nlohmann::ordered_json::object();  // tools, documents, ...
};

// Parses a conversation file's text. Each message must be an object with a string "role".
Result<Conversation> parse_conversation(std::string_view json_text);

// The template and the tokens it may name.
struct ChatTemplateSource {
  std::string template_text;
  std::string bos_token, eos_token;  // empty: the model has none (then undefined in the template)
  std::string unk_token, pad_token;
  // What strftime_now() sees as the current date and time (UTC), as "YYYY-MM-DD" or
  // "YYYY-MM-DD HH:MM:SS"; empty: the clock.
  std::string now;
};

// The chat template and special tokens a model's vocabulary carries. Fails when it has no
// tokenizer.chat_template.
Result<ChatTemplateSource> chat_source_from_tokenizer(const TokenizerData& tok);
// Only the special tokens' texts (empty where the vocabulary has none); no template.
ChatTemplateSource special_tokens_of(const TokenizerData& tok);

// Renders the conversation: messages, add_generation_prompt (default `default_gen_prompt`),
// bos_token / eos_token / unk_token / pad_token, tools and documents (none unless given), the
// other variables, and strftime_now(format). One-line errors: bad JSON, a template the engine
// refuses ("template line N: unsupported: ..."), a template that raises ("template line N: the
// template raised: ..."), limits.
Result<std::string> render_chat(const ChatTemplateSource& src, const Conversation& conv,
                                bool default_gen_prompt = true);

}  // namespace ts::chat
