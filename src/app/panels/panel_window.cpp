// begin_panel / end_panel: the one place that opens a panel's window at its layout rectangle,
// fixed (no move, no resize), with a close button that asks (ShowPanel) to hide it. A panel the
// layout made a tab is its title bar alone: a click on it puts the panel in focus; a double-click
// on a panel's title puts it in focus or, when it already is, goes back to the overview. end_panel
// records content cut by the window's edge (no scrollbar to reach it) as clipped. Tabs with no
// room in their row are listed by a "+N more" tab.
// No layout computation here (app/layout.cpp) and no panel contents.
#include <algorithm>
#include <cstdio>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "imgui_internal.h"

namespace ts {
namespace {

void title_bar_clicks(const PanelEnv& env, Commands& cmd, PanelId id, bool tab) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  ImRect bar = w->TitleBarRect();
  if (!tab) bar.Max.x -= ImGui::GetFontSize() * 1.4f;  // the close button
  if (!ImGui::IsWindowHovered() || !ImGui::IsMouseHoveringRect(bar.Min, bar.Max, false)) return;
  const int i = static_cast<int>(id);
  const bool can_focus = id != PanelId::Status && id != PanelId::Lesson;
  if (tab) {
    ImGui::SetTooltip("%s: click to show it large (key %s)", panel_title(id), panel_key_name(id));
    if (ImGui::IsMouseClicked(0)) cmd.push(cmd::FocusPanel{can_focus ? i : -1});
  } else if (ImGui::IsMouseDoubleClicked(0) && can_focus) {
    cmd.push(cmd::FocusPanel{env.prefs.focus_panel == i ? -1 : i});
  }
}

}  // namespace

bool begin_panel(const PanelEnv& env, Commands& cmd, PanelId id, int extra_window_flags) {
  if (!env.prefs.visible(id)) return false;
  const int i = static_cast<int>(id);
  const PanelRect& r = env.frame.rect(id);
  // A tab with no room in its row is reached from "+N more" only: not drawn (ImGui would show
  // the window where it was last placed, over the other tabs).
  if (env.frame.tabbed[i] && (r.w <= 0 || r.h <= 0)) return false;
  if (r.w > 0 && r.h > 0) {
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  }
  // A tab is the window's title bar alone: no minimum size, no body, drawn over the others
  // (it may sit in the focus panel's title bar).
  const bool tab = env.frame.tabbed[i];
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
      ImGuiWindowFlags_NoSavedSettings | extra_window_flags |
      (tab ? ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse
           : ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (tab) {
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    ImGui::PushFont(app_font(FontRole::Small));
  }
  // The panel in focus: its title bar in the accent colour.
  const bool focus = env.prefs.focus_panel == i;
  if (focus) {
    const ImVec4 accent = ImGui::ColorConvertU32ToFloat4(palette(env.prefs.theme).accent);
    const ImVec4 text = ImGui::ColorConvertU32ToFloat4(palette(env.prefs.theme).window_bg);
    ImGui::PushStyleColor(ImGuiCol_TitleBg, accent);
    ImGui::PushStyleColor(ImGuiCol_TitleBgActive, accent);
    ImGui::PushStyleColor(ImGuiCol_TitleBgCollapsed, accent);
    ImGui::PushStyleColor(ImGuiCol_Text, text);
  }
  bool keep = true;  // the close button clears it
  const bool open = ImGui::Begin(panel_title(id), tab ? nullptr : &keep, flags);
  if (!keep) cmd.push(cmd::ShowPanel{i, false});
  if (focus) ImGui::PopStyleColor(4);
  title_bar_clicks(env, cmd, id, tab);
  if (tab) {
    ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    if (env.log.record) {  // a title the tab had to shorten
      const float room = r.w - ImGui::GetStyle().FramePadding.x * 2.0f;
      if (ImGui::CalcTextSize(panel_title(id)).x > room + 0.5f)
        env.log.note_clipped(panel_title(id), panel_title(id), "shortened");
    }
    ImGui::PopFont();
    ImGui::PopStyleVar();
  }
  if (!open || tab) {
    ImGui::End();
    return false;
  }
  env.log.drawing_panel = panel_title(id);
  set_text_record_target(&env.log);  // for text_wrapped and end_panel
  if (env.log.record) {  // the panel's body (below its title bar), for `see panel NAME`
    const ImRect body = ImGui::GetCurrentWindow()->InnerClipRect;
    env.log.note_drawn("panel", panel_lesson_name(id), body.Min.x, body.Min.y, body.GetWidth(),
                       body.GetHeight());
  }
  return true;
}

namespace {

// Content of `w` beyond its visible region this frame (its own and its scrolling children's).
void hidden_content(const ImGuiWindow* w, float* below, float* right) {
  *below = std::max(*below, w->DC.CursorMaxPos.y - w->InnerRect.Max.y);
  *right = std::max(*right, w->DC.CursorMaxPos.x - w->InnerRect.Max.x);
  for (const ImGuiWindow* c : w->DC.ChildWindows)
    if (c->Active) hidden_content(c, below, right);
}

}  // namespace

void end_panel() {
  DrawLog* log = text_record_target();
  set_text_record_target(nullptr);
  if (log && log->record) {
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    const float slack = 2.0f;
    if (w->DC.CursorMaxPos.y > w->InnerClipRect.Max.y + slack && !w->ScrollbarY)
      log->note_clipped(log->drawing_panel, "(content cut at the bottom edge)", "cut");
    if (w->DC.CursorMaxPos.x > w->InnerClipRect.Max.x + slack && !w->ScrollbarX)
      log->note_clipped(log->drawing_panel, "(content cut at the right edge)", "cut");
    PanelOverflow o{log->drawing_panel};
    hidden_content(w, &o.below, &o.right);
    o.below = o.below > slack ? o.below : 0.0f;
    o.right = o.right > slack ? o.right : 0.0f;
    log->overflow.push_back(o);
  }
  if (log) log->drawing_panel = "";
  ImGui::End();
}

void draw_more_tabs(const PanelEnv& env, Commands& cmd) {
  const PanelRect& r = env.frame.more_tab;
  if (env.frame.more_tabs.empty() || r.w <= 0) return;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  ImGui::PushFont(app_font(FontRole::Small));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  if (ImGui::Begin("##more_tabs", nullptr,
                   ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoNav)) {
    ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    char label[32];
    std::snprintf(label, sizeof label, "+%d more ▾", static_cast<int>(env.frame.more_tabs.size()));
    if (ImGui::Button(label, ImVec2(r.w, r.h))) ImGui::OpenPopup("more_tabs_list");
    note_last_item(env.log, "button", "more_tabs");
    if (ImGui::BeginPopup("more_tabs_list")) {
      for (int i : env.frame.more_tabs) {
        if (ImGui::Selectable(panel_title(static_cast<PanelId>(i))))
          cmd.push(cmd::FocusPanel{i});  // the chosen panel fills the window
      }
      ImGui::EndPopup();
    }
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
  ImGui::PopFont();
}

void note_last_item(DrawLog& log, const char* kind, const std::string& label) {
  if (!log.record) return;
  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  log.note_drawn(kind, label, a.x, a.y, b.x - a.x, b.y - a.y);
}

}  // namespace ts
