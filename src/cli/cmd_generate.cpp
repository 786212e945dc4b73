// `tokenscope generate`: runs the session's loop and prints the text as it comes; --top N
// prints each step's top-N model probabilities; --lanes compares samplers (each lane's text and
// the first step where they diverge); --ablate switches components off from a step on
// (--compare: beside the run without it). Only drives the Session; no sampling logic here.
#include <cstdio>

#include "cli/cli_commands.h"
#include "cli/cli_common.h"
#include "session/intervention_compare.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts::cli {

namespace {

std::string prompt_shown(const Session& s) {
  std::string text;
  for (const PathToken& t : path_tokens(s, 0)) {
    if (t.is_prompt && !s.tokenizer().is_special(t.id)) text += t.piece;
  }
  return terminal_safe(text);
}

void print_top(std::ostream& out, const Session& s, int lane, int top) {
  const Step* st = current_step(s, lane);
  if (!st) return;
  char buf[96];
  std::snprintf(buf, sizeof buf, "step %d (%s, position %d) -> ", st->index,
                st->index == 0 ? "prefill" : "decode", st->position);
  out << buf;
  if (lane_count(s) > 1) out << "[" << terminal_safe(settings(s, lane).label) << "] ";
  const std::string rank = st->chosen_rank >= 0 ? std::to_string(st->chosen_rank + 1) : "?";
  std::snprintf(buf, sizeof buf, "  p=%.4f rank %s after the sampler%s", st->chosen_p,
                rank.c_str(), st->forced ? " (forced)" : "");  // rank 1 = the most probable
  out << quoted(st->display) << buf << "\n    model:";
  int n = 0;
  for (const Candidate& c : st->sampling.raw) {
    if (n++ >= top) break;
    std::snprintf(buf, sizeof buf, " %.4f", c.p);
    out << " " << (c.id == st->token ? "*" : "") << quoted(s.tokenizer().display_piece(c.id))
        << buf;
  }
  out << "\n";
}

// --compare: the lane's run without the intervention too (the sibling of the fork step, run to
// its own end), then both distributions at the fork (KL) and where the texts part.
int print_comparison(std::ostream& out, std::ostream& err, Session& s, const GenOptions& g) {
  const Timeline& t = timeline(s, 0);
  if (path_length(s, 0) <= g.ablate_step) {
    return fail(err, "generate",
                "--compare: the run stopped before step " + std::to_string(g.ablate_step) +
                    ", where --ablate applies");
  }
  const int fork = t.path()[g.ablate_step];
  Result<InterventionComparison> c = compare_intervention(s, 0, fork);
  if (!c.ok()) return fail(err, "generate", "--compare: " + c.error().message);
  const int without = c->parent_node;
  if (Status st = s.switch_branch(without, 0); !st.ok()) {
    return fail(err, "generate", st.error().message);
  }
  while (!all_stopped(s)) {
    if (Status st = s.step(); !st.ok()) return fail(err, "generate", st.error().message);
  }
  out << "without " << describe(c->ablation.set) << ": " << prompt_shown(s)
      << terminal_safe(generated_text(s, 0, false)) << "\n";
  c = compare_intervention(s, 0, fork);
  if (!c.ok()) return fail(err, "generate", "--compare: " + c.error().message);
  char buf[160];
  std::snprintf(buf, sizeof buf, "KL(without || with) at step %d = %.4f bits; ", c->fork_step,
                c->kl_bits);
  out << buf;
  if (c->texts_part < 0) {
    out << "the texts never part\n";
  } else {
    out << "the texts part at step " << c->texts_part << "\n";
  }
  return 0;
}

}  // namespace

int cmd_generate(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Generate text from a prompt, printing it as it comes.", "tokenscope generate"};
  ModelOptions m;
  GenOptions g;
  int top = 0;
  add_model_options(app, m);
  add_generation_options(app, g, true);
  app.add_option("--top", top, "print each step's top-N probabilities (softmax of the logits)")
      ->check(CLI::Range(1, 64));
  bool compare = false;
  app.add_flag("--compare", compare,
               "with --ablate: also run without it and print where the texts part and the KL "
               "divergence at --ablate-step");
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;
  if (compare && (g.ablate.empty() || !g.lanes.empty())) {
    return fail(err, "generate", "--compare needs --ablate and one lane");
  }

  Session s;
  if (Status st = setup_session(s, m, g); !st.ok()) return fail(err, "generate", st.error().message);
  if (prompt_cut(s) > 0) {
    err << "tokenscope generate: note: the prompt did not fit the context; its first "
        << prompt_cut(s) << " tokens were dropped\n";
  }
  const bool one_lane = lane_count(s) == 1;
  if (one_lane && top == 0) out << prompt_shown(s) << std::flush;
  while (!all_stopped(s)) {
    if (Status st = step_with_ablation(s, g); !st.ok()) {
      return fail(err, "generate", st.error().message);
    }
    for (int l = 0; l < lane_count(s); ++l) {
      const Step* cur = current_step(s, l);
      if (!cur || cur->index != s.cursor()) continue;  // this lane had stopped already
      if (top > 0) {
        print_top(out, s, l, top);
      } else if (one_lane) {
        out << terminal_safe(cur->piece) << std::flush;
      }
    }
  }
  if (!g.ablate.empty() && max_path_length(s) <= g.ablate_step) {
    err << "tokenscope generate: note: the run stopped before step " << g.ablate_step
        << "; --ablate changed nothing\n";
  }
  if (one_lane) {
    if (top > 0) out << prompt_shown(s) << terminal_safe(generated_text(s, 0));
    out << "\n";
    err << "[" << stop_reason_name(stop_reason(s, 0)) << " after " << path_length(s, 0)
        << " new tokens]\n";
    return compare ? print_comparison(out, err, s, g) : 0;
  }
  for (int l = 0; l < lane_count(s); ++l) {
    out << "[" << terminal_safe(settings(s, l).label) << "] " << prompt_shown(s)
        << terminal_safe(generated_text(s, l)) << "\n    (" << stop_reason_name(stop_reason(s, l))
        << " after " << path_length(s, l) << " new tokens)\n";
  }
  const int d = first_divergence(s);
  if (d < 0) {
    out << "the lanes agree on every step they share\n";
  } else {
    out << "first divergence: step " << d << " (position " << prompt_tokens(s).size() + d << "):";
    for (int l = 0; l < lane_count(s); ++l) {
      const Step* st = step_at(s, l, d);
      if (st) out << " [" << terminal_safe(settings(s, l).label) << "] " << quoted(st->display);
    }
    out << "\n";
  }
  return 0;
}

}  // namespace ts::cli
