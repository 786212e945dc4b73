// `tokenscope chat`: a conversation (a JSON file of messages) rendered through a chat template
// into the one prompt the model reads. --render prints that prompt byte for byte (nothing added,
// not even a final newline); --show-tokens lists its tokens with the special ones marked. The
// template is the model's tokenizer.chat_template, or --template FILE.
#include <fstream>
#include <sstream>

#include "base/utf8.h"
#include "chat/chat_template.h"
#include "cli/cli_commands.h"
#include "cli/cli_common.h"
#include "formats/model_file.h"
#include "tokenizer/tokenizer.h"

namespace ts::cli {

namespace {

constexpr size_t kMaxFileBytes = 64u << 20;

Result<std::string> read_text_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(std::string("cannot open the ") + what + " '" + path + "'");
  std::ostringstream ss;
  char buf[1 << 16];
  size_t total = 0;
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    total += static_cast<size_t>(in.gcount());
    if (total > kMaxFileBytes)
      return make_error(std::string("the ") + what + " '" + path + "' is over 64 MiB");
    ss.write(buf, in.gcount());
  }
  return ss.str();
}

struct ChatOptions {
  ModelOptions model;
  std::string messages, template_file, bos, eos, date;
  bool render = false, show_tokens = false, no_gen_prompt = false, bos_given = false,
       eos_given = false;
};

// The template and its special tokens: the model's, then --template / --bos / --eos over them.
Result<chat::ChatTemplateSource> template_source(const ChatOptions& o, const TokenizerData* tok) {
  chat::ChatTemplateSource src;
  if (tok) src = chat::special_tokens_of(*tok);
  if (!o.template_file.empty()) {
    Result<std::string> t = read_text_file(o.template_file, "template");
    if (!t.ok()) return t.error();
    src.template_text = std::move(t).value();
  } else if (tok) {
    Result<chat::ChatTemplateSource> s = chat::chat_source_from_tokenizer(*tok);
    if (!s.ok()) return make_error(s.error().message + "; give one with --template FILE");
    src.template_text = s->template_text;
  }
  if (o.bos_given) src.bos_token = o.bos;
  if (o.eos_given) src.eos_token = o.eos;
  src.now = o.date;
  return src;
}

void print_tokens(const Tokenizer& t, const std::string& prompt, std::ostream& out) {
  const std::vector<int> ids = t.encode(prompt, false);
  char buf[64];
  int special = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%5zu %7d  ", i, ids[i]);
    out << buf << quoted(t.display_piece(ids[i]));
    const auto& types = t.data().token_types;
    const auto id = static_cast<size_t>(ids[i]);
    if (t.is_special(ids[i])) {
      out << "  (special)";
      ++special;
    } else if (id < types.size() && types[id] == static_cast<int32_t>(TokenType::UserDefined)) {
      out << "  (added)";
      ++special;
    }
    out << "\n";
  }
  out << ids.size() << " tokens (" << special << " special or added), " << prompt.size()
      << " bytes\n";
}

}  // namespace

int cmd_chat(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "Render a conversation through a chat template: the exact prompt a chat model reads, "
      "special tokens included (Jinja2, as Hugging Face's apply_chat_template).",
      "tokenscope chat"};
  ChatOptions o;
  add_model_options(app, o.model);
  app.add_option("--messages", o.messages,
                 "JSON file: an array of {\"role\", \"content\"} messages, or an object with "
                 "\"messages\" and other template variables (\"tools\", \"add_generation_prompt\", "
                 "\"enable_thinking\", ...)")
      ->required();
  app.add_option("--template", o.template_file,
                 "Jinja2 chat template file (instead of the model's tokenizer.chat_template)");
  app.add_flag("--render", o.render, "print the rendered prompt exactly (no newline added)");
  app.add_flag("--show-tokens", o.show_tokens,
               "list the prompt's tokens (needs --model), special tokens marked");
  app.add_flag("--no-generation-prompt", o.no_gen_prompt,
               "add_generation_prompt = false (default true, unless the messages file says)");
  app.add_option("--bos", o.bos, "bos_token text (default: the model's)");
  app.add_option("--eos", o.eos, "eos_token text (default: the model's)");
  app.add_option("--date", o.date,
                 "the date strftime_now() sees, YYYY-MM-DD[ HH:MM:SS] (default: today)");
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;
  o.bos_given = app.count("--bos") > 0;
  o.eos_given = app.count("--eos") > 0;
  if (!o.render && !o.show_tokens)
    return fail(err, "chat", "say what to print: --render or --show-tokens");

  std::optional<Tokenizer> tok;
  if (!o.model.model.empty() || o.template_file.empty() || o.show_tokens) {
    Result<std::string> path = resolve_model_path(o.model);
    if (!path.ok()) return fail(err, "chat", path.error().message);
    Result<TokenizerData> data = load_tokenizer_file(path.value());
    if (!data.ok()) return fail(err, "chat", data.error().message);
    Result<Tokenizer> t = Tokenizer::create(std::move(data).value());
    if (!t.ok()) return fail(err, "chat", path.value() + ": " + t.error().message);
    tok = std::move(t).value();
  }
  Result<chat::ChatTemplateSource> src = template_source(o, tok ? &tok->data() : nullptr);
  if (!src.ok()) return fail(err, "chat", src.error().message);
  Result<std::string> text = read_text_file(o.messages, "messages file");
  if (!text.ok()) return fail(err, "chat", text.error().message);
  Result<chat::Conversation> conv = chat::parse_conversation(text.value());
  if (!conv.ok()) return fail(err, "chat", o.messages + ": " + conv.error().message);
  Result<std::string> prompt = chat::render_chat(src.value(), conv.value(), !o.no_gen_prompt);
  if (!prompt.ok()) return fail(err, "chat", prompt.error().message);
  if (o.render) out.write(prompt->data(), static_cast<std::streamsize>(prompt->size()));
  if (o.show_tokens) {
    if (o.render) out << "\n";
    print_tokens(tok.value(), prompt.value(), out);
  }
  out.flush();
  return 0;
}

}  // namespace ts::cli
