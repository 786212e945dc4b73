// Chats about tales (tale_chat.h): the request and tale of tale_gen.h wrapped in ChatML turns.
#include "train/tale_chat.h"

#include "train/tale_gen.h"

namespace ts {

namespace {

std::string turn(const char* role, const std::string& content) {
  return std::string(kChatTurnStart) + role + "\n" + content + kChatTurnEnd + "\n";
}

}  // namespace

std::string generate_tale_chat(uint64_t seed, uint64_t index) {
  const TaleAndRequest t = generate_tale_and_request(seed, index);
  std::string out;
  // Two chats in five carry a system message (a fixed one: the model learns it changes nothing).
  if (index % 5 < 2) out += turn("system", kTaleChatSystem);
  out += turn("user", t.request);
  out += std::string(kChatTurnStart) + "assistant\n";
  out += t.tale;
  out += kChatTurnEnd;
  return out;
}

std::string generate_tale_chats(uint64_t seed, uint64_t first, uint64_t count,
                                const std::string& separator) {
  std::string out;
  for (uint64_t i = first; i < first + count; ++i) {
    out += generate_tale_chat(seed, i);
    out += separator;
  }
  return out;
}

}  // namespace ts
