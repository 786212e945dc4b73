// Speculative decoding's rounds (decoding_views.h): the totals, then one row per round: the
// drafts with q(x) and p(x) and their tests, then the target's own token.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/panels/decoding_views.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/session.h"

namespace ts::decoding {

namespace {

void totals(const SpecRun& run, const PanelEnv& env) {
  const SpecResult& r = run.result;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "draft %s, k %d: %d of %d drafts accepted (%.0f%%), %.2f tokens per target pass.",
                run.draft_name.c_str(), run.settings.k, r.accepted, r.drafted,
                100 * r.acceptance_rate(), r.tokens_per_target_pass());
  wrapped_text(env.log, buf);
  const double spec_tps = run.spec_seconds > 0 ? r.tokens.size() / run.spec_seconds : 0;
  const double plain_tps =
      run.plain_seconds > 0 ? run.plain_tokens.size() / run.plain_seconds : 0;
  std::snprintf(buf, sizeof buf, "Measured: %.0f tokens/s, plain decoding %.0f: %.2fx.", spec_tps,
                plain_tps, plain_tps > 0 ? spec_tps / plain_tps : 0.0);
  wrapped_text(env.log, buf);
  const ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
  env.log.note_drawn("spec_summary", spec_tps > plain_tps ? "faster" : "not faster", a.x, a.y,
                     z.x - a.x, z.y - a.y);
  if (run.greedy)
    wrapped_text(env.log, run.plain_tokens == r.tokens
                              ? "Greedy: the very text the target writes alone."
                              : "Greedy, yet not the target's own text: a bug.");
}

// A probability without its leading zero: "q.66"; "q1" from 0.995 up.
std::string short_prob(const char* name, double x) {
  char buf[16];
  std::snprintf(buf, sizeof buf, x >= 0.995 ? "%s1" : "%s%.2f", name, x);
  std::string t = buf;
  if (const size_t z = t.find("0."); z == std::string(name).size()) t.erase(z, 1);
  return t;
}

// One chip of two lines: the piece, and under it `numbers`; its edge in the
// test's colour. Returns its height.
float chip(ImDrawList* dl, ImFont* mono, ImVec2 at, float w, const std::string& piece,
           const std::string& numbers, ImU32 fill, ImU32 edge, float edge_w, ImU32 text) {
  const float fs = mono->FontSize, small = fs;  // the numbers as big as the piece: a projector
  const ImVec2 hi(at.x + w, at.y + fs * 1.1f + small);
  dl->AddRectFilled(at, hi, fill, fs * 0.2f);
  dl->AddRect(at, hi, edge, fs * 0.2f, 0, edge_w);
  dl->PushClipRect(at, hi, true);
  dl->AddText(mono, fs, ImVec2(at.x + fs * 0.25f, at.y + fs * 0.05f), text, piece.c_str());
  dl->AddText(mono, small, ImVec2(at.x + fs * 0.25f, at.y + fs * 1.0f), text, numbers.c_str());
  dl->PopClipRect();
  return hi.y - at.y;
}

}  // namespace

void draw_spec_rounds(const Session& s, const SpecRun& run, const PanelEnv& env,
                      const Palette& pal) {
  totals(run, env);
  ImFont* mono = app_font(FontRole::Mono);
  const float fs = mono->FontSize;
  const float chip_h = fs * 2.1f, row_h = chip_h + fs * 0.25f;
  const float width = ImGui::GetContentRegionAvail().x;
  const SpecResult& r = run.result;
  const float room = ImGui::GetContentRegionAvail().y;
  int n = std::min<int>(std::max(1, static_cast<int>(room / row_h)), r.rounds.size());
  if (n < static_cast<int>(r.rounds.size()))  // leave a line for "(N more rounds)"
    n = std::max(1, static_cast<int>((room - ImGui::GetTextLineHeightWithSpacing()) / row_h));
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, row_h * n));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Tokenizer& tk = s.tokenizer();
  // Each draft's chip gets an equal share of the row; the target's token one more.
  const float slot = width / static_cast<float>(run.settings.k + 1);
  const float w = slot - fs * 0.25f;
  const float thick = pal.line_thickness * 1.5f;
  for (int i = 0; i < n; ++i) {
    const SpecRound& rd = r.rounds[i];
    const float y = o.y + row_h * i;
    for (size_t j = 0; j < rd.drafts.size(); ++j) {
      const SpecDraft& d = rd.drafts[j];
      const float x = o.x + slot * j;
      const char* state = d.accepted ? "accepted" : d.tested ? "rejected" : "untested";
      const ImU32 edge = d.accepted ? pal.ok : d.tested ? pal.error : pal.grid;
      chip(dl, mono, ImVec2(x, y), w, tk.display_piece(d.token),
           short_prob("q", d.q) + " " + short_prob("p", d.p),
           d.accepted ? pal.generated_chip : pal.window_bg, edge,
           d.tested && !d.accepted ? thick * 2.0f : thick, d.tested ? pal.chip_text : pal.text_dim);
      env.log.note_drawn("spec_draft", state, x, y, w, chip_h, tk.display_piece(d.token));
    }
    const float x = o.x + slot * run.settings.k;
    chip(dl, mono, ImVec2(x, y), w, tk.display_piece(rd.token),
         short_prob(rd.bonus ? "bonus " : "resid. ", rd.token_p), pal.accent, pal.accent, thick,
         pal.window_bg);
    env.log.note_drawn("spec_token", rd.bonus ? "bonus" : "residual", x, y, w, chip_h,
                       tk.display_piece(rd.token));
  }
  if (n < static_cast<int>(r.rounds.size())) {
    char more[64];
    std::snprintf(more, sizeof more, "(%d more rounds)", static_cast<int>(r.rounds.size()) - n);
    ImGui::TextDisabled("%s", more);
  }
}

}  // namespace ts::decoding
