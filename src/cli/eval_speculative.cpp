// Speculative decoding over a prompt file (eval_speculative.h). Every prompt runs plain
// decoding of the target and speculative decoding twice each, interleaved, and keeps the faster
// time of each, so both see the same machine load; rates are summed over the prompts.
#include "cli/eval_speculative.h"

#include <algorithm>
#include <cstdio>

#include "cli/cli_common.h"
#include "decode/plain_decode.h"
#include "decode/speculative.h"
#include "formats/model_file.h"
#include "session/session_access.h"

namespace ts::cli {

namespace {

struct Totals {
  long tokens = 0, plain_tokens = 0, drafted = 0, accepted = 0, tested = 0, target_passes = 0,
       draft_passes = 0, plain_passes = 0;
  double spec_s = 0, plain_s = 0, draft_s = 0, verify_s = 0;
  int same = 0, prompts = 0;
};

Status run_prompt(Forward& target, Forward& draft, const std::vector<int>& prompt,
                  const SpecSettings& ss, Totals& t) {
  double plain_s = 1e300, spec_s = 1e300;
  Result<PlainResult> plain = make_error("not run");
  Result<SpecResult> spec = make_error("not run");
  for (int rep = 0; rep < 2; ++rep) {
    plain = plain_decode(target, prompt, ss.sampler, ss.limits, ss.text);
    if (!plain.ok()) return plain.error();
    spec = speculative_decode(target, draft, prompt, ss);
    if (!spec.ok()) return spec.error();
    plain_s = std::min(plain_s, plain->seconds);
    spec_s = std::min(spec_s, spec->seconds);
  }
  t.tokens += static_cast<long>(spec->tokens.size());
  t.plain_tokens += static_cast<long>(plain->tokens.size());
  t.drafted += spec->drafted;
  t.accepted += spec->accepted;
  t.tested += spec->tested;
  t.target_passes += spec->target_passes;
  t.draft_passes += spec->draft_passes;
  t.plain_passes += plain->passes - 1;  // decode steps (the prefill excluded)
  t.spec_s += spec_s;
  t.plain_s += plain_s;
  for (const SpecRound& r : spec->rounds) {
    t.draft_s += r.draft_seconds;
    t.verify_s += r.target_seconds;
  }
  t.same += plain->tokens == spec->tokens;
  ++t.prompts;
  return ok_status();
}

void print_row(std::ostream& out, const char* mode, int k, const Totals& t, bool greedy) {
  const double plain_tps = t.plain_tokens / t.plain_s, spec_tps = t.tokens / t.spec_s;
  const double step_s = t.plain_s / std::max(1L, t.plain_passes + t.prompts);  // per pass
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-14s %3d %9.1f%% %8.1f%% %9.2f %11.2f %12.2f %8.0f %8.0f %9.2fx",
                mode, k, 100.0 * t.accepted / std::max(1L, t.drafted),
                100.0 * t.accepted / std::max(1L, t.tested),
                double(t.tokens) / std::max(1L, t.target_passes),
                t.draft_s / std::max(1L, t.draft_passes) / step_s,
                t.verify_s / std::max(1L, t.target_passes) / step_s, plain_tps, spec_tps,
                spec_tps / plain_tps);
  out << buf;
  if (greedy) out << "  " << t.same << "/" << t.prompts;
  out << "\n";
}

}  // namespace

void add_spec_eval_options(CLI::App& app, SpecEvalOptions& o) {
  auto* draft =
      app.add_option("--draft", o.draft,
                     "measure speculative decoding with this draft model instead (same "
                     "tokenizer as --model): acceptance, tokens per target pass, speed-up");
  auto* ks = app.add_option("--speculative", o.ks, "with --draft: tokens drafted per round")
                 ->delimiter(',')
                 ->check(CLI::Range(1, kMaxSpeculative));
  draft->needs(ks);
  ks->needs(draft);
}

int eval_speculative(const ModelOptions& m, const std::vector<std::string>& prompts,
                     const SpecEvalOptions& o, std::ostream& out, std::ostream& err) {
  Session s;
  Result<std::string> model_path = resolve_model_path(m);
  if (!model_path.ok()) return fail(err, "eval", model_path.error().message);
  if (Status st = s.load_model(model_path.value(), m.tokenizer); !st.ok()) {
    return fail(err, "eval", st.error().message);
  }
  Result<LoadedModel> draft = load_model_file(o.draft);
  if (!draft.ok()) return fail(err, "eval", "--draft: " + draft.error().message);
  const TokenizerData& a = s.loaded()->tokenizer;
  if (a.tokens != draft->tokenizer.tokens || a.merges != draft->tokenizer.merges) {
    return fail(err, "eval", "the draft " + o.draft + " has another tokenizer than the target");
  }
  Forward ft(s.loaded()->model, s.options().n_threads), fd(draft->model, s.options().n_threads);
  char head[320];
  std::snprintf(head, sizeof head,
                "speculative decoding: %zu prompts x %d new tokens, %d thread%s; draft %s\n",
                prompts.size(), o.tokens, s.options().n_threads,
                s.options().n_threads == 1 ? "" : "s", o.draft.c_str());
  out << head
      << "(accepted: of the drafts; passed: of the tests made (drafts after a rejection are not "
         "tested); draft pass and\n verify pass in target decode steps; each prompt the faster "
         "of 2 interleaved runs)\n"
      << "mode             k  accepted    passed  tok/pass  draft pass  verify pass  plain/s  "
         "  spec/s   speed-up  same text\n";
  for (int k : o.ks) {
    for (int mode = 0; mode < 2; ++mode) {
      Totals t;
      for (size_t i = 0; i < prompts.size(); ++i) {
        if (Status st = s.set_prompt(prompts[i]); !st.ok())
          return fail(err, "eval", st.error().message);
        SpecSettings ss;
        ss.k = k;
        stage<Temperature>(ss.sampler).t = mode == 0 ? 0.0f : 1.0f;
        ss.sampler.seed = o.seed + i;
        ss.record_top = 0;
        ss.limits.max_tokens = o.tokens;
        ss.limits.eos_id = s.tokenizer().eos_id();
        ss.limits.bos_id = s.tokenizer().bos_id();
        ss.limits.n_ctx = config(s).n_ctx;
        if (Status st = run_prompt(ft, fd, prompt_tokens(s), ss, t); !st.ok())
          return fail(err, "eval", st.error().message);
      }
      print_row(out, mode == 0 ? "greedy (T=0)" : "sampled (T=1)", k, t, mode == 0);
    }
  }
  return 0;
}

}  // namespace ts::cli
