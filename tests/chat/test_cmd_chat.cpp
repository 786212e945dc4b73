// `tokenscope chat` run in-process: the prompt printed byte for byte (no newline added), the
// model's own template and special tokens (a copy of the shipped model with a chat template
// written into it), --template over it, --show-tokens, and one line on stderr for bad input.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "chat/chat_template.h"
#include "cli/cli.h"
#include "formats/model_file.h"
#include "golden.h"

namespace {

struct Run {
  int code = 0;
  std::string out, err;
};

Run run(std::vector<std::string> args) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  Run r;
  r.code = ts::cli_run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string write_tmp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// ChatML with the model's end-of-text token closing each turn's text (written for this test).
const char* kTemplate =
    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}{{ eos_token }}\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

// The shipped model, re-written with kTemplate as its tokenizer.chat_template.
std::string chat_model() {
  static const std::string path = [] {
    ts::Result<ts::LoadedModel> m =
        ts::load_model_file((ts::test::source_dir() / "models" / "tales-4m.gguf").string());
    REQUIRE(m.ok());
    m->tokenizer.chat_template = kTemplate;
    const std::string p = (std::filesystem::temp_directory_path() / "ts_chat_model.gguf").string();
    REQUIRE(ts::save_gguf_model(p, m->model, m->tokenizer).ok());
    return p;
  }();
  return path;
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("chat --render prints the model's template rendered, byte for byte") {
  const std::string model = chat_model();
  const std::string eos = ts::load_tokenizer_file(model).value().tokens[2047];
  const std::string msgs =
      write_tmp("ts_chat_msgs.json", R"([{"role": "user", "content": "Hi ☃"}])");
  Run r = run({"chat", "--model", model, "--messages", msgs, "--render"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out == "<|im_start|>user\nHi ☃" + eos + "\n<|im_start|>assistant\n");
  Run off =
      run({"chat", "--model", model, "--messages", msgs, "--render", "--no-generation-prompt"});
  CHECK(off.out == "<|im_start|>user\nHi ☃" + eos + "\n");
  // The file's own add_generation_prompt, and a template given on the command line.
  const std::string obj = write_tmp("ts_chat_obj.json",
                                    R"({"messages": [{"role": "user", "content": "x"}],
                                        "add_generation_prompt": false, "name": "Ada"})");
  const std::string tmpl = write_tmp("ts_chat_t.jinja",
                                     "{{ name }}:{{ messages|length }}"
                                     "{{ add_generation_prompt }}{{ eos_token }}");
  Run t = run({"chat", "--model", model, "--messages", obj, "--template", tmpl, "--render", "--eos",
               "<E>"});
  CHECK(t.out == "Ada:1False<E>");
}

TEST_CASE("chat --show-tokens marks the special tokens") {
  const std::string msgs = write_tmp("ts_chat_msgs2.json", R"([{"role": "user", "content": "a"}])");
  Run r = run({"chat", "--model", chat_model(), "--messages", msgs, "--show-tokens"});
  CHECK(r.code == 0);
  CHECK(r.out.find("(special)") != std::string::npos);
  CHECK(r.out.find(" special or added), ") != std::string::npos);
}

TEST_CASE("chat: a template without a model, and bad input as one line") {
  const std::string msgs = write_tmp("ts_chat_msgs3.json", R"([{"role": "user", "content": "a"}])");
  const std::string tmpl =
      write_tmp("ts_chat_t2.jinja", "[{{ bos_token }}]{{ strftime_now('%d %b %Y') }}");
  Run ok =
      run({"chat", "--template", tmpl, "--messages", msgs, "--render", "--date", "2024-07-26"});
  CHECK(ok.code == 0);
  CHECK(ok.out == "[]26 Jul 2024");

  const std::string bad_json = write_tmp("ts_chat_bad.json", "[{\"role\": \"user\", ");
  const std::string no_role = write_tmp("ts_chat_norole.json", R"([{"content": "x"}])");
  const std::string raises =
      write_tmp("ts_chat_raise.jinja", "{{ raise_exception('roles must alternate') }}");
  const std::string unsupported = write_tmp("ts_chat_unsup.jinja", "{% include 'other.jinja' %}");
  const std::vector<std::vector<std::string>> bad = {
      {"chat", "--template", tmpl, "--messages", bad_json, "--render"},
      {"chat", "--template", tmpl, "--messages", no_role, "--render"},
      {"chat", "--template", raises, "--messages", msgs, "--render"},
      {"chat", "--template", unsupported, "--messages", msgs, "--render"},
      {"chat", "--template", "/nonexistent.jinja", "--messages", msgs, "--render"},
      {"chat", "--template", tmpl, "--messages", msgs},  // nothing asked
      {"chat", "--template", tmpl, "--messages", msgs, "--render", "--date", "July"},
      {"chat", "--messages", msgs, "--render"},  // the shipped model has no chat template
  };
  for (const auto& args : bad) {
    Run r = run(args);
    CHECK_MESSAGE(r.code != 0, args[2] << " " << args[4]);
    CHECK_MESSAGE(lines(r.err) == 1, r.err);
    CHECK(r.out.empty());
  }
  CHECK(run(bad[2]).err ==
        "tokenscope chat: template line 1: the template raised: roles must alternate\n");
  CHECK(run(bad[3]).err == "tokenscope chat: template line 1: unsupported: {% include %}\n");
  CHECK(run(bad[7]).err.find("no chat template") != std::string::npos);
}

TEST_CASE("parse_conversation: an array of messages or an object with variables") {
  auto c = ts::chat::parse_conversation(R"({"messages": [{"role": "system", "content": null}],
                                            "tools": [], "enable_thinking": false})");
  REQUIRE(c.ok());
  CHECK(c->messages.size() == 1);
  CHECK(c->variables.contains("tools"));
  CHECK_FALSE(c->add_generation_prompt.has_value());
  CHECK_FALSE(ts::chat::parse_conversation("{}").ok());
  CHECK_FALSE(ts::chat::parse_conversation(R"({"messages": 3})").ok());
  CHECK_FALSE(ts::chat::parse_conversation(R"([{"role": 1}])").ok());
  std::string deep;
  for (int k = 0; k < 100; ++k) deep += "[";
  for (int k = 0; k < 100; ++k) deep += "]";
  auto d = ts::chat::parse_conversation("{\"messages\": [], \"x\": " + deep + "}");
  REQUIRE(d.ok());
  ts::chat::ChatTemplateSource src;
  src.template_text = "x";
  CHECK(ts::chat::render_chat(src, d.value()).error().message.find("nests deeper than 64") !=
        std::string::npos);
}
