// `tokenscope generate --beam N [--length-penalty A] [--show]`: beam search (decode/beam_search.h)
// on the session's model and prompt; prints the best hypothesis, and with --show every step's
// beams (kept, finished, pruned, the best cut candidates).
#include <cstdio>

#include "cli/generate_modes.h"
#include "decode/beam_search.h"
#include "sampling/chain_constraints.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts::cli {

namespace {

std::string node_label(const Session& s, const BeamResult& r, int id) {
  const BeamNode& n = r.nodes[id];
  char buf[64];
  std::snprintf(buf, sizeof buf, " %.3f (sum %.3f)", n.log_p, n.sum_log_p);
  return "#" + std::to_string(id) + " " +
         quoted(terminal_safe(s.tokenizer().display_piece(n.token))) + buf;
}

void print_steps(const Session& s, const BeamResult& r, std::ostream& out) {
  for (const BeamStepRecord& st : r.steps) {
    out << "step " << st.step << " (" << st.passes << " passes, " << st.rows_copied
        << " K/V positions copied)\n";
    for (int id : st.kept) {
      out << "  kept     " << node_label(s, r, id) << " <- "
          << (r.nodes[id].parent < 0 ? std::string("prompt")
                                     : "#" + std::to_string(r.nodes[id].parent))
          << ", slot " << r.nodes[id].slot << "\n";
    }
    for (int id : st.finished) {
      char buf[48];
      std::snprintf(buf, sizeof buf, ", score %.4f", r.nodes[id].score);
      out << "  " << beam_fate_name(r.nodes[id].fate) << " " << node_label(s, r, id) << buf << "\n";
    }
    for (int id : st.pruned) out << "  pruned   " << node_label(s, r, id) << "\n";
    for (const BeamCandidate& c : st.cut) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " %.3f (sum %.3f)", c.log_p, c.sum_log_p);
      out << "  cut      " << quoted(terminal_safe(s.tokenizer().display_piece(c.token))) << buf
          << " <- " << (c.parent < 0 ? std::string("prompt") : "#" + std::to_string(c.parent))
          << "\n";
    }
  }
}

}  // namespace

int generate_beam(const Session& s, const GenOptions& g, const DecodeModeOptions& d,
                  std::ostream& out, std::ostream& err) {
  BeamSettings bs;
  bs.width = d.beam;
  bs.length_penalty = d.length_penalty;
  bs.limits.max_tokens = g.max_tokens;
  bs.limits.eos_id = s.tokenizer().eos_id();
  bs.limits.bos_id = s.tokenizer().bos_id();
  bs.limits.n_ctx = config(s).n_ctx;
  // The sampler flags' constraint stages (--one-of, --regex) hold the beams' texts too.
  Result<std::vector<SamplerSettings>> lanes = lane_settings(g);
  if (!lanes.ok()) return fail(err, "generate", lanes.error().message);
  bs.constraints = chain_constraints(lanes.value()[0].chain).automata;
  bs.text.pieces = s.tokenizer().all_token_bytes();
  bs.text.eos_id = s.tokenizer().eos_id();
  Forward fwd(s.loaded()->model, s.options().n_threads);
  Result<BeamResult> r = beam_search(fwd, prompt_tokens(s), bs);
  if (!r.ok()) return fail(err, "generate", r.error().message);
  const BeamResult& b = r.value();
  out << prompt_shown(s) << terminal_safe(generated_bytes(s, prompt_tokens(s), b.best_tokens))
      << "\n";
  if (d.show) print_steps(s, b, out);
  int hypotheses = 0, pruned = 0;
  for (const BeamNode& n : b.nodes) {
    hypotheses += n.fate == BeamFate::Finished || n.fate == BeamFate::Budget;
    pruned += n.fate == BeamFate::Pruned;
  }
  const BeamNode& best = b.nodes[b.best];
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "[beam %d, length penalty %g: %s after %d new tokens; score %.4f = %.4f / %d^%g; "
                "%d forward passes, %d %s, %d beams pruned, %ld K/V positions copied at forks, "
                "%.2f s] ",
                bs.width, bs.length_penalty, stop_reason_name(b.stop), best.step + 1, best.score,
                best.sum_log_p, best.step + 1, bs.length_penalty, b.forward_passes, hypotheses,
                hypotheses == 1 ? "hypothesis" : "hypotheses", pruned, b.rows_copied, b.seconds);
  err << buf << sum_log_prob_text(best.sum_log_p) << "\n";
  return 0;
}

std::string generated_bytes(const Session& s, const std::vector<int>& prompt,
                            const std::vector<int>& tokens) {
  std::string text;
  int prev = prompt.empty() ? -1 : prompt.back();
  for (int t : tokens) {
    text += s.tokenizer().token_bytes(t, prev);
    prev = t;
  }
  return text;
}

std::string sum_log_prob_text(double sum) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "sum log-prob %.4f", sum);
  return buf;
}

}  // namespace ts::cli
