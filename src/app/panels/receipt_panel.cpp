// The Why this token panel: the shown step's receipt against a rival, an intervention tried as
// a branch, and the decision map of the whole run, one section at a time (receipt_sections.h
// draws each).
// Here: the section row, the rival (a right-click on a Next token bar writes the selection's
// rival; this field takes a piece or #ID; without either, the runner-up) and the panel's
// states without a step. Reads the session only; changes it through commands.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/panels/receipt_sections.h"
#include "app/view.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/command.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

namespace why {

std::string quoted_piece(const Session& s, int id) {
  return "'" + s.tokenizer().display_piece(id) + "'";
}

}  // namespace why

namespace {

// Receipt · Intervention · Decision map, the shown one highlighted; `same_line`: right-aligned
// after the last item when they fit there.
void section_row(const PanelEnv& env, ReceiptPanelState& own, bool same_line) {
  struct Tab {
    const char* label;
    int section;
  };
  const Tab tabs[] = {
      {"receipt", kWhyReceipt}, {"intervention", kWhyIntervention}, {"decision map", kWhyMap}};
  ImGui::PushFont(app_font(FontRole::Small));
  const ImGuiStyle& gs = ImGui::GetStyle();
  float w = 0;
  for (const Tab& t : tabs)
    w += ImGui::CalcTextSize(t.label).x + gs.FramePadding.x * 2 + gs.ItemSpacing.x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (same_line &&
      ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + gs.ItemSpacing.x * 2 + w <= right)
    ImGui::SameLine(right - w + gs.ItemSpacing.x);
  for (const Tab& t : tabs) {
    if (&t != tabs) ImGui::SameLine();
    const bool active = own.section == t.section;
    if (active)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(t.label)) own.section = t.section;
    if (active) ImGui::PopStyleColor();
    note_last_item(env.log, active ? "view_active" : "view", t.label);
  }
  ImGui::PopFont();
}

// The rival of the receipt: the selection's when it is a token of this model other than the
// chosen one, else the most probable other token of the raw distribution (-1: none).
int rival_of(const Session& s, const Selection& sel, const Step& st) {
  if (sel.rival_token >= 0 && sel.rival_token < s.tokenizer().vocab_size()) return sel.rival_token;
  for (const Candidate& c : st.sampling.raw)
    if (c.id != st.token) return c.id;
  return -1;
}

// What the field shows for a token: its text, or #ID where the text would not show (control
// characters, byte pieces, special tokens).
std::string field_text(const Session& s, int id) {
  if (id < 0) return "";
  const Tokenizer& tk = s.tokenizer();
  const std::string bytes = tk.token_bytes(id);
  const bool control = std::any_of(bytes.begin(), bytes.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (tk.is_special(id) || tk.is_byte(id) || control || bytes.empty())
    return "#" + std::to_string(id);
  return bytes;
}

// "Why 'was' and not [ the      ]": the field takes a piece (as typed, spaces kept) or #ID.
void rival_field(const Session& s, const PanelEnv& env, ReceiptPanelState& own, const Step& st,
                 int rival, Commands& cmd) {
  const std::string lead = "Why " + why::quoted_piece(s, st.token) + ", not";
  ImGui::TextUnformatted(lead.c_str());
  note_text_item(env.log, lead);
  ImGui::SameLine();
  if (own.rival_edit.empty()) own.rival_edit = field_text(s, rival);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s", own.rival_edit.c_str());
  if (ImGui::InputText("##rival", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue)) {
    own.rival_edit = buf;
    Result<int> id = token_for_piece(s, own.rival_edit);
    if (id.ok())
      env.sel.rival_token = id.value();
    else
      cmd.push(cmd::Notice{"rival: " + id.error().message, true});
  } else if (!ImGui::IsItemActive()) {
    own.rival_edit = field_text(s, rival);  // follows the selection
  }
  note_last_item(env.log, "rival_field", own.rival_edit);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("type a token (or #ID) and press Enter; or right-click a bar in Next token");
  if (rival < 0) return;
  ImGui::SameLine();  // the rival as the chips show it: its spaces visible
  const std::string shown = why::quoted_piece(s, rival) + " #" + std::to_string(rival);
  ImGui::TextUnformatted(shown.c_str());
  note_text_item(env.log, shown);
}

}  // namespace

void draw_receipt_panel(const Session& s, const PanelEnv& env, ReceiptPanelState& own,
                        Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Why)) return;
  const Step* st = shown_step(s, env.sel);
  const int lane = shown_lane(s, env.sel);
  if (!has_model(s)) {
    text_wrapped("Load a model to ask why it chose a token and not another.");
  } else if (!st || !st->forward) {
    text_wrapped(
        "No step yet. Step once: then this panel shows why the model chose its token "
        "and not another, what switching a part of it off changes, and at which layer "
        "it decided.");
  } else if (outcome_hidden(s, env.sel) || !phase_revealed(s, PhaseKind::Draw)) {
    text_wrapped("The answer waits until the step's choice is shown.");
  } else {
    const int node = shown_node(s, env.sel);
    if (own.section == kWhyReceipt) {  // the rival's row, the sections at its right
      const int rival = rival_of(s, env.sel, *st);
      rival_field(s, env, own, *st, rival, cmd);
      section_row(env, own, true);
      if (own.section == kWhyReceipt && rival >= 0)
        why::draw_receipt(s, lane, node, *st, rival, env, own);
    } else {
      section_row(env, own, false);
      if (own.section == kWhyMap)
        why::draw_decision_map(s, lane, env, own, cmd);
      else if (own.section == kWhyIntervention)
        why::draw_intervention(s, lane, node, env, own, cmd);
    }
  }
  end_panel();
}

}  // namespace ts
