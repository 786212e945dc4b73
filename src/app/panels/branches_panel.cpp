// Branches panel: the shown lane's timeline tree drawn as a node-link diagram — one column per
// step, one row per branch, each node a chip labelled with the token chosen there (forced tokens
// in the forced colour), the current path drawn bold and the cursor's node ringed. Clicking a
// node asks the session to switch to that branch (a command). Reads the session only.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/flow.h"
#include "app/widgets/heatmap.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "session/session.h"

namespace ts {
namespace {

// Row of every node: a first child continues its parent's row, a later child opens a new row
// below everything drawn so far (so branches never cross).
std::vector<int> layout_rows(const Timeline& tl, int* n_rows) {
  std::vector<int> row(tl.size(), -1);
  int next = 0;
  std::vector<std::pair<int, int>> stack;  // (node, row), depth-first, first child first
  for (int id = tl.size() - 1; id >= 0; --id)
    if (tl.node(id).parent < 0) stack.push_back({id, -1});
  while (!stack.empty()) {
    auto [id, r] = stack.back();
    stack.pop_back();
    row[id] = r >= 0 ? r : next++;
    const std::vector<int>& ch = tl.node(id).children;
    for (int i = static_cast<int>(ch.size()) - 1; i >= 0; --i)
      stack.push_back({ch[i], i == 0 ? row[id] : -1});
  }
  *n_rows = next;
  return row;
}

std::string node_label(const Step& st, const Tokenizer& tok) {
  return st.display.empty() ? tok.display_piece(st.token) : st.display;
}

}  // namespace

void draw_branches_panel(const Session& s, UiState& ui, Commands& cmd) {
  if (!begin_panel(ui, PanelId::Branches)) return;
  const Palette& pal = palette(ui.theme);
  const float fs = ImGui::GetFontSize();
  const int lane = shown_lane(s, ui);
  if (!s.has_model()) {
    text_wrapped("Load a model: every token you force later starts a branch shown here.");
    end_panel();
    return;
  }
  const Timeline& tl = s.timeline(lane);
  if (tl.size() == 0) {
    text_wrapped("No steps yet. Step to grow the main line; force a different token in the "
                       "Next-token panel to fork a branch.");
    end_panel();
    return;
  }

  const std::vector<BranchInfo> branches = s.branches(lane);
  const std::vector<int>& path = tl.path();
  std::vector<char> on_path(tl.size(), 0);
  for (int id : path) on_path[id] = 1;
  const int cursor_node = s.cursor() >= 0 && s.cursor() < static_cast<int>(path.size())
                              ? path[s.cursor()]
                              : (path.empty() || s.cursor() < 0 ? -1 : path.back());
  if (branches.size() <= 1) {
    text_wrapped("One line so far: force another token (Next-token panel) to fork a branch.");
  } else {
    for (const BranchInfo& b : branches)
      if (b.current)
        text_wrapped("%d branches; this one forked at step %d (%s%s). Click a node to switch.",
                           static_cast<int>(branches.size()), b.fork_step,
                           s.tokenizer().display_piece(b.fork_token).c_str(),
                           b.forced ? ", forced" : "");
  }
  {  // Legend: what the colours and outlines mean (wraps on narrow panels).
    const float side = fs * 0.9f;
    auto key = [&](const char* text, ImU32 col, bool filled) {
      flow_same_line(side + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(text).x + fs);
      const ImVec2 p = ImGui::GetCursorScreenPos();
      ImGui::Dummy(ImVec2(side, fs));
      ImDrawList* dl = ImGui::GetWindowDrawList();
      if (filled)
        dl->AddRectFilled(p, ImVec2(p.x + side, p.y + side), col, fs * 0.2f);
      else
        dl->AddRect(p, ImVec2(p.x + side, p.y + side), col, fs * 0.2f, 0, 2.0f);
      ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
      ImGui::TextDisabled("%s", text);
    };
    ImGui::Dummy(ImVec2(0, 0));
    key("forced token", pal.forced_chip, true);
    key("current path", pal.selected, false);
    key("cursor", pal.accent, false);
  }

  int n_rows = 0;
  const std::vector<int> row = layout_rows(tl, &n_rows);
  int n_cols = 0;
  float label_w = fs * 1.5f;
  std::vector<std::string> labels(tl.size());
  for (int id = 0; id < tl.size(); ++id) {
    n_cols = std::max(n_cols, tl.node(id).index + 1);
    labels[id] = abbreviate_to_width(node_label(tl.node(id), s.tokenizer()), fs * 5.0f);
    label_w = std::max(label_w, ImGui::CalcTextSize(labels[id].c_str()).x);
  }
  const float pad = fs * 0.35f;
  const float chip_w = label_w + 2 * pad, chip_h = fs * 1.3f;
  const float col_w = chip_w + fs * 0.9f, row_h = chip_h + fs * 0.6f;

  ImGui::BeginChild("tree", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const ImVec2 top(o.x, o.y + fs * 1.2f);  // step numbers above the columns
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto chip_min = [&](int id) {
    return ImVec2(top.x + tl.node(id).index * col_w, top.y + row[id] * row_h);
  };
  for (int c = 0; c < n_cols; ++c) {
    char buf[24];
    std::snprintf(buf, sizeof buf, c == 0 ? "prefill" : "%d", c);
    dl->AddText(ImVec2(top.x + c * col_w, o.y), pal.text_dim, buf);
  }
  // Edges first (current path on top of the others).
  for (int pass = 0; pass < 2; ++pass)
    for (int id = 0; id < tl.size(); ++id) {
      const int p = tl.node(id).parent;
      if (p < 0 || (on_path[id] && on_path[p]) != (pass == 1)) continue;
      const ImVec2 a = chip_min(p), b = chip_min(id);
      const ImVec2 from(a.x + chip_w, a.y + chip_h * 0.5f), to(b.x, b.y + chip_h * 0.5f);
      const ImU32 c = pass == 1 ? pal.selected : pal.grid;
      const float t = pass == 1 ? std::max(2.5f, pal.line_thickness * 2.0f) : pal.line_thickness * 1.5f;
      if (from.y == to.y) {
        dl->AddLine(from, to, c, t);
      } else {  // down to the branch's row, then along it
        const float mx = from.x + (to.x - from.x) * 0.5f;
        dl->AddBezierCubic(from, ImVec2(mx, from.y), ImVec2(mx, to.y), to, c, t);
      }
    }
  // Nodes: one button each.
  for (int id = 0; id < tl.size(); ++id) {
    const Step& st = tl.node(id);
    const ImVec2 a = chip_min(id), b(a.x + chip_w, a.y + chip_h);
    ImGui::SetCursorScreenPos(a);
    ImGui::PushID(id);
    const bool clicked = ImGui::InvisibleButton("node", ImVec2(chip_w, chip_h));
    const bool hovered = ImGui::IsItemHovered();
    ImGui::PopID();
    const ImU32 fill = st.forced ? pal.forced_chip : st.index == 0 ? pal.prompt_chip : pal.generated_chip;
    dl->AddRectFilled(a, b, hovered ? mix_color(fill, pal.hovered, 0.35f) : fill, fs * 0.2f);
    if (on_path[id])
      dl->AddRect(a, b, pal.selected, fs * 0.2f, 0, std::max(2.0f, pal.line_thickness * 1.5f));
    if (id == cursor_node)
      dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), pal.accent, fs * 0.3f, 0,
                  std::max(2.0f, pal.line_thickness * 2.0f));
    const float tw = ImGui::CalcTextSize(labels[id].c_str()).x;
    dl->AddText(ImVec2(a.x + (chip_w - tw) * 0.5f, a.y + (chip_h - fs) * 0.5f), pal.chip_text,
                labels[id].c_str());
    ui.note_drawn("branch_node", std::to_string(id), a.x, a.y, chip_w, chip_h);
    if (hovered) {
      ImGui::BeginTooltip();
      ImGui::Text("step %d: %s%s", st.index, node_label(st, s.tokenizer()).c_str(),
                  st.forced ? "  (forced)" : "");
      if (!st.forced) ImGui::Text("sampled with p = %.3f", st.chosen_p);
      ImGui::TextDisabled(on_path[id] ? "on the current path: click to go to this step"
                                      : "click to switch to this branch");
      ImGui::EndTooltip();
      ui.hover.position = st.position;
      ui.hover.token_id = st.token;
    }
    if (clicked) cmd.push(cmd::SwitchBranch{id, lane});
  }
  // Reserve the drawing's extent so the child scrolls; follow the cursor when it moves.
  ImGui::SetCursorScreenPos(o);
  ImGui::Dummy(ImVec2(n_cols * col_w + fs, fs * 1.2f + n_rows * row_h));
  ImGuiStorage* store = ImGui::GetStateStorage();
  const ImGuiID key = ImGui::GetID("followed_node");
  if (cursor_node >= 0 && store->GetInt(key, -1) != cursor_node) {
    store->SetInt(key, cursor_node);
    const ImVec2 a = chip_min(cursor_node);
    ImGui::SetScrollFromPosX(a.x - ImGui::GetWindowPos().x + chip_w * 0.5f, 0.5f);
    ImGui::SetScrollFromPosY(a.y - ImGui::GetWindowPos().y + chip_h * 0.5f, 0.5f);
  }
  ImGui::EndChild();
  end_panel();
}

}  // namespace ts
