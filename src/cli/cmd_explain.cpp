// `tokenscope explain`: why step K chose its token and not a rival (--vs PIECE or #ID): the
// token receipt (session/receipt.h) as a table (the largest parts first, the sum, the sampler's
// stages, the draw) or as JSON (--json, the trace's "receipt" object). --map instead prints
// when the model decided: each step's chosen token's logit-lens rank and probability per layer
// (session/decision_map.h). The run is made as `generate` makes it (sampler flags, --ablate).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_commands.h"
#include "cli/cli_common.h"
#include "session/command.h"
#include "session/decision_map.h"
#include "session/path_queries.h"
#include "session/receipt.h"
#include "session/session_access.h"
#include "trace/trace_json.h"

namespace ts::cli {

namespace {

std::string piece_shown(const Session& s, int id) {
  return quoted(terminal_safe(s.tokenizer().display_piece(id)));
}

std::string num_text(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// A probability: 4 decimals, or 3 significant digits below 0.001 (so small ones are not 0).
std::string prob_text(double p) { return num_text(p >= 1e-3 || p == 0 ? "%.4f" : "%.2e", p); }

// Pads to `width` columns (UTF-8 code points, not bytes), at least one space after the text.
std::string pad(std::string text, size_t width) {
  size_t cols = 0;
  for (unsigned char c : text) cols += (c & 0xC0) != 0x80;
  text.append(width > cols ? width - cols : 1, ' ');
  return text;
}

// The model's part: the difference, the largest parts, their sum.
void print_parts(std::ostream& out, const Session& s, const TokenReceipt& r, int max_parts) {
  out << "model: logit " << piece_shown(s, r.chosen.id) << num_text(" %.4f", r.chosen.logit)
      << " (p " + prob_text(r.chosen.p) + ", "
      << "rank " << r.chosen.rank + 1 << ")  vs  " << piece_shown(s, r.vs.id)
      << num_text(" %.4f", r.vs.logit) << " (p " + prob_text(r.vs.p) + ", "
      << "rank " << r.vs.rank + 1 << ")\n";
  out << "logit difference " << num_text("%.4f", r.logit_diff)
      << ", split into direct contributions (largest first):\n";
  std::vector<ReceiptPart> parts = r.parts;
  std::stable_sort(parts.begin(), parts.end(), [](const ReceiptPart& a, const ReceiptPart& b) {
    return std::abs(a.value) > std::abs(b.value);
  });
  const size_t shown_n =
      max_parts <= 0 ? parts.size() : std::min(parts.size(), static_cast<size_t>(max_parts));
  for (size_t i = 0; i < shown_n; ++i) {
    out << "  " << pad(part_name(parts[i].part), 18) << num_text("%+10.4f", parts[i].value) << "\n";
  }
  if (shown_n < parts.size()) {
    double rest = 0;
    for (size_t i = shown_n; i < parts.size(); ++i) rest += parts[i].value;
    out << "  (" << parts.size() - shown_n << " smaller parts" << num_text(" add %+.4f)", rest)
        << "\n";
  }
  out << "parts sum to " << num_text("%.4f", r.parts_sum) << " = logit difference "
      << num_text("%.4f", r.logit_diff);
  if (std::abs(r.recorded_diff - r.logit_diff) > 1e-4 * std::max(1.0, std::abs(r.logit_diff))) {
    out << " (the step recorded " << num_text("%.4f", r.recorded_diff)
        << ": its pass rounded differently, e.g. a quantized prefill)";
  }
  out << "\n";
}

std::string token_cell(const TokenAtStage& t) {
  if (!t.kept) return "cut" + num_text(" (logit %.3f)", t.logit);
  return num_text("logit %8.3f", t.logit) + "  p " + prob_text(t.p);
}

void print_sampler(std::ostream& out, const Session& s, const TokenReceipt& r) {
  out << "sampler, stage by stage:\n";
  out << pad("  stage", 36) << pad(piece_shown(s, r.chosen.id), 32) << piece_shown(s, r.vs.id)
      << "\n";
  auto row = [&](const std::string& name, const TokenAtStage& a, const TokenAtStage& b) {
    out << pad("  " + name, 36) << pad(token_cell(a), 32) << token_cell(b) << "\n";
  };
  row("raw", {r.chosen.logit, r.chosen.p, true}, {r.vs.logit, r.vs.p, true});
  for (const ReceiptStage& st : r.stages) {
    row(st.name + " (" + std::to_string(st.n_kept) + " kept)", st.chosen, st.vs);
  }
}

void print_draw(std::ostream& out, const Session& s, const TokenReceipt& r) {
  auto strip_text = [&](int id, const StripSpan& sp) {
    if (!sp.on_strip) return piece_shown(s, id) + " was not on the strip";
    return piece_shown(s, id) + " owned [" + num_text("%.6f", sp.lo) + ", " +
           num_text("%.6f", sp.hi) + ")";
  };
  if (r.draw.greedy) {
    out << "draw: greedy (rank 1 taken, u not used): ";
  } else {
    out << "draw: u = " << num_text("%.6f", r.draw.u) << " on the strip: ";
  }
  out << strip_text(r.chosen.id, r.draw.chosen) << "; " << strip_text(r.vs.id, r.draw.vs) << "\n";
  if (r.forced) {
    out << "the draw picked " << piece_shown(s, r.draw.sampled) << "; "
        << piece_shown(s, r.chosen.id) << " was forced in its place\n";
  } else if (!r.draw.greedy) {
    out << "u fell in " << piece_shown(s, r.chosen.id) << "'s interval\n";
  }
}

// --map: rank (1 = top) and probability per layer (rows, the last layer on top) and step
// (columns, 16 to a block), * from the layer where the token stays on top.
int print_map(std::ostream& out, std::ostream& err, const Session& s, bool json) {
  Result<DecisionMap> m = decision_map(s, 0);
  if (!m.ok()) return fail(err, "explain", m.error().message);
  if (json) {
    nlohmann::json j = {{"lane", 0}, {"n_layers", m->n_layers}, {"steps", nlohmann::json::array()}};
    for (int k = 0; k < m->n_steps(); ++k) {
      nlohmann::json p = nlohmann::json::array(), rank = nlohmann::json::array();
      for (int l = 0; l < m->n_layers; ++l) {
        p.push_back(m->at(k, l).p);
        rank.push_back(m->at(k, l).rank);
      }
      j["steps"].push_back({{"step", m->first_step + k},
                            {"token", m->tokens[k]},
                            {"piece", s.tokenizer().display_piece(m->tokens[k])},
                            {"p", p},
                            {"rank", rank},
                            {"decided_at", m->decided_at[k]}});
    }
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  out << "when did the model decide? the rank (1 = top) and probability of each step's chosen "
         "token through each layer's logit lens; * = on top from that layer to the last\n";
  constexpr int kPerBlock = 16;  // steps per block of columns
  for (int k0 = 0; k0 < m->n_steps(); k0 += kPerBlock) {
    const int k1 = std::min(m->n_steps(), k0 + kPerBlock);
    out << "\nstep    ";
    for (int k = k0; k < k1; ++k) out << num_text("%10.0f", m->first_step + k);
    out << "\n";
    for (int l = m->n_layers - 1; l >= 0; --l) {
      out << pad("L" + std::to_string(l), 8);
      for (int k = k0; k < k1; ++k) {
        const LensCell& c = m->at(k, l);
        const bool on_top = m->decided_at[k] >= 0 && l >= m->decided_at[k];
        const std::string cell =
            std::to_string(c.rank + 1) + (on_top ? "*" : " ") + num_text("%3.0f%%", 100.0 * c.p);
        out << std::string(cell.size() < 10 ? 10 - cell.size() : 1, ' ') << cell;
      }
      out << "\n";
    }
  }
  out << "\nchosen:";
  for (int k = 0; k < m->n_steps(); ++k) {
    out << " " << m->first_step + k << "=" << piece_shown(s, m->tokens[k]);
  }
  out << "\n";
  return 0;
}

}  // namespace

int cmd_explain(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Why did step K choose its token and not another? (a token receipt)",
               "tokenscope explain"};
  ModelOptions m;
  GenOptions g;
  int step = -1, max_parts = 20;
  std::string vs;
  bool json = false, map = false;
  add_model_options(app, m);
  add_generation_options(app, g, false);
  app.add_option("--step", step, "the step to explain (0 = the prefill's choice)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--vs", vs, "the rival token: its exact piece (as force takes it), or #ID");
  app.add_option("--parts", max_parts, "parts listed in the table (0 = all)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--json", json, "print the receipt as JSON (the trace's receipt object)");
  app.add_flag("--map", map,
               "instead: when did the model decide? the whole run's logit-lens rank of each "
               "chosen token, per layer");
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;
  if (!map && (step < 0 || vs.empty()))
    return fail(err, "explain", "needs --step K and --vs PIECE (or --map)");
  if (!map) g.max_tokens = std::max(g.max_tokens, step + 1);

  Session s;
  if (Status st = setup_session(s, m, g); !st.ok()) return fail(err, "explain", st.error().message);
  int vs_id = -1;
  if (!map) {
    Result<int> id = token_for_piece(s, vs);
    if (!id.ok()) return fail(err, "explain", "--vs: " + id.error().message);
    vs_id = id.value();
  }
  while (!all_stopped(s) && (map || s.cursor() < step)) {
    if (Status st = step_with_ablation(s, g); !st.ok())
      return fail(err, "explain", st.error().message);
  }
  if (map) return print_map(out, err, s, json);
  if (path_length(s, 0) <= step) {
    return fail(err, "explain",
                "the run stopped at step " + std::to_string(path_length(s, 0) - 1) + " (" +
                    stop_reason_name(stop_reason(s, 0)) + "), before step " + std::to_string(step));
  }
  Result<TokenReceipt> r = token_receipt(s, 0, step, vs_id);
  if (!r.ok()) return fail(err, "explain", r.error().message);
  if (json) {
    out << receipt_to_json(r.value());
    return 0;
  }
  const Step& st = *step_at(s, 0, step);
  out << "step " << step << " (" << (step == 0 ? "prefill" : "decode") << ", position "
      << st.position << ") chose " << piece_shown(s, st.token) << " (#" << st.token << ")"
      << (st.forced ? ", forced," : "") << "; the rival is " << piece_shown(s, vs_id) << " (#"
      << vs_id << ")";
  if (!st.ablation.empty()) out << "; this pass ran with " << describe(st.ablation.set);
  out << "\n";
  print_parts(out, s, r.value(), max_parts);
  print_sampler(out, s, r.value());
  print_draw(out, s, r.value());
  return 0;
}

}  // namespace ts::cli
