// Chats about tales, the corpus of the chat model (models/tales-chat.md): each document is one
// conversation in the ChatML layout that models/tales-chat.jinja renders, a user asking for a
// story (tale_gen.h's request) and the assistant telling it, sometimes after a system message:
//   <|im_start|>system\nYou tell short, kind stories for children.<|im_end|>\n   (some chats)
//   <|im_start|>user\nTell me a story about a fox named Lily who gets lost.<|im_end|>\n
//   <|im_start|>assistant\nOnce upon a time, ...<|im_end|>
// The text is the template's rendering of those messages, then the answer and its end marker,
// so a prompt rendered by the template is exactly how every training chat begins.
#pragma once
#include <cstdint>
#include <string>

namespace ts {

inline constexpr const char* kChatTurnStart = "<|im_start|>";
inline constexpr const char* kChatTurnEnd = "<|im_end|>";
inline constexpr const char* kTaleChatSystem = "You tell short, kind stories for children.";

// One conversation about tale `index` of seed `seed` (no trailing separator).
std::string generate_tale_chat(uint64_t seed, uint64_t index);

// Chats first .. first+count-1, each followed by `separator`.
std::string generate_tale_chats(uint64_t seed, uint64_t first, uint64_t count,
                                const std::string& separator);

}  // namespace ts
