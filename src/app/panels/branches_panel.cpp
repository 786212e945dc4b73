// Branches panel: the shown lane's timeline tree, fitted to the panel (never scrolled away from
// its forks): x by step, one row per branch, forks and each branch's first token drawn as nodes
// (forced tokens in the forced colour), each leaf followed by its branch's text, the current path
// bold and the cursor ringed. Clicking near a node asks the session to switch to that branch (a
// command). Layout in branch_tree.h; reads the session only.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/panels/branch_tree.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/flow.h"
#include "app/widgets/heatmap.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/token_run.h"
#include "imgui.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

std::string node_label(const Step& st, const Tokenizer& tok) {
  return st.display.empty() ? tok.display_piece(st.token) : st.display;
}

// Each branch's whole story, one row each under the tree: a header (which branch, where it
// forked and with which token) and its generated text as running text kept at its last token,
// the tokens from the fork on tinted and the fork's token outlined (widgets/token_run.h; items
// "branch_line" / "branch_newest", state "branch N").
void draw_stories(const Session& s, const Timeline& tl, const std::vector<BranchInfo>& branches,
                  const PanelEnv& env, const Palette& pal) {
  const float fs = ImGui::GetFontSize();
  // Tight rows: the story lines get the height that the theme's item spacing would take.
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, fs * 0.15f));
  const ImGuiStyle& gs = ImGui::GetStyle();
  const float line_h = fs * 1.3f;
  const int n = static_cast<int>(branches.size());
  const float head_h = app_font(FontRole::Small)->FontSize + gs.ItemSpacing.y;
  const float per_branch = head_h + gs.ItemSpacing.y * 2.0f + 1.0f;
  for (int b = 0; b < n; ++b) {
    const BranchInfo& br = branches[b];
    ImGui::PushID(b);
    ImGui::Separator();
    const std::string name = "branch " + std::to_string(b + 1);
    std::string head = name;
    // A branch forked where its first own node is a later sibling; the first story's walk ends
    // at the tree's first root.
    const bool forked = br.fork_node >= 0 &&
                        tl.children(tl.node(br.fork_node).parent).front() != br.fork_node;
    if (forked)
      head += ": from step " + std::to_string(br.fork_step) + ", " +
              s.tokenizer().display_piece(br.fork_token) + (br.forced ? " (forced)" : "");
    else
      head += ": the story as first generated";
    if (br.current) head += "  · shown";
    ImGui::PushFont(app_font(FontRole::Small));
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(br.current ? pal.text : pal.text_dim), "%s",
                       head.c_str());
    ImGui::PopFont();
    note_last_item(env.log, "text", head);
    std::vector<int> ids;
    for (int id = br.leaf; id >= 0; id = tl.node(id).parent) ids.push_back(id);
    std::reverse(ids.begin(), ids.end());
    std::vector<RunToken> run;
    for (int id : ids) {
      const Step& st = tl.node(id);
      RunToken r;
      r.display = node_label(st, s.tokenizer());
      r.text = running_piece(r.display);
      r.tinted = forked && st.index >= br.fork_step;
      r.outlined = id == br.fork_node;
      r.forced = st.forced;
      run.push_back(std::move(r));
    }
    TokenRunStyle rs;
    rs.kind = "branch";
    rs.name = name;
    rs.tint = mix_color(pal.forced_chip, pal.window_bg, 0.5f);
    rs.mark = pal.accent;
    // This row's share of the whole lines left, measured now (the rows above took theirs), so
    // the stories fill the panel to its bottom edge.
    const int left = n - b;
    const float room = ImGui::GetContentRegionAvail().y - (left - 1) * per_branch - gs.ItemSpacing.y;
    const int lines = std::max(1, (static_cast<int>(room / line_h) + left - 1) / left);
    const float box_h = line_h * static_cast<float>(lines);
    draw_token_run("story", run, box_h, rs, pal, env.log);
    ImGui::PopID();
  }
  ImGui::PopStyleVar();
}

// The summary line: how many branches, and where the current one forked.
void branch_summary(const Session& s, const std::vector<BranchInfo>& branches) {
  if (branches.size() <= 1) {
    text_wrapped("One line so far: force another token (Next-token panel) to fork a branch.");
    return;
  }
  for (const BranchInfo& b : branches)
    if (b.current)
      text_wrapped("%d branches; this one forked at step %d (%s%s). Click a node to switch.",
                   static_cast<int>(branches.size()), b.fork_step,
                   s.tokenizer().display_piece(b.fork_token).c_str(), b.forced ? ", forced" : "");
}

// Legend: what the colours and outlines mean (wraps on narrow panels).
void branch_legend(const Palette& pal, float fs) {
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

// The tree as drawn: the timeline, its layout (branch_tree.h) and where it sits on screen.
struct TreeDraw {
  const Session& s;
  const Timeline& tl;
  const TreeLayout& t;
  const std::vector<char>& on_path;  // (nodes) 1 on the current path
  const PanelEnv& env;
  const Palette& pal;
  float fs;
  float width;  // the tree's width on screen
  ImVec2 o;     // the child's top left (the axis row)
  ImVec2 top;   // the rows' origin, below the axis and the labels over branch starts
  ImDrawList* dl;
  float r_dot() const { return fs * 0.12f; }
  float r_key() const { return fs * 0.32f; }
  ImVec2 at(int id) const { return ImVec2(top.x + t.x[id], top.y + t.y[id]); }
};

// Step axis: "prefill", then step numbers as far apart as their labels need.
void draw_axis(const TreeDraw& d) {
  const float fs = d.fs;
  const float num_w = ImGui::CalcTextSize("000").x + fs * 0.6f;
  const int every = std::max(1, static_cast<int>(std::ceil(num_w / std::max(1.0f, d.t.step_w))));
  for (int c = 0; c <= d.t.max_step; ++c) {
    const bool near_prefill = c * d.t.step_w < ImGui::CalcTextSize("prefill").x + fs * 0.5f;
    if (c > 0 && (c % every != 0 || near_prefill)) continue;
    char buf[24];
    std::snprintf(buf, sizeof buf, c == 0 ? "prefill" : "%d", c);
    const float w = ImGui::CalcTextSize(buf).x;
    const float x = d.top.x + fs * 0.9f + c * d.t.step_w - (c == 0 ? fs * 0.4f : w * 0.5f);
    d.dl->AddText(ImVec2(x, d.o.y), d.pal.text_dim, buf);
  }
}

// Edges, the current path drawn last (on top).
void draw_edges(const TreeDraw& d) {
  for (int pass = 0; pass < 2; ++pass)
    for (int id = 0; id < d.tl.size(); ++id) {
      const int p = d.tl.node(id).parent;
      if (p < 0 || (d.on_path[id] && d.on_path[p]) != (pass == 1)) continue;
      const ImVec2 a = d.at(p), b = d.at(id);
      const ImU32 c = pass == 1 ? d.pal.selected : d.pal.grid;
      const float th =
          pass == 1 ? std::max(2.5f, d.pal.line_thickness * 2.0f) : d.pal.line_thickness * 1.5f;
      if (a.y == b.y) {
        d.dl->AddLine(a, b, c, th);
      } else {  // down to the branch's row, then along it
        const float mx = a.x + (b.x - a.x) * 0.5f;
        d.dl->AddBezierCubic(a, ImVec2(mx, a.y), ImVec2(mx, b.y), b, c, th);
      }
    }
}

// A branch's text from its first node to its leaf (the main line: from the prefill), keeping
// the end when it is too long for the label space.
std::string leaf_text(const TreeDraw& d, int leaf, float max_w) {
  std::vector<int> ids;
  for (int id = leaf; id >= 0; id = d.tl.node(id).parent) {
    ids.push_back(id);
    if (d.t.branch_start[id]) break;
  }
  std::string text;
  for (int id : ids) {  // leaf first: prepend while it fits
    std::string piece = node_label(d.tl.node(id), d.s.tokenizer());
    for (size_t i; (i = piece.find("\xE2\x90\xA3")) != std::string::npos;) piece.replace(i, 3, " ");
    if (ImGui::CalcTextSize(("\xE2\x80\xA6" + piece + text).c_str()).x > max_w) {
      text = "\xE2\x80\xA6" + text;
      break;
    }
    text = piece + text;
  }
  return text;
}

// One node: its dot (where dots have room, or it is a key node, hovered or the cursor), the
// label over a branch's first token, and a leaf's text to its right.
void draw_node(const TreeDraw& d, int id, int hover_id, int cursor_node, bool dots) {
  const float fs = d.fs;
  const Palette& pal = d.pal;
  const Step& st = d.tl.node(id);
  const ImVec2 c = d.at(id);
  const bool key = d.t.key[id];
  const float r = key ? d.r_key() : d.r_dot();
  if (key || dots || id == hover_id || id == cursor_node) {
    const ImU32 fill = st.forced       ? pal.forced_chip
                       : d.t.fork[id]  ? pal.window_bg
                       : d.on_path[id] ? pal.selected
                                       : pal.grid;
    d.dl->AddCircleFilled(c, id == hover_id ? r * 1.3f : r, fill);
    if (key)
      d.dl->AddCircle(c, r, d.on_path[id] ? pal.selected : pal.text_dim, 0,
                      std::max(1.5f, pal.line_thickness * 1.5f));
  }
  if (id == cursor_node)
    d.dl->AddCircle(c, d.r_key() + fs * 0.18f, pal.accent, 0,
                    std::max(2.0f, pal.line_thickness * 2.0f));
  const float hit = std::max(d.r_key(), std::min(fs * 0.5f, d.t.step_w * 0.5f));
  d.env.log.note_drawn("branch_node", std::to_string(id), c.x - hit, c.y - hit, 2 * hit, 2 * hit);
  if (d.t.fork[id])
    d.env.log.note_drawn("fork_node", std::to_string(id), c.x - r, c.y - r, 2 * r, 2 * r);
  // The first token of a branch (forced: in the forced colour) above its node.
  if (d.t.branch_start[id] || st.forced) {
    const std::string lab = abbreviate_to_width(node_label(st, d.s.tokenizer()), fs * 5.0f);
    const ImVec2 ts = ImGui::CalcTextSize(lab.c_str());
    // Centred over its node, kept inside the panel at its left and right edges.
    const float left = std::clamp(c.x - ts.x * 0.5f - fs * 0.2f, d.top.x,
                                  std::max(d.top.x, d.top.x + d.width - ts.x - fs * 0.4f));
    const ImVec2 a(left, c.y - d.r_key() - ts.y - fs * 0.25f);
    const ImVec2 b(a.x + ts.x + fs * 0.4f, a.y + ts.y);
    d.dl->AddRectFilled(a, b, st.forced ? pal.forced_chip : pal.generated_chip, fs * 0.2f);
    d.dl->AddText(ImVec2(a.x + fs * 0.2f, a.y), pal.chip_text, lab.c_str());
    d.env.log.note_drawn(st.forced ? "forced_node" : "branch_start", lab, a.x, a.y, b.x - a.x,
                         b.y - a.y);
  }
  // Each leaf: its branch's text to the right.
  if (d.t.leaf[id]) {
    const float room = d.top.x + d.width - (c.x + d.r_key() + fs * 0.4f) - fs * 0.3f;
    if (room > fs * 2.0f) {
      const std::string text = leaf_text(d, id, room);
      d.dl->AddText(ImVec2(c.x + d.r_key() + fs * 0.4f, c.y - fs * 0.5f),
                    d.on_path[id] ? pal.text : pal.text_dim, text.c_str());
      d.env.log.note_drawn("leaf_text", text, c.x + d.r_key() + fs * 0.4f, c.y - fs * 0.5f,
                           ImGui::CalcTextSize(text.c_str()).x, fs);
    }
  }
}

// The hovered node's tooltip; a click on it switches to its branch (or goes to its step).
void node_tooltip(const TreeDraw& d, int hover_id, bool released, int lane, Commands& cmd) {
  const Step& st = d.tl.node(hover_id);
  ImGui::BeginTooltip();
  ImGui::Text("step %d: %s%s", st.index, node_label(st, d.s.tokenizer()).c_str(),
              st.forced ? "  (forced)" : "");
  if (!st.forced && st.chosen_rank >= 0)
    ImGui::Text("sampled with p = %.1f%% (rank %d)", 100.0 * st.chosen_p, st.chosen_rank + 1);
  if (d.t.fork[hover_id])
    ImGui::Text("a fork: %d branches continue from here", static_cast<int>(st.children.size()));
  ImGui::TextDisabled(d.on_path[hover_id] ? "on the current path: click to go to this step"
                                          : "click to switch to this branch");
  ImGui::EndTooltip();
  d.env.sel.hover.position = st.position;
  d.env.sel.hover.token_id = st.token;
  if (released) cmd.push(cmd::SwitchBranch{hover_id, lane});
}

// The tree fitted to the panel: x by step, one row per branch (branch_tree.h); with two
// branches or more it takes the height its rows need and the stories the rest.
struct TreeFit {
  TreeLayout layout;
  ImVec2 avail;      // the tree's child window
  float axis_h = 0;  // step numbers above the tree
  float content_h = 0;
  bool fits = true;  // else the tree scrolls vertically (never sideways)
};

TreeFit fit_tree(const Timeline& tl, bool stories, size_t n_branches, float fs) {
  TreeFit f;
  f.avail = ImGui::GetContentRegionAvail();  // the child below fills it
  if (stories)
    f.avail.y =
        std::min(f.avail.y * 0.4f, fs * (1.3f + 1.7f + 1.8f * static_cast<float>(n_branches)));
  f.axis_h = fs * 1.3f;
  std::vector<TreeNodeIn> in(tl.size());
  for (int id = 0; id < tl.size(); ++id)
    in[id] = {tl.node(id).parent, tl.node(id).index, tl.node(id).forced};
  // Height for the rows: below the axis and the labels over branch starts, above the last leaf's
  // text (half a line under its row).
  const float rows_h = std::max(fs * 3.0f, f.avail.y - f.axis_h - fs * 1.1f);
  auto layout = [&](float w) {
    return layout_branch_tree(in, w, rows_h, fs * 0.9f, std::min(w * 0.3f, fs * 9.0f), fs * 1.55f,
                              fs * 3.0f);
  };
  f.layout = layout(f.avail.x);
  float max_y = 0;
  for (int id = 0; id < tl.size(); ++id) max_y = std::max(max_y, f.layout.y[id]);
  f.content_h = f.axis_h + fs * 0.6f + max_y + fs * 0.7f;
  f.fits = f.content_h <= f.avail.y;
  if (!f.fits) {
    f.avail.x -= ImGui::GetStyle().ScrollbarSize;
    f.layout = layout(f.avail.x);
  }
  return f;
}

// The fitted tree: axis, edges, nodes; the node nearest the mouse gets its tooltip, a click
// there switches branches.
void draw_tree(const Session& s, const Timeline& tl, const TreeFit& f, int lane,
               const PanelEnv& env, const Palette& pal, float fs, bool stories, Commands& cmd) {
  const std::vector<int>& path = tl.path();
  std::vector<char> on_path(tl.size(), 0);
  for (int id : path) on_path[id] = 1;
  const int cursor_node = s.cursor() >= 0 && s.cursor() < static_cast<int>(path.size())
                              ? path[s.cursor()]
                              : (path.empty() || s.cursor() < 0 ? -1 : path.back());
  ImGui::BeginChild("tree", ImVec2(0, stories ? f.avail.y : 0.0f), false,
                    f.fits ? ImGuiWindowFlags_NoScrollbar : 0);
  const TreeLayout& t = f.layout;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const TreeDraw d{s,
                   tl,
                   t,
                   on_path,
                   env,
                   pal,
                   fs,
                   f.avail.x,
                   o,
                   ImVec2(o.x, o.y + f.axis_h + fs * 0.6f),  // room for the labels above starts
                   ImGui::GetWindowDrawList()};
  draw_axis(d);
  draw_edges(d);
  // Nodes, the hovered one found by distance (one invisible button over the whole tree).
  ImGui::SetCursorScreenPos(o);
  const ImVec2 extent(f.avail.x,
                      f.fits ? f.avail.y - ImGui::GetStyle().ItemSpacing.y : f.content_h);
  const bool released = ImGui::InvisibleButton("tree_area", extent);  // pressed and released here
  const bool area_hovered = ImGui::IsItemHovered();
  const ImVec2 m = ImGui::GetIO().MousePos;
  const int hover_id = area_hovered ? nearest_tree_node(t, m.x - d.top.x, m.y - d.top.y,
                                                        std::max(fs * 0.9f, t.step_w * 0.5f))
                                    : -1;
  const bool dots = t.step_w >= fs * 0.45f;
  for (int id = 0; id < tl.size(); ++id) draw_node(d, id, hover_id, cursor_node, dots);
  if (hover_id >= 0) node_tooltip(d, hover_id, released, lane, cmd);
  ImGui::EndChild();
}

}  // namespace

void draw_branches_panel(const Session& s, const PanelEnv& env, Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Branches)) return;
  const Palette& pal = palette(env.prefs.theme);
  const float fs = ImGui::GetFontSize();
  const int lane = shown_lane(s, env.sel);
  if (!has_model(s)) {
    text_wrapped("Load a model: every token you force later starts a branch shown here.");
    end_panel();
    return;
  }
  const Timeline& tl = timeline(s, lane);
  if (tl.size() == 0) {
    text_wrapped(
        "No steps yet. Step to grow the main line; force a different token in the "
        "Next-token panel to fork a branch.");
    end_panel();
    return;
  }
  const std::vector<BranchInfo> branches = ts::branches(s, lane);
  branch_summary(s, branches);
  branch_legend(pal, fs);
  const bool stories = !branches.empty();
  const TreeFit f = fit_tree(tl, stories, branches.size(), fs);
  draw_tree(s, tl, f, lane, env, pal, fs, stories, cmd);
  if (stories) draw_stories(s, tl, branches, env, pal);
  end_panel();
}

}  // namespace ts
