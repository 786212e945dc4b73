// A chat as the session's prompt (chat_prompt.h).
#include "session/chat_prompt.h"

#include <vector>

#include "chat/chat_template.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

bool has_chat_template(const Session& s) {
  return has_model(s) && !s.tokenizer().data().chat_template.empty();
}

bool prompt_has_special_past_bos(const Session& s) {
  if (!has_model(s)) return false;
  const std::vector<int>& ids = prompt_tokens(s);
  for (size_t i = 1; i < ids.size(); ++i)
    if (s.tokenizer().is_special(ids[i])) return true;
  return false;
}

Result<std::string> chat_prompt(const Session& s, const std::string& user,
                                const std::string& system) {
  if (!has_model(s)) return make_error("no model is loaded");
  const TokenizerData& tok = s.tokenizer().data();
  Result<chat::ChatTemplateSource> src = chat::chat_source_from_tokenizer(tok);
  if (!src.ok())
    return make_error(
        "this model has no chat template (tokenizer.chat_template); a chat model "
        "such as models/tales-chat-4m.gguf has one");
  chat::Conversation conv;
  if (!system.empty()) conv.messages.push_back({{"role", "system"}, {"content", system}});
  conv.messages.push_back({{"role", "user"}, {"content", user}});
  Result<std::string> text = chat::render_chat(src.value(), conv, true);
  if (!text.ok()) return text.error();
  std::string out = std::move(text).value();
  const std::string& bos = src->bos_token;
  if (tok.add_bos && !bos.empty() && out.compare(0, bos.size(), bos) == 0) out.erase(0, bos.size());
  return out;
}

}  // namespace ts
