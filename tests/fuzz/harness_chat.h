// Fuzz harness for chat templates (chat/template.h): any bytes as a template, compiled and, when
// that succeeds, rendered for a fixed conversation under small limits. Errors are one clean line
// starting with "template"; a rendered prompt is valid UTF-8; nothing crashes or runs away.
#pragma once
#include <span>
#include <string>

#include "chat/json_value.h"
#include "chat/template.h"
#include "fuzz/harness_common.h"

namespace ts::fuzz {

inline std::string run_chat(std::span<const uint8_t> in) {
  Result<chat::Template> t = chat::Template::compile(as_text(in));
  if (!t.ok()) return check_error(t.error(), "template");
  static const nlohmann::ordered_json messages = nlohmann::ordered_json::parse(R"([
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Hi ☃ <think>x</think>"},
    {"role": "assistant", "content": null, "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}]},
    {"role": "user", "content": ""}])");
  chat::Variables vars;
  vars.emplace_back("messages", chat::value_from_json(messages).value());
  vars.emplace_back("add_generation_prompt", chat::Value::boolean(true));
  vars.emplace_back("bos_token", chat::Value::string("<s>"));
  chat::RenderLimits limits;
  limits.max_steps = 200000;
  limits.max_output_bytes = 1 << 20;
  Result<std::string> r = t->render(vars, limits);
  if (!r.ok()) return check_error(r.error(), "template");
  if (!utf8_valid(r.value())) return "a rendered prompt is not valid UTF-8";
  return "";
}

}  // namespace ts::fuzz
