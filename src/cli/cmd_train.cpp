// `tokenscope train`: builds the corpus (procedural stories, or a text file), trains the BPE
// tokenizer, trains the model with a live progress line, checkpoints periodically and on Ctrl-C,
// resumes, and writes the GGUF the engine opens. This is a command: it prints; the library
// pieces it drives do not.
#include "cli/cmd_train.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "base/read_file.h"
#include "formats/model_file.h"
#include "tokenizer/bpe_trainer.h"
#include "train/checkpoint.h"
#include "train/corpus.h"
#include "train/dataset.h"
#include "train/sample_text.h"

namespace ts {

namespace {

std::atomic<bool> g_stop{false};
void on_sigint(int) { g_stop.store(true); }  // the SIGINT handler: sets the stop flag

std::string fmt_duration(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  char buf[32];
  const long t = std::lround(s);
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  return buf;
}

struct Options {
  CorpusOptions corpus;
  int vocab = 1024;
  std::string out, ckpt, name;
  std::string tokenizer;  // a model or vocabulary file whose tokenizer is used as is (no BPE training)
  std::vector<std::string> add_tokens;  // control tokens appended to the vocabulary ("<|im_start|>")
  std::string eos_token;                // the token that ends a reply (default: the document marker)
  std::string chat_template;            // a Jinja2 file stored as tokenizer.chat_template
  bool resume = false, export_only = false;
  int log_every = 10;
  long stop_after = 0;  // > 0: behave as if Ctrl-C came right after this step
};

Status export_gguf(const std::string& path, const Checkpoint& ck) {
  Model m = to_model(ck.state.layout, ck.state.params);
  std::map<std::string, std::string> extra;
  for (const auto& [k, v] : ck.info)
    if (k != "chat_template") extra["tokenscope.train." + k] = v;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%ld steps, %.0f tokens, %.1f min, train loss %.4f, val loss %.4f",
                ck.state.step, ck.state.tokens_seen, ck.state.seconds / 60, ck.state.last_train_loss,
                ck.state.last_val_loss);
  extra["tokenscope.train.result"] = buf;
  extra["general.description"] = ck.info.count("description") ? ck.info.at("description") : "";
  TokenizerData tok = ck.tokenizer;
  if (const auto it = ck.info.find("chat_template"); it != ck.info.end()) tok.chat_template = it->second;
  return save_gguf_model(path, m, tok, extra);
}

// --add-token and --eos-token applied to a new run's tokenizer (a resumed run has them in its
// checkpoint's vocabulary).
Status add_chat_tokens(const Options& o, Checkpoint& ck) {
  TokenizerData& t = ck.tokenizer;
  for (const std::string& text : o.add_tokens) {
    if (text.empty()) return make_error("--add-token: empty text");
    if (std::find(t.tokens.begin(), t.tokens.end(), text) != t.tokens.end())
      return make_error("--add-token: '" + text + "' is already in the vocabulary");
    if (t.token_types.empty()) t.token_types.assign(t.tokens.size(), static_cast<int32_t>(TokenType::Normal));
    t.tokens.push_back(text);
    t.token_types.push_back(static_cast<int32_t>(TokenType::Control));
    if (!t.scores.empty()) t.scores.push_back(0.0f);
  }
  if (!o.eos_token.empty()) {
    const auto it = std::find(t.tokens.begin(), t.tokens.end(), o.eos_token);
    if (it == t.tokens.end()) return make_error("--eos-token: '" + o.eos_token + "' is not in the vocabulary");
    if (t.bos_id < 0) t.bos_id = t.eos_id;  // documents keep beginning with the old marker
    t.eos_id = static_cast<int>(it - t.tokens.begin());
  }
  return ok_status();
}

// The token every training document begins with: BOS where the vocabulary has one (a chat model
// ends replies with another token), else the end-of-text marker (BOS and EOS are one token in
// the vocabularies train_bpe makes).
int document_start(const Tokenizer& tok) { return tok.bos_id() >= 0 ? tok.bos_id() : tok.eos_id(); }

void print_samples(const Checkpoint& ck, const Tokenizer& tok, const std::vector<std::string>& prompts) {
  for (size_t i = 0; i < prompts.size(); ++i) {
    const std::string g = sample_text(ck.state.layout, ck.state.params, tok, prompts[i], 60, 0.0, 0);
    const std::string s = sample_text(ck.state.layout, ck.state.params, tok, prompts[i], 60, 1.0, 1000 + i);
    std::printf("  prompt: %s\n  greedy: %s\n  T=1   : %s\n", prompts[i].c_str(), g.c_str(), s.c_str());
  }
  std::fflush(stdout);
}

// The command's options, into o and cfg (cfg holds the model's shape and the run's schedule).
void add_train_options(CLI::App& app, Options& o, TrainConfig& cfg) {
  app.add_option("--corpus", o.corpus.source, "'tales' (procedural, built in; the default model's corpus), 'tale-chats' (requests for a tale and the tale, as ChatML chats: the chat model's), 'stories' (the older generator) or a UTF-8 text file")->capture_default_str();
  app.add_option("--stories", o.corpus.n_stories, "number of generated stories")->capture_default_str();
  app.add_option("--story-seed", o.corpus.story_seed, "seed of the story generator")->capture_default_str();
  app.add_option("--separator", o.corpus.separator, "document separator in a text corpus")->capture_default_str();
  app.add_option("--val-fraction", o.corpus.val_fraction, "share of documents held out")->capture_default_str();
  app.add_option("--vocab", o.vocab, "BPE vocabulary size (incl. 256 bytes and <|endoftext|>)")->capture_default_str();
  app.add_option("--layers", cfg.model.n_layers)->capture_default_str();
  app.add_option("--heads", cfg.model.n_heads)->capture_default_str();
  app.add_option("--dim", cfg.model.d_model, "d_model")->capture_default_str();
  app.add_option("--ff", cfg.model.d_ff, "d_ff (SwiGLU hidden)")->capture_default_str();
  app.add_option("--ctx", cfg.model.n_ctx, "context length = training sequence length")->capture_default_str();
  app.add_option("--steps", cfg.steps)->capture_default_str();
  app.add_option("--batch", cfg.batch, "sequences per step")->capture_default_str();
  app.add_option("--lr", cfg.lr.max_lr, "peak learning rate")->capture_default_str();
  app.add_option("--min-lr", cfg.lr.min_lr, "final learning rate")->capture_default_str();
  app.add_option("--warmup", cfg.lr.warmup_steps, "warm-up steps")->capture_default_str();
  app.add_option("--weight-decay", cfg.adamw.weight_decay)->capture_default_str();
  app.add_option("--clip", cfg.clip, "gradient-norm clip")->capture_default_str();
  app.add_option("--seed", cfg.seed, "initialisation and batch-order seed")->capture_default_str();
  app.add_option("--threads", cfg.n_threads)->capture_default_str();
  app.add_option("--eval-every", cfg.eval_every, "steps between validation passes")->capture_default_str();
  app.add_option("--eval-windows", cfg.eval_windows, "validation windows of ctx tokens")->capture_default_str();
  app.add_option("--checkpoint-every", cfg.checkpoint_every_s, "seconds between checkpoints")->capture_default_str();
  app.add_option("--log-every", o.log_every, "steps between progress lines")->capture_default_str();
  app.add_option("--tokenizer", o.tokenizer,
                 "use this file's tokenizer (a GGUF model or vocabulary) instead of training one, so "
                 "the new model's ids agree with that model's (a draft model for speculative decoding)");
  app.add_option("--add-token", o.add_tokens,
                 "append a control token with this exact text to the vocabulary (repeatable; a chat "
                 "model's turn markers)");
  app.add_option("--eos-token", o.eos_token,
                 "the token generation stops at (its text; e.g. a chat model's end-of-turn); documents "
                 "still begin with the vocabulary's BOS");
  app.add_option("--chat-template", o.chat_template,
                 "a Jinja2 chat template file, stored in the model as tokenizer.chat_template");
  app.add_option("--name", o.name, "model name (general.name)");
  app.add_option("--out", o.out, "output GGUF path")->required();
  app.add_option("--checkpoint", o.ckpt, "checkpoint path (default: <out>.ckpt)");
  app.add_option("--stop-after", o.stop_after,
                 "save a checkpoint and stop after this step, as Ctrl-C would (scriptable)");
  app.add_flag("--resume", o.resume, "continue from --checkpoint");
  app.add_flag("--export-only", o.export_only, "write the GGUF from --checkpoint and exit");
}

// A new run's tokenizer: another model's (--tokenizer) or BPE trained on the corpus, then the
// chat tokens; a resumed run keeps its checkpoint's.
Status make_tokenizer(const Options& o, const Corpus& c, Checkpoint& ck) {
  if (o.resume) return ok_status();
  if (!o.tokenizer.empty()) {
    auto t = load_tokenizer_file(o.tokenizer);
    if (!t.ok()) return t.error();
    ck.tokenizer = std::move(t.value());
    std::printf("tokenizer: %s's (%zu tokens)\n", o.tokenizer.c_str(), ck.tokenizer.tokens.size());
  } else {
    std::printf("training BPE tokenizer, vocab %d ...\n", o.vocab);
    std::fflush(stdout);
    auto bpe = train_bpe(c.joined, o.vocab);
    if (!bpe.ok()) return bpe.error();
    ck.tokenizer = std::move(bpe.value());
  }
  return add_chat_tokens(o, ck);
}

// The run's plan in the checkpoint: a new run's model, state and info (the command, the corpus,
// the chat template); a resumed run takes this machine's threads and a new --steps.
Status plan_run(const Options& o, const TrainConfig& cfg, bool steps_given, const Corpus& c,
                const Tokenizer& tok, const std::string& command, Checkpoint& ck) {
  if (o.resume) {
    ck.config.n_threads = cfg.n_threads;  // the machine may differ
    // --steps on resume re-plans the end of the run (the cosine continues to the new total).
    if (steps_given) ck.config.steps = cfg.steps;
    return ok_status();
  }
  ck.config = cfg;
  ck.config.model.vocab_size = tok.vocab_size();
  ck.config.model.n_kv_heads = cfg.model.n_heads;
  ck.config.model.name = o.name.empty() ? "tokenscope-model" : o.name;
  ck.config.seq_len = cfg.model.n_ctx;
  ck.state = init_train_state(ck.config);
  ck.info = corpus_info(o.corpus);
  ck.info["command"] = command;
  ck.info["description"] = c.description;
  if (!o.chat_template.empty()) {  // kept in the checkpoint's info; export_gguf stores it
    Result<std::string> text =
        read_regular_file(o.chat_template, uint64_t{1} << 20, "chat template");
    if (!text.ok()) return make_error("--chat-template: " + text.error().message);
    ck.info["chat_template"] = text.value();
  }
  return ok_status();
}

// Trains with a progress line, a checkpoint (and one sample) every few minutes and on Ctrl-C;
// at the end, samples and the GGUF. Returns the exit code.
int run_training(const Options& o, Checkpoint& ck, const Tokenizer& tok, const TokenStreams& data,
                 const std::vector<std::string>& prompts, double uni) {
  std::signal(SIGINT, on_sigint);
  TrainHooks hooks;
  hooks.stop = &g_stop;
  hooks.on_progress = [&](const TrainProgress& p) {
    if (o.stop_after > 0 && p.step >= o.stop_after) g_stop.store(true);
    if (p.step % o.log_every != 0 && !p.evaluated && p.step != p.total_steps) return;
    std::printf("step %ld/%ld | loss %.4f | val %s | lr %.2e | gnorm %.2f | %.0f tok/s | ETA %s\n", p.step,
                p.total_steps, p.train_loss, std::isnan(p.val_loss) ? "-" : std::to_string(p.val_loss).c_str(),
                p.lr, p.grad_norm, p.tokens_per_s, fmt_duration(p.eta_s).c_str());
    std::fflush(stdout);
  };
  hooks.on_checkpoint = [&](const TrainState& s) {
    ck.state = s;
    const Status st = save_checkpoint(o.ckpt, ck);
    std::printf("checkpoint %s: %s\n", o.ckpt.c_str(), st.ok() ? "saved" : st.error().message.c_str());
    if (!prompts.empty()) print_samples(ck, tok, {prompts[0]});
    std::fflush(stdout);
  };
  const bool finished = train(ck.config, data.train, data.val, ck.state, hooks);
  const Status st = save_checkpoint(o.ckpt, ck);
  if (!st.ok()) std::fprintf(stderr, "error: %s\n", st.error().message.c_str());
  if (!finished) {
    std::printf("\ninterrupted at step %ld: checkpoint saved to %s; continue with --resume\n",
                ck.state.step, o.ckpt.c_str());
    return st.ok() ? 0 : 1;
  }
  std::printf("done: %ld steps, %.0f tokens in %s; train loss %.4f, val loss %.4f, unigram %.4f\n",
              ck.state.step, ck.state.tokens_seen, fmt_duration(ck.state.seconds).c_str(),
              ck.state.last_train_loss, ck.state.last_val_loss, uni);
  print_samples(ck, tok, prompts);
  const Status ex = export_gguf(o.out, ck);
  if (!ex.ok()) return std::fprintf(stderr, "error: %s\n", ex.error().message.c_str()), 1;
  std::printf("wrote %s\n", o.out.c_str());
  return 0;
}

int fail(const Error& e) {
  std::fprintf(stderr, "error: %s\n", e.message.c_str());
  return 1;
}

}  // namespace

int train_main(int argc, char** argv) {
  CLI::App app{"Train a small Llama-style model on the CPU and write it as GGUF"};
  Options o;
  TrainConfig cfg;
  cfg.model.architecture = "llama";
  cfg.model.n_layers = 4;
  cfg.model.n_heads = 4;
  cfg.model.d_model = 128;
  cfg.model.d_ff = 384;
  cfg.model.n_ctx = 256;
  add_train_options(app, o, cfg);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (o.ckpt.empty()) o.ckpt = o.out + ".ckpt";
  std::string command = "./build/tokenscope";
  for (int i = 0; i < argc; ++i) command += std::string(" ") + argv[i];

  Checkpoint ck;
  if (o.resume || o.export_only) {
    auto r = load_checkpoint(o.ckpt);
    if (!r.ok()) return fail(r.error());
    ck = std::move(r.value());
    std::printf("loaded %s: step %ld / %ld\n", o.ckpt.c_str(), ck.state.step, ck.config.steps);
    if (o.export_only) {
      const Status s = export_gguf(o.out, ck);
      if (!s.ok()) return fail(s.error());
      std::printf("wrote %s\n", o.out.c_str());
      return 0;
    }
    o.corpus = corpus_options_from_info(ck.info, o.corpus);
  }

  // Corpus and tokenizer (on resume the corpus is rebuilt from the checkpoint's options and the
  // checkpoint's tokenizer is reused).
  std::printf("building corpus: %s\n", o.corpus.source.c_str());
  std::fflush(stdout);
  auto corpus = load_corpus(o.corpus);
  if (!corpus.ok()) return fail(corpus.error());
  const Corpus& c = corpus.value();
  std::printf("corpus: %zu documents, %.1f MB\n", c.docs.size(),
              static_cast<double>(c.bytes) / 1e6);
  if (const Status t = make_tokenizer(o, c, ck); !t.ok()) return fail(t.error());
  auto tok_r = Tokenizer::create(ck.tokenizer);
  if (!tok_r.ok()) return fail(tok_r.error());
  const Tokenizer& tok = tok_r.value();
  std::printf("tokenizing (vocab %d) ...\n", tok.vocab_size());
  std::fflush(stdout);
  const TokenStreams data =
      tokenize_documents(tok, c.docs, o.corpus.val_fraction, document_start(tok), cfg.n_threads);
  const double uni = unigram_loss(data.train, data.val, tok.vocab_size());
  std::printf(
      "tokens: %zu train, %zu validation (%.2f bytes/token); unigram baseline loss %.4f\n",
      data.train.size(), data.val.size(),
      static_cast<double>(c.bytes) / static_cast<double>(data.train.size() + data.val.size()), uni);

  if (const Status p = plan_run(o, cfg, app.count("--steps") > 0, c, tok, command, ck); !p.ok())
    return fail(p.error());
  ck.info["unigram_val_loss"] = std::to_string(uni);
  ck.info["train_tokens"] = std::to_string(data.train.size());
  ck.info["val_tokens"] = std::to_string(data.val.size());
  std::printf("model: %d layers, %d heads, d_model %d, d_ff %d, vocab %d, ctx %d: %zu parameters\n",
              ck.config.model.n_layers, ck.config.model.n_heads, ck.config.model.d_model,
              ck.config.model.d_ff, ck.config.model.vocab_size, ck.config.model.n_ctx,
              ck.state.layout.total);
  std::printf("training %ld steps x %d x %d tokens on %d threads; Ctrl-C saves a checkpoint\n",
              ck.config.steps, ck.config.batch, ck.config.seq_len, ck.config.n_threads);
  std::fflush(stdout);
  return run_training(o, ck, tok, data, sample_prompts(c, 3), uni);
}

}  // namespace ts
