// make_seeds OUT_DIR: writes the seed corpus of every fuzz target under OUT_DIR/<target>/
// (tests/fuzz/corpus/ is its committed output): tiny valid GGUF files written with the
// project's own GGUF writer, llama2.c checkpoints and tokenizer.bin files, texts for the
// tokenizers, lessons and traces. Deterministic; crash reproducers are never written here.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "formats/gguf_tokenizer.h"
#include "fuzz/seed_models.h"
#include "session/session.h"
#include "session/session_ops.h"
#include "tokenizer/bpe_trainer.h"
#include "trace/trace_json.h"

namespace fs = std::filesystem;
using namespace ts;
using namespace ts::fuzz;

namespace {

fs::path g_out;

void put(const std::string& target, const std::string& name, const std::vector<uint8_t>& b) {
  fs::create_directories(g_out / target);
  std::ofstream f(g_out / target / name, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (b.empty()) std::cerr << "make_seeds: warning: " << target << "/" << name << " is empty\n";
}

void put_text(const std::string& target, const std::string& name, const std::string& s) {
  put(target, name, std::vector<uint8_t>(s.begin(), s.end()));
}

TokenizerData small_bpe() {
  Result<TokenizerData> d = train_bpe("the cat sat on the mat. the hat! caf\xC3\xA9 \xF0\x9F\x98\x80"
                                      "\xF0\x9F\x98\x80 12 12 the end.", 270);
  return d.ok() ? d.value() : TokenizerData{};
}

void gguf_seeds() {
  const TokenizerData spm = small_spm(40, false, "\xE2\x96\x81");
  put("gguf", "llama-f16.gguf", gguf_bytes(small_model("llama", 40), spm));
  put("gguf", "llama-f32-untied.gguf",
      gguf_bytes(small_model("llama", 40, 16, 1, 3, false), spm, GgmlType::F32));
  put("gguf", "qwen2-f16.gguf", gguf_bytes(small_model("qwen2", 40), spm));
  put("gguf", "llama-2layer-f16.gguf", gguf_bytes(small_model("llama", 40, 16, 2), spm));
  const TokenizerData bpe = small_bpe();
  put("gguf", "gpt2-f16.gguf",
      gguf_bytes(small_model("gpt2", static_cast<int>(bpe.tokens.size()), 8), bpe));
  // Vocabulary-only files (no tensors), as llama.cpp ships them.
  GgufWriter v;
  (void)tokenizer_to_gguf(spm, v);
  v.set("general.architecture", GgufValue::str("llama"));
  put("gguf", "vocab-spm.gguf", v.to_bytes().value());
  // The smallest valid file: a header with nothing in it.
  put("gguf", "empty.gguf", GgufWriter().to_bytes().value());
}

void llama2c_seeds() {
  put("llama2c", "shared.bin", llama2c_bytes(small_model("llama", 12, 4)));
  put("llama2c", "unshared-2layer.bin", llama2c_bytes(small_model("llama", 10, 2, 2, 5, false)));
  put("llama2c", "tokenizer.bin", llama2c_tokenizer_bytes(small_spm(24, false, " ")));
  put("llama2c", "tokenizer-bytes.bin", llama2c_tokenizer_bytes(small_spm(262, true, " ")));
}

template <size_t N>
std::string lit(const char (&s)[N]) {  // a literal with embedded NULs, whole
  return std::string(s, N - 1);
}

void tokenizer_seeds() {
  const std::vector<std::pair<std::string, std::string>> texts = {
      {"ascii", "\x01Once upon a time, the cat sat on the mat."},
      {"empty", lit("\x00")},
      {"emoji", lit("\x00\xF0\x9F\x98\x80\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB e\xCC\x81 "
                "\xE4\xBD\xA0\xE5\xA5\xBD")},
      {"invalid", lit("\x01\xFF\xFE\xC3 \xE2\x82 \xF0\x9F\x98 \xED\xA0\x80 \xC0\xAF")},
      {"control", lit("\x00\x00a\x00b\r\n\t\x1B[31m\x7F")},
      {"special", "\x01<s>the</s><|endoftext|> <unk>"},
      {"spaces", lit("\x00   lead  \t\t trail   \n\n")},
  };
  for (const auto& [name, text] : texts) {
    put_text("bpe", name + ".txt", text);
    put_text("spm", name + ".txt", text);
  }
}

void lesson_seeds() {
  put_text("lesson", "all-blocks.md",
           "---\ntitle: Seed\nmodel: tales-4m.gguf\nsummary: every block kind\n---\n\n"
           "## First page\nNarration with **bold**.\n\nA second paragraph.\n\n"
           "```do\nprompt \"Once upon a\"\nstep\nback\nseek 0\nforce \" time\"\n"
           "sampler temp=0.8 top-k=40 seed=7\nlanes greedy; temp=1.0\nrecord full\n"
           "max-tokens 8\nstop \".\"\nrun-to 3\nfirst\nlast\nshow distribution tokens\n"
           "focus attention\nreveal\n```\n\n"
           "```expect\ntop-1 is \" time\"\np(\" time\") > 0.9\nentropy < 1\n```\n\n"
           "```ask\nWhat comes next?\n```\n\n## Second page\nMore text.\n");
  put_text("lesson", "heading-title.md", "# A title from the heading\n\n## Page\ntext\n");
  put_text("lesson", "unclosed.md", "---\ntitle: x\n---\n## P\n```do\nstep\n");
}

void trace_seeds() {
  const TokenizerData spm = small_spm(40, false, "\xE2\x96\x81");
  struct Run {
    RecordLevel level;
    int lanes, steps;
    const char* name;
  };
  for (const Run& run : {Run{RecordLevel::Off, 1, 2, "off-1lane.json"},
                         Run{RecordLevel::Off, 2, 1, "off-2lanes.json"},
                         Run{RecordLevel::Summary, 1, 1, "summary-1lane.json"}}) {
    Session s;
    if (!s.set_model(small_loaded("llama", spm, 16)).ok() || !s.set_prompt("the hat").ok()) {
      std::cerr << "make_seeds: the trace session failed\n";
      return;
    }
    SamplerSettings greedy;
    stage<Temperature>(greedy).t = 0;
    (void)set_record_level(s, run.level);
    (void)set_max_tokens(s, 3);
    if (run.lanes > 1) (void)s.add_lane(greedy);
    for (int k = 0; k < run.steps; ++k) (void)s.step();
    put_text("trace", run.name, trace_to_json(make_trace(s), -1));
  }
}

// Chat templates: a ChatML loop, one with macros, namespace and filters, and broken ones.
void chat_seeds() {
  put_text("chat", "chatml.jinja",
           "{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + (m.content or '') }}"
           "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n"
           "{% endif %}");
  put_text("chat", "constructs.jinja",
           "{%- macro t(r, c='') -%}[{{ r|upper }}]{{ c|trim }}{%- endmacro -%}\n"
           "{%- set ns = namespace(n=0, s='') %}\n"
           "{%- for m in messages if m.role != 'system' %}{% set ns.n = ns.n + 1 %}\n"
           "  {{- t(m.role, m.content) }}{{ loop.index }}/{{ loop.length }}"
           "{% if m.tool_calls is defined %}{{ m.tool_calls|tojson(indent=2) }}{% endif %}\n"
           "{%- else %}none{% endfor %}\n"
           "{{ ns.n }} {{ messages|map(attribute='role')|select('ne', 'user')|join(',') }} "
           "{{ messages[1:][::-1]|length }} {{ 'a,b'.split(',') }} {{ {'k': [1, 2.5, none]} }}"
           "{% raw %}{{ raw }}{% endraw %}{{ raise_exception('done') if false }}");
  put_text("chat", "unclosed.jinja", "{% if messages %}{{ messages[0].content");
  put_text("chat", "deep.jinja", "{{ ((((((((((1)))))))))) }}{% for i in range(3) %}{% for j in range(3) %}{{ i * j }}{% endfor %}{% endfor %}");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_seeds OUT_DIR\n";
    return 2;
  }
  g_out = argv[1];
  gguf_seeds();
  llama2c_seeds();
  tokenizer_seeds();
  lesson_seeds();
  trace_seeds();
  chat_seeds();
  std::cout << "make_seeds: wrote the seed corpus under " << g_out.string() << "\n";
  return 0;
}
