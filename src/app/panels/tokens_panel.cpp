// Tokens panel: the shown lane's sequence as wrapping chips — prompt and generated tokens in two
// colours, forced tokens marked, position numbers above each piece, visible spaces and byte
// pieces (Tokenizer::display_piece), the token chosen at the cursor outlined, recorded tokens
// past the cursor faded. Hover: id, piece, probability and rank; click: select a position.
// When the lane's sampler has penalties on, the tokens in the penalty window of the shown step
// are underlined in the warning colour (the repeated ones get a count): these are the tokens whose
// logits the penalty stage lowers. Special tokens (BOS, a chat template's markers) are framed in
// the accent colour. It reads the session only; selection lives in UiState.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/chat_prompt.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

struct ChipStyle {
  ImU32 fill;
  ImU32 border;
  float border_w;
  bool faded;
  bool dashed;
};

void dashed_rect(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float t) {
  const float dash = 5.0f;
  for (float x = a.x; x < b.x; x += dash * 2) {
    dl->AddLine(ImVec2(x, a.y), ImVec2(std::min(x + dash, b.x), a.y), col, t);
    dl->AddLine(ImVec2(x, b.y), ImVec2(std::min(x + dash, b.x), b.y), col, t);
  }
  for (float y = a.y; y < b.y; y += dash * 2) {
    dl->AddLine(ImVec2(a.x, y), ImVec2(a.x, std::min(y + dash, b.y)), col, t);
    dl->AddLine(ImVec2(b.x, y), ImVec2(b.x, std::min(y + dash, b.y)), col, t);
  }
}

// Which positions the penalty stage of the step at `seq_len - 1` looks at, and how often each
// token id occurs there. Empty when the lane's penalties are off.
struct PenaltyWindow {
  int first = 0, end = 0;  // positions [first, end)
  std::map<int, int> count;
  bool contains(int position) const { return position >= first && position < end; }
};

PenaltyWindow penalty_window(const SamplerSettings& st, const std::vector<PathToken>& tokens, int seq_len) {
  PenaltyWindow w;
  const Penalties pen = stage_or_off<Penalties>(st);
  const bool on = !is_off(pen);
  if (!on || seq_len < 2) return w;
  w.end = seq_len - 1;  // the step that chose the newest token saw the tokens before it
  w.first = std::max(0, w.end - pen.last_n);
  for (const PathToken& t : tokens)
    if (w.contains(t.position)) ++w.count[t.id];
  return w;
}

// The history positions the shown step's stages marked (DRY: the repeated run and its earlier
// occurrence), to be highlighted.
std::set<int> marked_positions(const Session& s, const Selection& sel) {
  std::set<int> out;
  if (const Step* step = shown_step(s, sel))
    for (const StageRecord& r : step->sampling.stages) out.insert(r.marks.begin(), r.marks.end());
  return out;
}

void chip_tooltip(const Session& s, const PathToken& t, bool future, const PenaltyWindow& pw) {
  ImGui::BeginTooltip();
  ImGui::Text("position %d   id %d", t.position, t.id);
  ImGui::Text("piece  %s", s.tokenizer().display_piece(t.id).c_str());
  if (t.is_prompt) {
    ImGui::TextDisabled("prompt token (given, not sampled)");
  } else {
    ImGui::Text("chosen at step %d%s", t.step, t.step == 0 ? " (prefill)" : "");
    if (t.forced) ImGui::TextDisabled("forced by the teacher (a branch)");
    ImGui::Text("probability %.1f%%", 100.0 * t.p);
    if (t.rank >= 0)
      ImGui::Text("rank %d (1 = most probable)", t.rank + 1);
    else
      ImGui::TextDisabled("rank: not among the recorded candidates");
    if (future) ImGui::TextDisabled("recorded, after the cursor");
  }
  if (s.tokenizer().is_byte(t.id)) ImGui::TextDisabled("a single byte of a UTF-8 character");
  if (pw.contains(t.position)) {
    const auto it = pw.count.find(t.id);
    ImGui::Text("penalised at the newest step: it occurs %d time%s in the last %d tokens",
                it->second, it->second == 1 ? "" : "s", pw.end - pw.first);
  }
  ImGui::EndTooltip();
}

// The lines above the chips: the counts, penalties, special tokens, a cut prompt.
void header_lines(const Session& s, const PanelEnv& env, const std::vector<PathToken>& tokens,
                  const PenaltyWindow& pw, int seq_len, const Palette& pal) {
  const int cursor = s.cursor();
  {  // wraps at spaces when the panel is narrow
    char head[160];
    const bool any_future = std::any_of(tokens.begin(), tokens.end(), [&](const PathToken& t) {
      return !t.is_prompt && t.position >= seq_len;
    });
    std::snprintf(head, sizeof head, "%d prompt tokens, %d generated%s",
                  (int)prompt_tokens(s).size(), std::max(0, seq_len - (int)prompt_tokens(s).size()),
                  cursor < 0    ? "  ·  not run yet: press → to run the prefill"
                  : any_future ? "  ·  dotted: after the cursor (rewound)"
                               : "");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text(env.log, head);
    ImGui::PopStyleColor();
  }
  if (pw.end > pw.first) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "Penalties on: the underlined tokens (the last %d) are pushed down at this step; 2x = it repeats.",
                  pw.end - pw.first);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
    wrapped_text(env.log, line);
    ImGui::PopStyleColor();
  }
  if (prompt_has_special_past_bos(s)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text(env.log, "Framed chips are special tokens: each is one id, not the letters it shows.");
    ImGui::PopStyleColor();
  }
  if (prompt_cut(s) > 0)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warning),
                       "The prompt was too long: its first %d tokens were dropped.", prompt_cut(s));
}

// What every chip shares: the session, the panel, its fonts and sizes, the step's marks.
struct ChipRun {
  const Session& s;
  const PanelEnv& env;
  const Palette& pal;
  const PenaltyWindow& pw;
  const std::set<int>& marks;
  ImDrawList* dl;
  ImFont* small;
  ImFont* mono;
  float pad, gap, num_h, chip_h;  // num_h 0: no position numbers on the chips
  int cursor, seq_len, focus;
};

// One chip's text and what it is, as the loop decides them.
struct Chip {
  explicit Chip(const PathToken& token) : t(token) {}
  const PathToken& t;
  std::string label;  // the piece ("?" while hidden)
  char num[16] = "";  // the position number
  char rep[16] = "";  // "2x": a penalised token that repeats
  int repeats = 0;
  float w = 0;
  bool future = false, newest = false, hidden = false, special = false;
};

// Fill and frame: prompt / generated (by p) / forced, special, hidden, not run, newest, focus.
ChipStyle chip_style(const ChipRun& r, const Chip& c) {
  const Palette& pal = r.pal;
  const PathToken& t = c.t;
  ChipStyle st{pal.prompt_chip, 0, 0, c.future, false};
  if (!t.is_prompt) {
    st.fill = pal.generated_chip;
    // Colour by probability: pale when the model found the token unlikely, full when sure.
    if (r.env.prefs.color_chips_by_p)
      st.fill =
          mix_color(mix_color(pal.generated_chip, pal.window_bg, 0.7f), pal.generated_chip, t.p);
    if (t.forced) {
      st.fill = pal.forced_chip;
      st.border = pal.accent;
      st.border_w = pal.line_thickness * 1.5f;
    }
  }
  // A special token (BOS, a chat template's turn markers): one id the model learned, never
  // typed text; framed so the class tells it from the words around it.
  if (c.special) {
    st.border = pal.accent;
    st.border_w = pal.line_thickness * 1.5f;
  }
  if (c.hidden) st.fill = pal.bar_cut;
  if (r.cursor < 0) st.dashed = true;  // tokenized but not computed yet
  if (c.newest) {
    st.border = pal.accent;
    st.border_w = pal.line_thickness * 2.0f;
  }
  if (t.position == r.focus) {
    st.border = pal.selected;
    st.border_w = pal.line_thickness * 2.0f;
  } else if (t.position == r.env.sel.prev_hover.position && r.env.sel.prev_hover.position >= 0) {
    st.border = pal.hovered;
    st.border_w = pal.line_thickness * 1.5f;
  }
  return st;
}

// The chip drawn at a: its box, number, piece, probability bar, penalty underline and stage
// mark, each noted in the draw log.
void paint_chip(const ChipRun& r, const Chip& c, const ChipStyle& st, ImVec2 a) {
  const Palette& pal = r.pal;
  const PathToken& t = c.t;
  ImDrawList* dl = r.dl;
  const float pad = r.pad, w = c.w, chip_h = r.chip_h;
  const ImVec2 b(a.x + w, a.y + chip_h);
  // A token recorded after the cursor (rewound, Step brings it back) is a dotted outline with
  // no fill, unlike a pale (unlikely) chosen token; the header's legend says so.
  const ImU32 text_col = st.faded ? pal.text_dim : pal.chip_text;
  if (!st.faded) dl->AddRectFilled(a, b, st.fill, 4.0f);
  if (st.dashed || st.faded) dashed_rect(dl, a, b, pal.text_dim, pal.line_thickness);
  if (st.border_w > 0) dl->AddRect(a, b, st.border, 4.0f, 0, st.border_w);
  if (r.num_h > 0)
    dl->AddText(r.small, r.small->FontSize, ImVec2(a.x + pad, a.y + pad * 0.5f), text_col, c.num);
  dl->AddText(r.mono, r.mono->FontSize, ImVec2(a.x + pad, a.y + pad + r.num_h), text_col,
              c.label.c_str());
  if (r.env.prefs.color_chips_by_p && !t.is_prompt && !t.forced && !c.hidden && !st.faded) {
    // The probability the token had when it was chosen, as a bar along the chip's bottom.
    const float bh = std::max(2.0f, pad * 0.6f);
    dl->AddRectFilled(ImVec2(a.x + 2, b.y - bh - 1),
                      ImVec2(a.x + 2 + (w - 4) * std::clamp(t.p, 0.0f, 1.0f), b.y - 1),
                      st.faded ? pal.text_dim : pal.decode);
  }
  if (r.pw.contains(t.position) && !c.hidden) {
    // Penalised at the newest step: a thick underline, and the repeat count when above one.
    const float uh = std::max(3.0f, pad * 0.8f);
    dl->AddRectFilled(ImVec2(a.x, b.y + 1), ImVec2(b.x, b.y + 1 + uh), pal.warning);
    if (c.repeats > 1) {
      const ImVec2 rs = r.small->CalcTextSizeA(r.small->FontSize, 1e9f, 0, c.rep);
      dl->AddText(r.small, r.small->FontSize, ImVec2(b.x - rs.x - 2, a.y + 1), pal.mark_text,
                  c.rep);
    }
    r.env.log.note_drawn("penalised_chip", c.label, a.x, a.y, w, chip_h);
  }
  if (r.marks.count(t.position) && !c.hidden) {  // a stage's match (DRY): a bar along the top
    dl->AddRectFilled(ImVec2(a.x, a.y - 3), ImVec2(b.x, a.y - 1), pal.accent);
    r.env.log.note_drawn("marked_chip", c.label, a.x, a.y, w, chip_h);
  }
  const char* kind = t.is_prompt ? "prompt_chip"
                     : c.future  ? "future_chip"
                     : t.forced  ? "forced_chip"
                                 : "generated_chip";
  r.env.log.note_drawn(kind, c.label, a.x, a.y, w, chip_h);
  if (c.special) r.env.log.note_drawn("special_chip", c.label, a.x, a.y, w, chip_h);
}

// The chip's text and width (the piece, or its number with a repeat count when wider).
Chip make_chip(const ChipRun& r, const PathToken& t, bool hide_last) {
  Chip c(t);
  c.future = !t.is_prompt && t.position >= r.seq_len;
  c.newest = r.cursor >= 0 && !t.is_prompt && t.position == r.seq_len - 1;
  c.hidden = c.newest && hide_last;
  c.label = c.hidden ? "?" : r.s.tokenizer().display_piece(t.id);
  if (c.label.empty()) c.label.push_back(' ');
  c.special = !c.hidden && r.s.tokenizer().is_special(t.id);
  const float text_w = r.mono->CalcTextSizeA(r.mono->FontSize, 1e9f, 0, c.label.c_str()).x;
  std::snprintf(c.num, sizeof c.num, "%d", t.position);
  const float num_w = r.small->CalcTextSizeA(r.small->FontSize, 1e9f, 0, c.num).x;
  // A penalised token that repeats shows "2x" beside its position number: room for both.
  c.repeats = r.pw.contains(t.position) && !c.hidden ? r.pw.count.at(t.id) : 0;
  if (c.repeats > 1) std::snprintf(c.rep, sizeof c.rep, "%dx", c.repeats);
  const float rep_w =
      c.repeats > 1 ? r.small->CalcTextSizeA(r.small->FontSize, 1e9f, 0, c.rep).x + r.pad : 0.0f;
  // (without the numbers' row the count goes after the piece, in a wider chip)
  c.w = (r.num_h > 0 ? std::max(text_w, num_w + rep_w) : text_w + rep_w) + r.pad * 2;
  return c;
}

// The height the chips take wrapped at `width` (as the panel's loop lays them out).
float chips_height(const ChipRun& r, const std::vector<PathToken>& tokens, bool hide_last,
                   bool appended, float width) {
  float x = 0, rows = 1;
  for (const PathToken& t : tokens) {
    const Chip c = make_chip(r, t, hide_last);
    if (c.newest && !appended) continue;
    if (x + c.w > width && x > 0) {
      x = 0;
      ++rows;
    }
    x += c.w + r.gap;
  }
  return rows * (r.chip_h + r.gap);
}

// The chips' shared look for this frame: fonts, padding, gaps, heights (numbered or one line).
ChipRun chip_run(const Session& s, const PanelEnv& env, const Palette& pal, const PenaltyWindow& pw,
                 const std::set<int>& marks, int cursor, int seq_len, bool numbers) {
  ImFont* small = app_font(FontRole::Small);
  ImFont* mono = app_font(FontRole::Mono);
  const float pad = numbers ? 5.0f : 3.0f;  // (one-line chips: tighter)
  const float num_h = numbers ? small->FontSize : 0.0f;
  return ChipRun{s,
                 env,
                 pal,
                 pw,
                 marks,
                 ImGui::GetWindowDrawList(),
                 small,
                 mono,
                 pad,
                 pw.end > pw.first ? (numbers ? 8.0f : 6.0f) : 4.0f,
                 num_h,
                 num_h + mono->FontSize + pad * 2,
                 cursor,
                 seq_len,
                 shown_position(s, env.sel)};
}

// The chips in rows at the cursor, each a button (a click selects its position; hover shows
// its tooltip and is shared with the other panels). Returns the last row's top-left.
ImVec2 draw_chips(const ChipRun& run, const std::vector<PathToken>& tokens, bool hide_last,
                  bool appended) {
  const PanelEnv& env = run.env;
  const float x0 = ImGui::GetCursorScreenPos().x;
  const float max_x = x0 + ImGui::GetContentRegionAvail().x;
  ImVec2 pos = ImGui::GetCursorScreenPos();
  int hovered = -1;
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    const Chip c = make_chip(run, tokens[i], hide_last);
    // Stepping into an iteration: its token is not appended before the append phase.
    if (c.newest && !appended) continue;
    if (pos.x + c.w > max_x && pos.x > x0) {
      pos.x = x0;
      pos.y += run.chip_h + run.gap;
    }
    const int position = c.t.position;
    ImGui::PushID(i);
    ImGui::SetCursorScreenPos(pos);
    ImGui::InvisibleButton("chip", ImVec2(c.w, run.chip_h));
    const bool is_hovered = ImGui::IsItemHovered();
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left))
      env.sel.selected_position = (env.sel.selected_position == position) ? -1 : position;
    ImGui::PopID();
    paint_chip(run, c, chip_style(run, c), pos);
    if (is_hovered) {
      hovered = position;
      if (c.hidden)
        ImGui::SetTooltip("position %d: hidden until the teacher reveals it", position);
      else
        chip_tooltip(run.s, c.t, c.future, run.pw);
    }
    pos.x += c.w + run.gap;
  }
  if (hovered >= 0) env.sel.hover.position = hovered;
  return pos;
}

}  // namespace

void draw_tokens_panel(const Session& s, const PanelEnv& env, TokensPanelState& own,
                       Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Tokens)) return;
  const Palette& pal = palette(env.prefs.theme);
  if (!has_model(s)) {
    wrapped_text(env.log, "No model loaded. " + env.status.no_model_hint);
    end_panel();
    return;
  }
  const int lane = shown_lane(s, env.sel);
  const std::vector<PathToken> tokens = path_tokens(s, lane, false);
  const int cursor = s.cursor();
  const int seq_len = shown_sequence_length(s, env.sel);
  const bool hide_last = outcome_hidden(s, env.sel);
  const bool appended = !stepping_into(s) || phase_revealed(s, PhaseKind::Append);
  if (tokens.empty()) {
    ImGui::TextDisabled("Type a prompt in \"Prompt & model\" and press Apply.");
    end_panel();
    return;
  }
  const PenaltyWindow pw =
      cursor >= 0 ? penalty_window(s.lanes()[lane].settings, tokens, seq_len) : PenaltyWindow{};
  const std::set<int> marks = cursor >= 0 ? marked_positions(s, env.sel) : std::set<int>{};
  header_lines(s, env, tokens, pw, seq_len, pal);

  // How tall the panel's contents are (info lines + chips), for the layout's next frame.
  const float content_top = ImGui::GetCursorPosY();
  ImGui::BeginChild("chips", ImVec2(0, 0), false);
  const bool grew = own.autoscroll_len != seq_len;
  const float chips_top = ImGui::GetCursorScreenPos().y + ImGui::GetScrollY();
  const float chips_w = ImGui::GetContentRegionAvail().x;
  auto make_run = [&](bool numbers) {
    return chip_run(s, env, pal, pw, marks, cursor, seq_len, numbers);
  };
  // Position numbers where the teacher wants them and the chips still fit with them; else
  // chips one line high, so the whole text stays on screen rather than scrolled away.
  bool numbers = env.prefs.show_position_numbers;
  if (numbers &&
      chips_height(make_run(true), tokens, hide_last, appended, chips_w) >
          ImGui::GetContentRegionAvail().y &&
      chips_height(make_run(false), tokens, hide_last, appended, chips_w) <=
          ImGui::GetContentRegionAvail().y)
    numbers = false;
  const ChipRun run = make_run(numbers);
  const float x0 = ImGui::GetCursorScreenPos().x;
  const ImVec2 pos = draw_chips(run, tokens, hide_last, appended);
  // (the height the teacher's choice needs, numbers and all, so the layout still grows the
  // panel for them where it can)
  float chips_h = pos.y + ImGui::GetScrollY() - chips_top + run.chip_h;
  if (numbers != env.prefs.show_position_numbers) {
    const ChipRun wanted = make_run(env.prefs.show_position_numbers);
    chips_h = chips_height(wanted, tokens, hide_last, appended, chips_w) - wanted.gap;
  }
  own.wanted_height = content_top + chips_h + ImGui::GetStyle().WindowPadding.y + 8.0f;
  ImGui::SetCursorScreenPos(ImVec2(x0, pos.y + run.chip_h));
  ImGui::Dummy(ImVec2(1, 0));
  // When the sequence changed and the chips overflow, scroll so the newest token is in view: for a
  // few frames, since ImGui clamps a scroll to the content height it measured the frame before
  // (a long jump adds many rows at once).
  if (grew) {
    own.autoscroll_len = seq_len;
    own.scroll_frames = 3;
  }
  if (own.scroll_frames > 0) {
    --own.scroll_frames;
    ImGui::SetScrollHereY(1.0f);
  }
  ImGui::EndChild();
  end_panel();
}

}  // namespace ts
