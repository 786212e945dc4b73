// The beam search tree (decoding_views.h): the summary against greedy, then one row per
// generated token with that step's beams side by side and a line from each to its parent.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/panels/decoding_views.h"
#include "app/panels/panels.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/session.h"

namespace ts::decoding {

namespace {

std::string text_of(const Session& s, const std::vector<int>& tokens) {
  std::string t = s.tokenizer().decode(tokens);
  for (char& c : t)
    if (c == '\n') c = ' ';
  return t;
}

double sum_of(const BeamResult& r) { return r.best >= 0 ? r.nodes[r.best].sum_log_p : 0.0; }

// The nodes on the best hypothesis' path.
std::vector<bool> best_path(const BeamResult& r) {
  std::vector<bool> on(r.nodes.size(), false);
  for (int n = r.best; n >= 0; n = r.nodes[n].parent) on[n] = true;
  return on;
}

const char* state_of(const BeamNode& n, bool best) {
  if (best) return "best";
  switch (n.fate) {
    case BeamFate::Pruned: return "pruned";
    case BeamFate::Finished:
    case BeamFate::Budget: return "finished";
    case BeamFate::Extended: break;
  }
  return "kept";
}

void summary(const Session& s, const BeamRun& run, const PanelEnv& env) {
  const BeamResult& b = run.result;
  const BeamResult& g = run.greedy;
  char buf[160];
  std::snprintf(buf, sizeof buf, "beam %d: Σ log p %.2f", run.settings.width, sum_of(b));
  fit_text(env.log, std::string(buf) + "  \"" + text_of(s, b.best_tokens) + "\"",
           ImGui::GetContentRegionAvail().x);
  if (!run.constraint.empty()) {
    fit_text(env.log, "both kept to " + run.constraint, ImGui::GetContentRegionAvail().x);
    note_last_item(env.log, "beam_constraint", run.constraint);
  }
  std::snprintf(buf, sizeof buf, "greedy: Σ log p %.2f", sum_of(g));
  fit_text(env.log, std::string(buf) + "  \"" + text_of(s, g.best_tokens) + "\"",
           ImGui::GetContentRegionAvail().x);
  int pruned = 0;
  for (const BeamNode& n : b.nodes) pruned += n.fate == BeamFate::Pruned;
  const double d = sum_of(b) - sum_of(g);
  if (b.best_tokens == g.best_tokens)
    std::snprintf(buf, sizeof buf, "The same text as greedy; %d pruned.", pruned);
  else if (d > 0)
    std::snprintf(buf, sizeof buf, "Beam's text: e^%.2f = %.3gx as probable; %d pruned.", d,
                  std::exp(d), pruned);
  else
    std::snprintf(buf, sizeof buf, "Greedy's text is more probable; %d pruned.", pruned);
  wrapped_text(env.log, buf);
  const ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
  env.log.note_drawn("beam_summary", d > 0 ? "beam better" : "same or worse", a.x, a.y, z.x - a.x,
                     z.y - a.y);
}

}  // namespace

void draw_beam_tree(const Session& s, const BeamRun& run, const PanelEnv& env, const Palette& pal) {
  summary(s, run, env);
  const BeamResult& b = run.result;
  int steps = 0;
  for (const BeamNode& n : b.nodes) steps = std::max(steps, n.step + 1);
  if (steps == 0) return;
  // Per step, its nodes best first (by sum, as the search ranked them).
  std::vector<std::vector<int>> rows(steps);
  for (int i = 0; i < static_cast<int>(b.nodes.size()); ++i) rows[b.nodes[i].step].push_back(i);
  size_t widest = 1;
  for (auto& r : rows) {
    std::sort(r.begin(), r.end(), [&](int x, int y) { return b.nodes[x].rank < b.nodes[y].rank; });
    widest = std::max(widest, r.size());
  }
  const std::vector<bool> on_best = best_path(b);
  ImFont* mono = app_font(FontRole::Mono);
  const float fs = mono->FontSize;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float row_h = std::clamp(avail.y / steps, fs * 1.3f, fs * 2.0f);
  const float col_w = avail.x / static_cast<float>(widest);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(avail.x, row_h * steps));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  std::vector<ImVec2> lo(b.nodes.size()), hi(b.nodes.size());
  for (int st = 0; st < steps; ++st)
    for (size_t k = 0; k < rows[st].size(); ++k) {
      const int id = rows[st][k];
      lo[id] = ImVec2(o.x + col_w * k + fs * 0.2f, o.y + row_h * st + fs * 0.1f);
      hi[id] = ImVec2(o.x + col_w * (k + 1) - fs * 0.2f, lo[id].y + fs * 1.1f);
    }
  // Each node to its parent first, so the boxes sit on the lines; the best path on top.
  for (int pass = 0; pass < 2; ++pass)
    for (int id = 0; id < static_cast<int>(b.nodes.size()); ++id) {
      const int p = b.nodes[id].parent;
      if (p < 0) continue;
      const bool best = on_best[id] && on_best[p];
      if (best != (pass == 1)) continue;
      dl->AddLine(ImVec2((lo[p].x + hi[p].x) * 0.5f, hi[p].y),
                  ImVec2((lo[id].x + hi[id].x) * 0.5f, lo[id].y), best ? pal.accent : pal.text_dim,
                  pal.line_thickness * (best ? 2.5f : 1.0f));
    }
  for (int id = 0; id < static_cast<int>(b.nodes.size()); ++id) {
    const BeamNode& n = b.nodes[id];
    const bool best = on_best[id];
    const bool pruned = n.fate == BeamFate::Pruned;
    const ImU32 fill = best ? pal.accent : pruned ? pal.bar_cut : pal.generated_chip;
    dl->AddRectFilled(lo[id], hi[id], fill, fs * 0.2f);
    if (n.fate == BeamFate::Finished || n.fate == BeamFate::Budget)
      dl->AddRect(lo[id], hi[id], pal.text, fs * 0.2f, 0, pal.line_thickness * 1.5f);
    char sum[24];
    std::snprintf(sum, sizeof sum, " %.1f", n.sum_log_p);
    const std::string piece = s.tokenizer().display_piece(n.token);
    const std::string label = piece + sum;
    dl->PushClipRect(lo[id], hi[id], true);
    dl->AddText(mono, fs, ImVec2(lo[id].x + fs * 0.2f, lo[id].y + fs * 0.05f),
                best ? pal.window_bg : pruned ? pal.text_dim : pal.chip_text, label.c_str());
    dl->PopClipRect();
    env.log.note_drawn("beam_node", state_of(n, best), lo[id].x, lo[id].y, hi[id].x - lo[id].x,
                       hi[id].y - lo[id].y, piece);
  }
}

}  // namespace ts::decoding
