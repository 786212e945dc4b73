// The chat template engine against Python's jinja2 on the templates real models ship: every
// case of the reference that tests/chat/reference.sh made (each template x each conversation x
// add_generation_prompt on/off, rendered by jinja2 as Hugging Face renders them), and 1,500
// random expression templates (jinja_reference.py --random) on two conversations. Same bytes where
// jinja2 renders; an error where jinja2 raises; a refusal ("unsupported: ...") is allowed only
// outside the templates of the small chat models this project names, which must all render.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "chat/chat_template.h"
#include "golden.h"

namespace {

std::filesystem::path reference_dir() { return std::filesystem::path(TS_CHAT_REFERENCE_DIR); }

// The templates of the models named in the README (llama.cpp's file names) and ours: none may
// be refused, and each must render most conversations.
const std::set<std::string>& required_templates() {
  static const std::set<std::string> s = {"Qwen-Qwen2.5-7B-Instruct.jinja",
                                          "Qwen-Qwen3-0.6B.jinja",
                                          "meta-llama-Llama-3.1-8B-Instruct.jinja",
                                          "meta-llama-Llama-3.2-3B-Instruct.jinja",
                                          "meta-llama-Llama-3.3-70B-Instruct.jinja",
                                          "google-gemma-2-2b-it.jinja",
                                          "microsoft-Phi-3.5-mini-instruct.jinja",
                                          "mistralai-Mistral-Nemo-Instruct-2407.jinja",
                                          "Mistral-Small-3.2-24B-Instruct-2506.jinja",
                                          "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja",
                                          "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja",
                                          "HuggingFaceTB-SmolLM3-3B.jinja",
                                          "ibm-granite-granite-3.3-2B-Instruct.jinja",
                                          "chatml-default-system.jinja",
                                          "constructs.jinja",
                                          "whitespace-crlf.jinja",
                                          "tales-chat.jinja"};
  return s;
}

// A printable excerpt around the first difference of two renders.
std::string first_difference(const std::string& want, const std::string& got) {
  size_t k = 0;
  while (k < want.size() && k < got.size() && want[k] == got[k]) ++k;
  const size_t from = k > 40 ? k - 40 : 0;
  std::ostringstream os;
  os << "at byte " << k << ":\n  jinja2: " << nlohmann::json(want.substr(from, 120)).dump()
     << "\n  ours:   " << nlohmann::json(got.substr(from, 120)).dump();
  return os.str();
}

}  // namespace

TEST_CASE("chat templates: the same prompt as Python's jinja2, byte for byte") {
  const auto skipped = reference_dir() / "skipped";
  const auto path = reference_dir() / "reference.json";
  if (std::filesystem::exists(skipped)) {
    std::ifstream in(skipped);
    std::string why;
    std::getline(in, why);
    MESSAGE("SKIPPED (the reference could not be made here): " << why);
    return;
  }
  if (!std::filesystem::exists(path)) {
    if (ts::test::running_in_ci())
      FAIL("missing " << path.string() << " (tests/chat/reference.sh)");
    MESSAGE("SKIPPED: no " << path.string() << " (ctest runs tests/chat/reference.sh first)");
    return;
  }
  std::ifstream in(path);
  const nlohmann::ordered_json ref = nlohmann::ordered_json::parse(in);
  const auto& conversations = ref.at("conversations");
  const auto& templates = ref.at("templates");
  for (const std::string& name : required_templates()) {
    CHECK_MESSAGE(templates.contains(name), "the reference lacks " << name);
  }
  std::map<std::string, int> same, refused, both_failed;
  int mismatches = 0;
  for (const auto& c : ref.at("cases")) {
    const std::string name = c.at("template");
    ts::chat::ChatTemplateSource src;
    src.template_text = templates.at(name).get<std::string>();
    src.bos_token = c.at("bos");
    src.eos_token = c.at("eos");
    src.now = c.at("date");
    const auto& conv_json = conversations.at(c.at("conversation").get<size_t>());
    ts::chat::Conversation conv;
    if (conv_json.is_array()) {
      conv.messages = conv_json;
    } else {
      for (const auto& kv : conv_json.items()) {
        if (kv.key() == "messages")
          conv.messages = kv.value();
        else if (kv.key() != "add_generation_prompt")
          conv.variables[kv.key()] = kv.value();
      }
    }
    conv.add_generation_prompt = c.at("add_generation_prompt").get<bool>();
    const ts::Result<std::string> ours = ts::chat::render_chat(src, conv);
    const std::string where =
        name + ", conversation " + std::to_string(c.at("conversation").get<int>()) +
        ", add_generation_prompt " + (c.at("add_generation_prompt").get<bool>() ? "on" : "off");
    if (c.contains("text")) {
      const std::string want = c.at("text");
      if (ours.ok() && ours.value() == want) {
        ++same[name];
      } else if (ours.ok()) {
        ++mismatches;
        FAIL_CHECK(where << ": different prompt " << first_difference(want, ours.value()));
      } else if (ours.error().message.find("unsupported:") != std::string::npos &&
                 !required_templates().count(name)) {
        ++refused[name];
      } else {
        ++mismatches;
        FAIL_CHECK(where << ": jinja2 renders it, ours fails: " << ours.error().message);
      }
    } else {
      if (ours.ok()) {
        ++mismatches;
        FAIL_CHECK(where << ": jinja2 fails (" << c.at("error").get<std::string>()
                         << ") but ours renders "
                         << nlohmann::json(ours.value().substr(0, 200)).dump());
      } else {
        ++both_failed[name];
      }
    }
  }
  int n_same = 0;
  for (const auto& kv : same) n_same += kv.second;
  std::ostringstream summary;
  summary << n_same << " prompts identical to jinja2 " << ref.at("jinja2").get<std::string>()
          << " over " << templates.size() << " templates; refused: ";
  int random_refused = 0;
  for (const auto& kv : refused) {
    if (kv.first.rfind("random-", 0) == 0) {
      random_refused += kv.second;
    } else {
      summary << kv.first << " (" << kv.second << ") ";
    }
  }
  summary << "and " << random_refused << " renders of the random templates";
  MESSAGE(summary.str());
  CHECK(mismatches == 0);
  for (const std::string& name : required_templates()) {
    CHECK_MESSAGE(same[name] >= 20, name << " rendered only " << same[name] << " conversations");
  }
}
