// Model panel: the loaded model's card (architecture, sizes, parameter count split by part,
// memory, tokenizer) and the logit lens of the selected position: what each layer's residual
// stream would predict if the model stopped there, as a table of top guesses with probabilities,
// plus the residual stream's size after each sub-block. The record keeps the lens for the last
// position of each pass, so the position is mapped to the step that computed it. Reads only.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/charts.h"
#include "app/widgets/colormap.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "base/utf8.h"
#include "imgui.h"
#include "session/lens_read.h"
#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

struct ParamPart {
  const char* name;
  double count;
};

std::vector<ParamPart> parameter_parts(const Model& m) {
  const Weights& w = m.weights;
  auto n = [](const QMat& q) { return static_cast<double>(q.rows) * q.cols; };
  double embed = static_cast<double>(w.tok_embd.size() + w.pos_embd.size()) + n(w.tok_embd_q);
  double attn = 0, mlp = 0, norms = static_cast<double>(w.out_norm.size() + w.out_norm_b.size());
  for (const LayerWeights& l : w.layers) {
    attn += static_cast<double>(l.wq.size() + l.wk.size() + l.wv.size() + l.wo.size() + l.bq.size() +
                                l.bk.size() + l.bv.size() + l.bo.size()) +
            n(l.q.wq) + n(l.q.wk) + n(l.q.wv) + n(l.q.wo);
    mlp += static_cast<double>(l.w_gate.size() + l.w_up.size() + l.w_down.size() + l.b_up.size() +
                               l.b_down.size()) +
           n(l.q.w_gate) + n(l.q.w_up) + n(l.q.w_down);
    norms += static_cast<double>(l.attn_norm.size() + l.attn_norm_b.size() + l.ffn_norm.size() +
                                 l.ffn_norm_b.size());
  }
  return {{"embeddings", embed},
          {"attention", attn},
          {"MLP", mlp},
          {"norms", norms},
          {"unembedding", static_cast<double>(w.output.size()) + n(w.output_q)}};
}

void row(const char* name, const char* fmt_value, ...) IM_FMTARGS(2);
void row(const char* name, const char* fmt_value, ...) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextDisabled("%s", name);
  ImGui::TableSetColumnIndex(1);
  char value[512];  // wrapped inside the column: a long value (a block, a path) is never cut
  va_list args;
  va_start(args, fmt_value);
  std::vsnprintf(value, sizeof value, fmt_value, args);
  va_end(args);
  text_wrapped("%s", value);
}

void draw_card(const Session& s, const Palette& pal) {
  const ModelConfig& c = config(s);
  const ModelFileInfo& info = model_info(s);
  const float fs = ImGui::GetFontSize();
  if (ImGui::BeginTable("card", 2, ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("k", ImGuiTableColumnFlags_WidthFixed, fs * 7.5f);
    ImGui::TableSetupColumn("v", ImGuiTableColumnFlags_WidthStretch);
    row("name", "%s", c.name.empty() ? "(unnamed)" : display_label(c.name).c_str());
    row("architecture", "%s: %s", c.architecture.c_str(), block_summary(c).c_str());
    row("n_layers", "%d", c.n_layers);
    row("n_heads", "%d, each %d wide", c.n_heads, c.head_dim());
    if (c.n_kv_heads != c.n_heads)
      row("n_kv_heads", "%d: groups of %d query heads share one key/value head", c.n_kv_heads,
          c.group_size());
    else
      row("n_kv_heads", "%d (one key/value head per query head)", c.n_kv_heads);
    row("d_model", "%d numbers per token", c.d_model);
    row("d_ff", "%d (MLP hidden size)", c.d_ff);
    row("vocab_size", "%d tokens", c.vocab_size);
    row("n_ctx", "%d positions of context", c.n_ctx);
    row("parameters", "%s", format_si(static_cast<double>(model(s).parameter_count()), "").c_str());
    row("memory", "%s of weights (%s), read once per decode step",
        format_bytes(static_cast<double>(model(s).weight_bytes())).c_str(),
        model(s).is_quantized() ? "matrices quantized as in the file" : "fp32");
    const TokenizerData& td = s.tokenizer().data();
    row("tokenizer", "%s, %d pieces",
        td.kind == TokenizerKind::Bpe ? "byte-level BPE (GPT-2 style)" : "SentencePiece-style (scores)",
        s.tokenizer().vocab_size());
    row("file", "%s (%s, %s)", display_label(info.path).c_str(), info.format.c_str(),
        format_bytes(static_cast<double>(info.file_bytes)).c_str());
    ImGui::EndTable();
  }
  // Where the parameters are.
  const std::vector<ParamPart> parts = parameter_parts(model(s));
  double total = 0;
  for (const ParamPart& p : parts) total += p.count;
  const float label_w = fs * 7.5f;
  const float bar_w = std::max(fs * 4.0f, ImGui::GetContentRegionAvail().x - label_w - fs * 5.0f);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].count <= 0) continue;
    ImGui::PushID(static_cast<int>(i));
    draw_prob_bar_row(parts[i].name, label_w, static_cast<float>(total > 0 ? parts[i].count / total : 0),
                      bar_w, pal.bar);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s parameters", format_si(parts[i].count, "").c_str());
    ImGui::PopID();
  }
}

// A table cell tinted by probability, with readable text on top.
void prob_cell(const std::string& piece, float p, bool is_next, const HeatRamp& ramp,
               const Palette& pal) {
  const float t = std::clamp(p, 0.0f, 1.0f);
  ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ramp.color(t));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ramp.text_color(t)));
  ImGui::Text("%s %.0f%%", piece.c_str(), p * 100.0f);
  ImGui::PopStyleColor();
  if (is_next) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 2, a.y - 1), ImVec2(b.x + 2, b.y + 1), pal.accent,
                                        0.0f, 0, 2.0f);
  }
}

// While stepping into a pass: what the phase just revealed did to the last position's residual
// stream (its size before and after) and, after a layer's MLP, that layer's top guess.
void step_into_note(const Session& s, const ForwardRecord& f, const Tokenizer& tok,
                    const Palette& pal) {
  const std::vector<PhaseItem> ph = phases(s, 0);
  const int pc = s.phase_cursor();
  if (pc < 0 || pc >= static_cast<int>(ph.size())) return;
  const PhaseItem& p = ph[pc];
  const int n = static_cast<int>(f.residual_norms.size());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.accent));
  if (p.kind == PhaseKind::Embed && n > 0) {
    text_wrapped("Now: the embedding. The residual stream starts with size %.3f.",
                       f.residual_norms[0]);
  } else if ((p.kind == PhaseKind::Attention || p.kind == PhaseKind::Mlp) && p.layer >= 0) {
    const int i = 1 + 2 * p.layer + (p.kind == PhaseKind::Mlp ? 1 : 0);
    if (i < n) {
      const float before = f.residual_norms[i - 1], after = f.residual_norms[i];
      text_wrapped("Now: layer %d's %s added its output to the residual stream: size %.3f "
                         "-> %.3f (%+.3f).", p.layer,
                         p.kind == PhaseKind::Mlp ? "MLP" : "attention", before, after,
                         after - before);
    }
    const std::vector<std::vector<TokenScore>>& lens = logit_lens(s, f);  // on first read
    if (p.kind == PhaseKind::Mlp && p.layer < static_cast<int>(lens.size()) &&
        !lens[p.layer].empty()) {
      const TokenScore& top = lens[p.layer].front();
      text_wrapped("If the model stopped after layer %d it would guess %s (%.1f%%).",
                         p.layer, tok.display_piece(top.id).c_str(), 100.0 * top.p);
    }
  } else {
    text_wrapped("Now: %s. Every layer's guess is in.", p.label.c_str());
  }
  ImGui::PopStyleColor();
}

// The step whose pass computed `pos` on the shown path (null: not computed yet).
const Step* pass_owner(const Session& s, int lane, const Step& cur, int pos) {
  for (int k = 0; k <= cur.index; ++k) {
    const Step* st = step_at(s, lane, k);
    if (st && st->forward && pos >= st->forward->first_pos &&
        pos < st->forward->first_pos + st->forward->n_positions)
      return st;
  }
  return nullptr;
}

// What the lens draws from: the pass that computed the position and how to colour its cells.
struct LensView {
  const Session& s;
  const PanelEnv& env;
  const Palette& pal;
  const ForwardRecord& f;
  const HeatRamp& ramp;
  const Tokenizer& tok;
  int pos = -1;
  int next_id = -1;   // the token that came next (outlined); -1: not drawn yet
  bool into = false;  // stepping into this pass: later layers are not computed yet
};

// Where the lens has no rows (a position before the pass's last, or the lens not recorded):
// the final layer's guesses, as the record keeps them for every position.
void draw_final_only(const LensView& v, int last) {
  if (v.pos != last)
    text_wrapped(
        "The lens is recorded for the last position of each pass (here %d). For "
        "this position the record keeps only the final layer's guesses:",
        last);
  else
    text_wrapped(
        "The logit lens is recorded at record level \"full\" (now \"%s\"). The "
        "final guesses:",
        record_level_name(record_level(v.s)));
  const int r = v.pos - v.f.first_pos;
  if (r < 0 || r >= static_cast<int>(v.f.position_top.size())) return;
  const std::vector<TokenScore>& top = v.f.position_top[r];
  if (!ImGui::BeginTable("final", static_cast<int>(top.size()) + 1,
                         ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted("output");
  for (size_t i = 0; i < top.size(); ++i) {
    ImGui::TableSetColumnIndex(static_cast<int>(i) + 1);
    prob_cell(v.tok.display_piece(top[i].id), top[i].p, top[i].id == v.next_id, v.ramp, v.pal);
  }
  ImGui::EndTable();
}

// One layer's row of guesses, each cell tinted by its probability, hover names the layer.
void draw_lens_row(const LensView& v, int l, const std::vector<TokenScore>& guesses, int k) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  v.env.log.note_drawn("lens_row", std::to_string(l), a.x, a.y, b.x - a.x, b.y - a.y);
  for (int i = 0; i < k && i < static_cast<int>(guesses.size()); ++i) {
    ImGui::TableSetColumnIndex(i + 1);
    const TokenScore& ts = guesses[i];
    prob_cell(v.tok.display_piece(ts.id), ts.p, ts.id == v.next_id, v.ramp, v.pal);
    if (ts.id == v.next_id) v.env.log.note_drawn("lens_next", std::to_string(l), 0, 0, 0, 0);
    if (ImGui::IsItemHovered()) {
      v.env.sel.hover.token_id = ts.id;
      v.env.sel.hover.layer = l;
      ImGui::SetTooltip("after layer %d, %s would get p = %.4f (logit %.2f)", l,
                        v.tok.display_piece(ts.id).c_str(), ts.p, ts.logit);
    }
  }
}

// The table: a row per layer (those not computed yet in a step into say so), a column per guess.
void draw_lens_table(const LensView& v, const std::vector<std::vector<TokenScore>>& lens) {
  const int k = static_cast<int>(lens.front().size());
  // Scrolls sideways when narrow; exactly as tall as its rows (a scrolling table would
  // otherwise take the whole remaining height).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  const float table_h = (static_cast<float>(lens.size()) + 1) * row_h + style.ScrollbarSize + 4;
  if (!ImGui::BeginTable(
          "lens", k + 1,
          ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX,
          ImVec2(0, table_h)))
    return;
  ImGui::TableSetupColumn("after");
  for (int i = 0; i < k; ++i) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "guess %d", i + 1);
    ImGui::PushID(i);
    ImGui::TableSetupColumn(buf);
    ImGui::PopID();
  }
  ImGui::TableHeadersRow();
  for (size_t l = 0; l < lens.size(); ++l) {
    const int layer = static_cast<int>(l);
    ImGui::PushID(layer);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::Text("layer %d", layer);
    if (v.into && !phase_revealed(v.s, PhaseKind::Mlp, layer)) {  // not computed yet
      ImGui::TableSetColumnIndex(1);
      ImGui::TextDisabled("(not computed yet)");
    } else {
      draw_lens_row(v, layer, lens[l], k);
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

// The residual stream's size along the way: embedding, then after each attention and MLP
// (in a step into, only the sub-blocks computed so far have a bar).
void draw_residual_sizes(const LensView& v) {
  const std::vector<float>& norms = v.f.residual_norms;
  if (norms.empty()) return;
  text_wrapped(
      "Size (L2 norm) of this position's residual stream: after the embedding, "
      "then after each attention (a) and MLP (m) sub-block.");
  auto shown = [&](int i) {  // 0: embedding; then attention / MLP of layer (i - 1) / 2
    if (!v.into || i == 0) return true;
    return phase_revealed(v.s, i % 2 ? PhaseKind::Attention : PhaseKind::Mlp, (i - 1) / 2);
  };
  std::vector<double> size(norms.begin(), norms.end());
  std::vector<ImU32> c(size.size(), v.pal.bar);
  for (size_t i = 1; i < c.size(); ++i) c[i] = i % 2 ? v.pal.prefill : v.pal.decode;
  for (size_t i = 0; i < size.size(); ++i)
    if (!shown(static_cast<int>(i))) size[i] = 0;  // not computed yet: no bar
  BarChartStyle bs;
  bs.size = ImVec2(0, ImGui::GetFontSize() * 5.0f);
  const ChartHit h = draw_bar_chart("norms", size, c, bs);
  if (!h.hovered || h.index < 0 || h.index >= static_cast<int>(size.size())) return;
  if (h.index == 0)
    ImGui::SetTooltip("after the embedding: %.3f", size[0]);
  else
    ImGui::SetTooltip("after layer %d's %s: %.3f", (h.index - 1) / 2,
                      h.index % 2 ? "attention" : "MLP", size[h.index]);
}

void draw_lens(const Session& s, const PanelEnv& env, const Palette& pal) {
  const Step* cur = shown_step(s, env.sel);
  const int lane = shown_lane(s, env.sel);
  const int pos = shown_position(s, env.sel);
  if (!cur || pos < 0) {
    text_wrapped(
        "Step once, then select a token: this shows what each layer would predict "
        "next if the model stopped at that layer.");
    return;
  }
  const Step* owner = pass_owner(s, lane, *cur, pos);
  if (!owner) {
    text_wrapped("Position %d was not computed on this path yet.", pos);
    return;
  }
  const ForwardRecord& f = *owner->forward;
  const int last = f.first_pos + f.n_positions - 1;
  const std::vector<PathToken> toks = path_tokens(s, lane, true);
  const std::string here = pos < static_cast<int>(toks.size()) ? toks[pos].display : "?";
  // While stepping into this pass before its draw, the next token is not chosen yet: no outline.
  const bool undrawn = owner == cur && stepping_into(s) && !phase_revealed(s, PhaseKind::Draw);
  LensView v{s, env, pal, f, theme_heat_ramp(env.prefs.theme), s.tokenizer()};
  v.pos = pos;
  v.next_id = !undrawn && pos + 1 < static_cast<int>(toks.size()) ? toks[pos + 1].id : -1;
  v.into = stepping_into(s) && owner == cur;
  if (undrawn)
    text_wrapped(
        "Position %d (%s), being computed by %s step %d; its next token is not "
        "drawn yet.",
        pos, here.c_str(), phase_name(f.phase), owner->index);
  else
    text_wrapped(
        "Position %d (%s), computed by %s step %d. Outlined: the token that "
        "actually came next.",
        pos, here.c_str(), phase_name(f.phase), owner->index);
  // The lens exists for the pass's last position only; computed on first read, then cached.
  const std::vector<std::vector<TokenScore>>& lens = pos == last ? logit_lens(s, f) : f.logit_lens;
  if (pos != last || lens.empty()) {
    draw_final_only(v, last);
    return;
  }
  // Stepping into this pass: the phase just revealed says what it changed.
  if (v.into) step_into_note(s, f, v.tok, pal);
  draw_lens_table(v, lens);
  draw_residual_sizes(v);
}

}  // namespace

void draw_model_panel(const Session& s, const PanelEnv& env, Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Model)) return;
  const Palette& pal = palette(env.prefs.theme);
  if (!has_model(s)) {
    text_wrapped("%s", env.status.no_model_hint.empty()
                           ? "No model loaded. Open one from the Prompt & model panel to see "
                             "its architecture, sizes and what each layer predicts."
                           : env.status.no_model_hint.c_str());
  } else {
    if (ImGui::CollapsingHeader("Logit lens: each layer's guess", ImGuiTreeNodeFlags_DefaultOpen))
      draw_lens(s, env, pal);
    if (ImGui::CollapsingHeader("Architecture and sizes", ImGuiTreeNodeFlags_DefaultOpen))
      draw_card(s, pal);
    // A chat model's template (tokenizer.chat_template): shown as the text it is; tokenscope
    // feeds the prompt as written and does not apply it.
    const std::string& tmpl = s.tokenizer().data().chat_template;
    if (!tmpl.empty() && ImGui::CollapsingHeader("Chat template (as text, not applied)")) {
      const std::string shown = utf8_sanitize(tmpl);
      ImGui::PushFont(app_font(FontRole::Mono));
      text_wrapped("%s", shown.c_str());
      ImGui::PopFont();
    }
  }
  end_panel();
}

}  // namespace ts
