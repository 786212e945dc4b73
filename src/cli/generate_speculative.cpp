// `tokenscope generate --draft FILE --speculative K [--show]`: speculative decoding
// (decode/speculative.h) with the session's model as the target and FILE as the draft, both on
// the same number of threads. The same run also decodes plainly with the target alone
// (decode/plain_decode.h), twice each, interleaved, and reports the faster run of each: the
// speed-up is measured, not estimated. At temperature 0 it checks that both texts are the same.
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "cli/generate_modes.h"
#include "decode/plain_decode.h"
#include "decode/speculative.h"
#include "formats/model_file.h"
#include "session/session_access.h"
#include "session/side_runs.h"

namespace ts::cli {

namespace {

std::string piece(const Session& s, int id) {
  return quoted(terminal_safe(s.tokenizer().display_piece(id)));
}

void print_rounds(const Session& s, const SpecResult& r, std::ostream& out) {
  char buf[96];
  for (size_t i = 0; i < r.rounds.size(); ++i) {
    const SpecRound& rd = r.rounds[i];
    out << "round " << i + 1 << " (token " << rd.first << "): " << rd.n_accepted << "/"
        << rd.drafts.size() << " accepted\n";
    for (const SpecDraft& d : rd.drafts) {
      std::snprintf(buf, sizeof buf, "  q %.3f  p %.3f  u %.3f < min(1, p/q) %.3f: ", d.q, d.p, d.u,
                    std::min(1.0, double(d.p) / d.q));
      out << "  draft " << piece(s, d.token) << (d.tested ? buf : "  (not tested)")
          << (!d.tested    ? ""
              : d.accepted ? "accepted"
                           : "rejected")
          << "\n";
    }
    if (rd.bonus) {
      std::snprintf(buf, sizeof buf, " p %.3f (u %.3f)", rd.token_p, rd.u_token);
      out << "  bonus " << piece(s, rd.token) << buf << " from the target after the drafts\n";
    } else {
      std::snprintf(buf, sizeof buf, " %.3f (residual mass %.3f, u %.3f)", rd.token_p,
                    rd.residual_mass, rd.u_token);
      out << "  residual " << piece(s, rd.token) << buf << "\n";
    }
  }
}

double sum_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

void add_decode_mode_options(CLI::App& app, DecodeModeOptions& d) {
  auto* beam = app.add_option("--beam", d.beam,
                              "beam search with this many beams (1-8) over the raw model's "
                              "log-probabilities instead of sampling")
                   ->check(CLI::Range(1, 8));
  app.add_option("--length-penalty", d.length_penalty,
                 "beam search ranks its hypotheses by sum log p / length^A (0 = the plain sum)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 4.0))
      ->needs(beam);
  auto* draft = app.add_option("--draft", d.draft,
                               "draft model for speculative decoding (same tokenizer as --model)");
  auto* spec = app.add_option("--speculative", d.speculative,
                              "speculative decoding: tokens the draft proposes per round (1-" +
                                  std::to_string(kMaxSpeculative) + ")")
                   ->check(CLI::Range(1, kMaxSpeculative));
  spec->needs(draft);
  draft->needs(spec);
  beam->excludes(spec);
  app.add_flag("--show", d.show,
               "with --beam: print every step's beams; with --speculative: every round");
}

int generate_speculative(const Session& s, const GenOptions& g, const DecodeModeOptions& d,
                         std::ostream& out, std::ostream& err) {
  Result<std::vector<SamplerSettings>> lanes = lane_settings(g);
  if (!lanes.ok()) return fail(err, "generate", lanes.error().message);
  Result<LoadedModel> draft = load_model_file(d.draft);
  if (!draft.ok()) return fail(err, "generate", "--draft: " + draft.error().message);
  if (Status t = check_same_tokenizer(s.loaded()->tokenizer, draft->tokenizer, d.draft); !t.ok())
    return fail(err, "generate", t.error().message);
  SpecSettings ss;
  ss.k = d.speculative;
  ss.sampler = lanes.value()[0];
  ss.limits.max_tokens = g.max_tokens;
  ss.limits.eos_id = s.tokenizer().eos_id();
  ss.limits.bos_id = s.tokenizer().bos_id();
  ss.limits.n_ctx = config(s).n_ctx;
  ss.text.pieces = s.tokenizer().all_token_bytes();  // for the constraint stages
  ss.text.eos_id = s.tokenizer().eos_id();
  Forward target(s.loaded()->model, s.options().n_threads);
  Forward fd(draft->model, s.options().n_threads);
  const std::vector<int>& prompt = prompt_tokens(s);
  Result<PlainResult> plain = make_error("not run");
  Result<SpecResult> spec = make_error("not run");
  double plain_s = 1e300, spec_s = 1e300;
  for (int rep = 0; rep < 2; ++rep) {  // interleaved: both see the same machine load
    plain = plain_decode(target, prompt, ss.sampler, ss.limits, ss.text);
    if (!plain.ok()) return fail(err, "generate", plain.error().message);
    spec = speculative_decode(target, fd, prompt, ss);
    if (!spec.ok()) return fail(err, "generate", spec.error().message);
    plain_s = std::min(plain_s, plain->seconds);
    spec_s = std::min(spec_s, spec->seconds);
  }
  const SpecResult& r = spec.value();
  out << prompt_shown(s) << terminal_safe(generated_bytes(s, prompt, r.tokens)) << "\n";
  if (d.show) print_rounds(s, r, out);
  const double plain_tps = plain->tokens.size() / plain_s, spec_tps = r.tokens.size() / spec_s;
  char buf[480];
  std::snprintf(buf, sizeof buf,
                "[speculative, k %d: %s after %zu new tokens in %zu rounds; acceptance rate %.1f%% "
                "(%d of %d drafts); %.2f tokens per target pass; %.0f tokens/s against %.0f for "
                "plain decoding of the target: speed-up %.2fx (each the faster of 2 runs, %d "
                "thread%s)",
                ss.k, stop_reason_name(r.stop), r.tokens.size(), r.rounds.size(),
                100 * r.acceptance_rate(), r.accepted, r.drafted, r.tokens_per_target_pass(),
                spec_tps, plain_tps, spec_tps / plain_tps, s.options().n_threads,
                s.options().n_threads == 1 ? "" : "s");
  err << buf;
  const bool differs = greedy(ss.sampler) && plain->tokens != r.tokens;
  if (greedy(ss.sampler)) {
    err << (differs ? "; NOT the target's greedy text: a bug"
                    : "; the same text as the target's greedy decoding");
  }
  err << "] " << sum_log_prob_text(sum_of(r.raw_log_p)) << "\n";
  return differs ? 1 : 0;
}

}  // namespace ts::cli
