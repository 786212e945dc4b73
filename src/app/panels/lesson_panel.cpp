// Lesson panel: the open lesson's title, the page's title and narration in a large font, page
// i of n, the page's question (while the distribution waits to be revealed), Back / Next (Next
// first reveals a pending question), and the page's checks evaluated against the session as it
// is now, shown small for the teacher (✓ / ✗ with the message). The runner itself lives in App;
// this panel only reads it and emits LessonNext / LessonBack / LessonOpen. Text wraps at spaces
// only; when the page is taller than the panel it scrolls with a "more below" cue.
#include <algorithm>
#include <string>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/widgets/markdown_text.h"
#include "app/widgets/text_fit.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "imgui_stdlib.h"
#include "lesson/lesson_runner.h"

namespace ts {
namespace {

void lesson_picker(const PanelEnv& env, LessonPanelState& own, Commands& cmd) {
  wrapped_text(env.log, "No lesson is open. Lessons walk the class through the loop page by page.");
  for (size_t i = 0; i < own.files.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    const std::string& f = own.files[i];
    const size_t slash = f.find_last_of('/');
    if (ImGui::Selectable(slash == std::string::npos ? f.c_str() : f.c_str() + slash + 1))
      cmd.push(cmd::LessonOpen{f});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.c_str());
    ImGui::PopID();
  }
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4.0f);
  ImGui::InputTextWithHint("##lesson_path", "lessons/01_tokens.md", &own.path_edit);
  ImGui::SameLine();
  ImGui::BeginDisabled(own.path_edit.empty());
  if (ImGui::Button("Open")) cmd.push(cmd::LessonOpen{own.path_edit});
  ImGui::EndDisabled();
}

constexpr const char* kRevealHint = "Predict, then press Reveal.";

// Height of `text` wrapped to `width` in `font` (lines and the spacing between them).
float text_height(ImFont* font, const std::string& text, float width) {
  const std::vector<std::string> lines = wrap_lines(font, font->FontSize, text, width);
  const float n = static_cast<float>(lines.size());
  return n * font->FontSize + (n - 1) * ImGui::GetStyle().ItemSpacing.y;
}

// A page's scrolling part: narration, question, hint (the hint counted whenever the page asks, so
// the height does not change when the question is revealed).
float page_text_height(const LessonPage& page, float width) {
  const ImGuiStyle& st = ImGui::GetStyle();
  float h = markdown_height(page.text, width);
  if (!page.ask.empty()) {
    h += st.ItemSpacing.y * 2.0f + text_height(app_font(FontRole::Bold), page.ask, width);
    h += st.ItemSpacing.y + text_height(app_font(FontRole::Regular), kRevealHint, width);
  }
  return h;
}

// The page title's font: large, unless a word of it would not fit the column (then bold).
ImFont* title_font(const std::string& title, float width) {
  bool broken = false;
  ImFont* large = app_font(FontRole::Large);
  wrap_lines(large, large->FontSize, title, width, &broken);
  return broken ? app_font(FontRole::Bold) : large;
}

// The lesson's own title above the page's: only when the window is tall for its font (on a short
// one it is the progress bar's tooltip), so the narration keeps the room.
bool show_lesson_title() { return ImGui::GetIO().DisplaySize.y > ImGui::GetFontSize() * 26.0f; }

// The bottom row: Back and Next, then the page's checks and the "more below" cue (there, not over
// the text, so it never hides a word).
float buttons_height() { return ImGui::GetFrameHeightWithSpacing() * 1.25f; }

}  // namespace

float lesson_panel_height(const LessonRunner* lesson, float width) {
  if (!lesson || lesson->page() < 0 || lesson->page() >= lesson->page_count()) return 0;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float inner = width - st.WindowPadding.x * 2.0f;
  const float title_bar = ImGui::GetFontSize() + st.FramePadding.y * 2.0f;
  float fixed = title_bar + st.WindowPadding.y * 2.0f;
  if (show_lesson_title())
    fixed += text_height(app_font(FontRole::Regular), lesson->lesson().title, inner) + st.ItemSpacing.y;
  fixed += buttons_height();
  // The tallest page decides, so the column keeps one width through the whole lesson.
  float tallest = 0;
  for (const LessonPage& page : lesson->lesson().pages) {
    const float h = text_height(title_font(page.title, inner), page.title, inner) +
                    st.ItemSpacing.y * 2.0f + page_text_height(page, inner);
    tallest = std::max(tallest, h);
  }
  return fixed + tallest;
}

namespace {

// "page 3 of 7" right-aligned in the panel's title bar (before the close button), over a thin
// progress line along the bar's bottom edge; the lesson's title is its tooltip.
void page_counter(const Palette& pal, int i, int n, const std::string& lesson_title) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const ImRect bar = w->TitleBarRect();
  char text[32];
  std::snprintf(text, sizeof text, "page %d of %d", i + 1, n);
  const ImVec2 ts = ImGui::CalcTextSize(text);
  const float right = bar.Max.x - ImGui::GetFontSize() * 1.6f;  // the close button
  const ImVec2 at(right - ts.x, bar.Min.y + (bar.GetHeight() - ts.y) * 0.5f);
  ImDrawList* dl = w->DrawList;
  dl->PushClipRect(bar.Min, bar.Max, false);
  dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), text);
  const float h = std::max(3.0f, ImGui::GetFontSize() * 0.14f);
  dl->AddRectFilled(ImVec2(bar.Min.x, bar.Max.y - h),
                    ImVec2(bar.Min.x + bar.GetWidth() * static_cast<float>(i + 1) / n, bar.Max.y),
                    pal.accent);
  dl->PopClipRect();
  if (ImGui::IsMouseHoveringRect(ImVec2(at.x, bar.Min.y), ImVec2(at.x + ts.x, bar.Max.y)))
    ImGui::SetTooltip("%s", lesson_title.c_str());
}

// Back and Next (Reveal while the page's question waits), then, right-aligned, the page's checks
// (✓ n / n, each one in the tooltip) and the "more below" cue when the text scrolls.
void bottom_row(const Session& s, const LessonRunner& lesson, const PanelEnv& env,
                LessonPanelState& own, Commands& cmd, const Palette& pal) {
  const int i = lesson.page();
  const int n = lesson.page_count();
  const UiHints& hints = lesson.hints();
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + ImGui::GetStyle().ItemSpacing.y);
  ImGui::BeginDisabled(i == 0);
  if (ImGui::Button("◀ Back")) cmd.push(cmd::LessonBack{});
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("PageUp");
  ImGui::EndDisabled();
  note_last_item(env.log, "button", "lesson_back");
  ImGui::SameLine();
  const bool can_next = i + 1 < n || hints.hide_distribution;
  ImGui::BeginDisabled(!can_next);
  if (ImGui::Button(hints.hide_distribution ? "Reveal ▶" : "Next ▶")) cmd.push(cmd::LessonNext{});
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("PageDown");
  ImGui::EndDisabled();
  note_last_item(env.log, "button", "lesson_next");
  const float right = ImGui::GetWindowContentRegionMax().x;
  ImGui::PushFont(app_font(FontRole::Small));
  std::string right_text;
  ImU32 right_col = pal.accent;
  if (own.more_below) {
    right_text = "▼ more below";
  } else if (!lesson.current().checks.empty() && !hints.hide_distribution) {
    const std::vector<CheckResult> results = lesson.check_page(s);
    const int passed = static_cast<int>(
        std::count_if(results.begin(), results.end(), [](const CheckResult& r) { return r.ok; }));
    const bool all = passed == static_cast<int>(results.size());
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s %d / %d", all ? "✓" : "✗", passed,
                  static_cast<int>(results.size()));
    right_text = buf;
    right_col = all ? pal.ok : pal.error;
    const float w = ImGui::CalcTextSize(buf).x;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), right - w));
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(right_col), "%s", buf);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::TextUnformatted("this page's checks, against the model now:");
      for (const CheckResult& r : results)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(r.ok ? pal.ok : pal.error), "%s %s",
                           r.ok ? "✓" : "✗", r.message.c_str());
      ImGui::EndTooltip();
    }
    ImGui::PopFont();
    return;
  }
  if (!right_text.empty()) {
    const float w = ImGui::CalcTextSize(right_text.c_str()).x;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), right - w));
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(right_col), "%s", right_text.c_str());
    note_last_item(env.log, "text", "more_below");
  }
  ImGui::PopFont();
}

}  // namespace

void draw_lesson_panel(const Session& s, const LessonRunner* lesson, const PanelEnv& env,
                       LessonPanelState& own, Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Lesson)) return;
  if (!lesson || lesson->page() < 0 || lesson->page() >= lesson->page_count()) {
    lesson_picker(env, own, cmd);
    end_panel();
    return;
  }
  const Palette& pal = palette(env.prefs.theme);
  const LessonPage& page = lesson->current();
  const int i = lesson->page();
  const int n = lesson->page_count();

  page_counter(pal, i, n, lesson->lesson().title);
  if (show_lesson_title()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text(env.log, lesson->lesson().title);
    ImGui::PopStyleColor();
  }
  ImGui::PushFont(title_font(page.title, ImGui::GetContentRegionAvail().x));
  wrapped_text(env.log, page.title);
  ImGui::PopFont();
  env.log.note_drawn("lesson_title", page.title, ImGui::GetItemRectMin().x,
                     ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x,
                     ImGui::GetItemRectSize().y);
  ImGui::Spacing();

  // Buttons stay at the bottom; the narration scrolls above them.
  const UiHints& hints = lesson->hints();
  ImGui::PushID(i);  // a new page starts scrolled to its top
  // No scrollbar: the text always wraps at the panel's full width, whatever earlier frames did
  // (a bar that appeared once would narrow the text, make it taller and so keep itself), so the
  // page looks as the render check measured it. It still scrolls with the wheel, and the "more
  // below" cue says when there is more.
  ImGui::BeginChild("page_text", ImVec2(0, -buttons_height()), false, ImGuiWindowFlags_NoScrollbar);
  markdown_text(env.log, page.text);
  if (!hints.ask.empty()) {
    ImGui::Spacing();
    ImGui::PushFont(app_font(FontRole::Bold));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.accent));
    wrapped_text(env.log, hints.ask);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    if (hints.hide_distribution) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      wrapped_text(env.log, kRevealHint);
      ImGui::PopStyleColor();
    }
  }
  own.more_below = ImGui::GetScrollY() < ImGui::GetScrollMaxY() - 1.0f;
  if (env.log.record) {  // the page's text below the fold, for the screenshot report and checks
    const ImGuiWindow* child = ImGui::GetCurrentWindow();
    env.log.lesson_text_hidden_px = std::max(0.0f, child->DC.CursorMaxPos.y - child->InnerRect.Max.y);
  }
  ImGui::EndChild();
  ImGui::PopID();
  bottom_row(s, *lesson, env, own, cmd, pal);
  end_panel();
}

}  // namespace ts
