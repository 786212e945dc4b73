// Conversation files and render_chat (see chat_template.h): the variables Hugging Face passes to
// a chat template (messages, add_generation_prompt, tools=None, documents=None, the special
// tokens, the caller's extra variables) and its strftime_now().
#include "chat/chat_template.h"

#include <cstdio>
#include <ctime>

#include "chat/json_value.h"
#include "chat/template.h"

namespace ts::chat {

Result<Conversation> parse_conversation(std::string_view json_text) {
  nlohmann::ordered_json j;
  try {
    j = nlohmann::ordered_json::parse(json_text.begin(), json_text.end());
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    if (const size_t p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    return make_error("not valid JSON: " + what);
  }
  Conversation c;
  if (j.is_object()) {
    for (const auto& kv : j.items()) {
      if (kv.key() == "messages") {
        c.messages = kv.value();
      } else if (kv.key() == "add_generation_prompt") {
        if (!kv.value().is_boolean())
          return make_error("\"add_generation_prompt\" must be true or false");
        c.add_generation_prompt = kv.value().get<bool>();
      } else {
        c.variables[kv.key()] = kv.value();
      }
    }
    if (!j.contains("messages")) return make_error("the JSON object has no \"messages\"");
  } else {
    c.messages = j;
  }
  if (!c.messages.is_array()) return make_error("\"messages\" must be an array of messages");
  for (size_t k = 0; k < c.messages.size(); ++k) {
    const auto& m = c.messages[k];
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string()) {
      return make_error("message " + std::to_string(k) +
                        " is not an object with a string \"role\"");
    }
  }
  return c;
}

ChatTemplateSource special_tokens_of(const TokenizerData& tok) {
  ChatTemplateSource s;
  const auto piece = [&](int id) {
    return id >= 0 && id < static_cast<int>(tok.tokens.size()) ? tok.tokens[static_cast<size_t>(id)]
                                                               : std::string();
  };
  s.bos_token = piece(tok.bos_id);
  s.eos_token = piece(tok.eos_id);
  s.unk_token = piece(tok.unk_id);
  s.pad_token = piece(tok.pad_id);
  return s;
}

Result<ChatTemplateSource> chat_source_from_tokenizer(const TokenizerData& tok) {
  if (tok.chat_template.empty()) {
    return make_error("the model has no chat template (tokenizer.chat_template)");
  }
  ChatTemplateSource s = special_tokens_of(tok);
  s.template_text = tok.chat_template;
  return s;
}

namespace {

// The time strftime_now() formats: `now` ("YYYY-MM-DD[ HH:MM:SS]") or the local clock.
Result<std::tm> current_time(const std::string& now) {
  std::tm tm{};
  if (now.empty()) {
    const std::time_t t = std::time(nullptr);
    localtime_r(&t, &tm);
    return tm;
  }
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  char tail = 0;
  const int n =
      std::sscanf(now.c_str(), "%4d-%2d-%2d %2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &tail);
  if (!(n == 3 || n == 6) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
    return make_error("the date '" + now + "' is not YYYY-MM-DD or YYYY-MM-DD HH:MM:SS");
  }
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  std::tm copy = tm;
  timegm(&copy);  // fills in the weekday and the day of the year
  tm.tm_wday = copy.tm_wday;
  tm.tm_yday = copy.tm_yday;
  return tm;
}

Value strftime_function(const std::tm& tm) {
  return Value::function("strftime_now", [tm](Interp&, CallArgs& a) {
    if (a.pos.size() != 1 || !a.pos[0].is_string() || !a.kw.empty()) {
      fail("strftime_now() takes one format string", a.line);
    }
    const std::string& f = a.pos[0].s;
    for (size_t k = 0; k + 1 < f.size(); ++k) {
      if (f[k] != '%') continue;
      const char c = f[++k];
      if (c == 'f' || c == 'z' || c == 'Z' || c == 'c' || c == 'x' || c == 'X' || c == 'E' ||
          c == 'O') {
        fail_unsupported(std::string("strftime_now() with %") + c, a.line);
      }
    }
    char buf[512];
    const size_t n = std::strftime(buf, sizeof buf, f.c_str(), &tm);
    if (n == 0 && !f.empty())
      fail_unsupported("strftime_now() output longer than 511 bytes", a.line);
    return Value::string(std::string(buf, n));
  });
}

}  // namespace

Result<std::string> render_chat(const ChatTemplateSource& src, const Conversation& conv,
                                bool default_gen_prompt) {
  Result<Template> t = Template::compile(src.template_text);
  if (!t.ok()) return t.error();
  Result<std::tm> now = current_time(src.now);
  if (!now.ok()) return now.error();
  Variables vars;
  Result<Value> messages = value_from_json(conv.messages);
  if (!messages.ok()) return make_error("messages: " + messages.error().message);
  vars.emplace_back("messages", std::move(messages).value());
  vars.emplace_back("add_generation_prompt",
                    Value::boolean(conv.add_generation_prompt.value_or(default_gen_prompt)));
  vars.emplace_back("tools", Value::none());
  vars.emplace_back("documents", Value::none());
  const std::pair<const char*, const std::string*> tokens[] = {{"bos_token", &src.bos_token},
                                                               {"eos_token", &src.eos_token},
                                                               {"unk_token", &src.unk_token},
                                                               {"pad_token", &src.pad_token}};
  for (const auto& [name, text] : tokens) {
    if (!text->empty()) vars.emplace_back(name, Value::string(*text));
  }
  for (const auto& kv : conv.variables.items()) {
    Result<Value> v = value_from_json(kv.value());
    if (!v.ok()) return make_error(kv.key() + ": " + v.error().message);
    bool replaced = false;
    for (auto& existing : vars) {
      if (existing.first == kv.key()) {
        existing.second = v.value();
        replaced = true;
      }
    }
    if (!replaced) vars.emplace_back(kv.key(), std::move(v).value());
  }
  vars.emplace_back("strftime_now", strftime_function(now.value()));
  return t->render(vars);
}

}  // namespace ts::chat
