// A chat as the session's prompt: a user message (and optionally a system message) rendered
// through the loaded model's chat template (tokenizer.chat_template, chat/chat_template.h) with
// the generation prompt, so the prompt becomes exactly the text an instruct model reads, special
// tokens and all, and the Tokens panel shows it token by token. Models without a template are
// refused with one line.
#pragma once
#include <string>

#include "base/error.h"

namespace ts {

class Session;

// The rendered prompt for these messages under the loaded model's template (system may be
// empty: no system message). A leading BOS text is dropped when the session adds BOS itself, so
// the prompt never starts with two.
Result<std::string> chat_prompt(const Session& s, const std::string& user,
                                const std::string& system);

// True when the loaded model carries a chat template.
bool has_chat_template(const Session& s);

// True when the prompt holds a special token past its first position (BOS): a rendered chat's
// turn markers.
bool prompt_has_special_past_bos(const Session& s);

}  // namespace ts
