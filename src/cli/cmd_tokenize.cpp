// `tokenscope tokenize`: the pieces and ids of a text. Needs only a vocabulary: a full or
// vocabulary-only GGUF (--model or --tokenizer), or a llama2.c tokenizer.bin (--tokenizer).
#include <cstdio>

#include "base/utf8.h"
#include "cli/cli_common.h"
#include "cli/cli_commands.h"
#include "formats/model_file.h"
#include "tokenizer/tokenizer.h"

namespace ts::cli {

int cmd_tokenize(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Show how a text splits into tokens (id and piece per token).",
               "tokenscope tokenize"};
  ModelOptions m;
  std::string text;
  bool no_bos = false;
  bool ids_only = false;
  add_model_options(app, m);
  app.add_option("--prompt,text", text, "the text to tokenize");
  app.add_flag("--no-bos", no_bos, "do not add the BOS token even if the tokenizer asks for it");
  app.add_flag("--ids", ids_only, "print only the ids, on one line");
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;

  std::string path = m.tokenizer;
  if (path.empty()) {
    Result<std::string> p = resolve_model_path(m);
    if (!p.ok()) return fail(err, "tokenize", p.error().message);
    path = p.value();
  }
  Result<TokenizerData> data = load_tokenizer_file(path);
  if (!data.ok()) return fail(err, "tokenize", data.error().message);
  Result<Tokenizer> tok = Tokenizer::create(std::move(data).value());
  if (!tok.ok()) return fail(err, "tokenize", path + ": " + tok.error().message);
  const Tokenizer& t = tok.value();
  const std::vector<int> ids = t.encode(text, t.data().add_bos && !no_bos && t.bos_id() >= 0);
  if (ids_only) {
    for (size_t i = 0; i < ids.size(); ++i) out << (i ? " " : "") << ids[i];
    out << "\n";
    return 0;
  }
  char buf[64];
  int prev = -1;
  for (size_t i = 0; i < ids.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%5zu %7d  ", i, ids[i]);
    const std::string bytes = t.token_bytes(ids[i], prev);
    out << buf << quoted(t.display_piece(ids[i]));
    if (t.is_special(ids[i])) {
      out << "  (special)";
    } else if (!utf8_valid(bytes)) {
      out << "  (partial UTF-8 byte)";
    }
    out << "\n";
    prev = ids[i];
  }
  out << ids.size() << " tokens, " << text.size() << " bytes ("
      << (t.data().kind == TokenizerKind::Spm ? "SentencePiece" : "byte-level BPE") << ", vocab "
      << t.vocab_size() << ")\n";
  return 0;
}

}  // namespace ts::cli
