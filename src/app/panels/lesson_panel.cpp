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
#include "app/widgets/text_fit.h"
#include "imgui.h"
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

// Lesson narration is Markdown; the panel shows it as plain wrapped text: emphasis markers and
// code backticks dropped, list dashes as bullets. (Headings start pages and never get here.)
constexpr const char* kRevealHint = "Predict, then press Next to reveal.";

std::string plain_text(const std::string& md) {
  std::string out;
  bool line_start = true;
  for (size_t i = 0; i < md.size(); ++i) {
    const char c = md[i];
    if (line_start && (c == '-' || c == '*') && i + 1 < md.size() && md[i + 1] == ' ') {
      out += "• ";
      ++i;
      line_start = false;
      continue;
    }
    line_start = c == '\n';
    if (c == '`') continue;
    if ((c == '*' || c == '_') && i + 1 < md.size() && md[i + 1] == c) {
      ++i;  // ** or __
      continue;
    }
    if (c == '*') continue;  // *emphasis*
    out += c;
  }
  return out;
}

// Height of `text` wrapped to `width` in `font` (lines and the spacing between them).
float text_height(ImFont* font, const std::string& text, float width) {
  const std::vector<std::string> lines = wrap_lines(font, font->FontSize, text, width);
  const float n = static_cast<float>(lines.size());
  return n * font->FontSize + (n - 1) * ImGui::GetStyle().ItemSpacing.y;
}

// The page's scrolling part: narration, question, hint.
float page_text_height(const LessonRunner& lesson, float width) {
  const ImGuiStyle& st = ImGui::GetStyle();
  float h = text_height(app_font(FontRole::Regular), plain_text(lesson.current().text), width);
  const UiHints& hints = lesson.hints();
  if (!hints.ask.empty()) {
    h += st.ItemSpacing.y * 2.0f + text_height(app_font(FontRole::Bold), hints.ask, width);
    if (hints.hide_distribution)
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

float buttons_height() { return ImGui::GetFrameHeightWithSpacing() * 1.4f; }
// The row under the page text: the page's checks on the left, the "more below" cue on the
// right (there, not over the text, so it never hides a word).
float status_row_height() { return ImGui::GetTextLineHeightWithSpacing() * 1.2f; }

}  // namespace

float lesson_panel_height(const LessonRunner* lesson, float width) {
  if (!lesson || lesson->page() < 0 || lesson->page() >= lesson->page_count()) return 0;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float inner = width - st.WindowPadding.x * 2.0f;
  const float title_bar = ImGui::GetFontSize() + st.FramePadding.y * 2.0f;
  float h = title_bar + st.WindowPadding.y * 2.0f;
  if (show_lesson_title())
    h += text_height(app_font(FontRole::Regular), lesson->lesson().title, inner) + st.ItemSpacing.y;
  h += ImGui::GetFrameHeight() + st.ItemSpacing.y;  // progress
  h += text_height(title_font(lesson->current().title, inner), lesson->current().title, inner) +
       st.ItemSpacing.y;
  h += page_text_height(*lesson, inner) + st.ItemSpacing.y;
  return h + buttons_height() + status_row_height();
}

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

  if (show_lesson_title()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text(env.log, lesson->lesson().title);
    ImGui::PopStyleColor();
  }
  char progress[32];
  std::snprintf(progress, sizeof progress, "page %d of %d", i + 1, n);
  ImGui::ProgressBar(static_cast<float>(i + 1) / static_cast<float>(n), ImVec2(-1, 0), progress);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", lesson->lesson().title.c_str());
  ImGui::PushFont(title_font(page.title, ImGui::GetContentRegionAvail().x));
  wrapped_text(env.log, page.title);
  ImGui::PopFont();
  env.log.note_drawn("lesson_title", page.title, ImGui::GetItemRectMin().x,
                     ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x,
                     ImGui::GetItemRectSize().y);

  // Buttons stay at the bottom; the narration scrolls above them.
  const UiHints& hints = lesson->hints();
  ImGui::PushID(i);  // a new page starts scrolled to its top
  ImGui::BeginChild("page_text", ImVec2(0, -(buttons_height() + status_row_height())), false);
  wrapped_text(env.log, plain_text(page.text));
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
  ImGui::EndChild();
  ImGui::PopID();
  const float row_y = ImGui::GetCursorPosY();
  if (!page.checks.empty()) {
    const std::vector<CheckResult> results = lesson->check_page(s);
    const int passed = static_cast<int>(
        std::count_if(results.begin(), results.end(), [](const CheckResult& r) { return r.ok; }));
    ImGui::PushFont(app_font(FontRole::Small));
    ImGui::TextColored(
        ImGui::ColorConvertU32ToFloat4(passed == (int)results.size() ? pal.ok : pal.warning),
        "%s checks %d / %d", passed == (int)results.size() ? "✓" : "✗", passed,
        static_cast<int>(results.size()));
    ImGui::PopFont();
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      for (const CheckResult& r : results)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(r.ok ? pal.ok : pal.error), "%s %s",
                           r.ok ? "✓" : "✗", r.message.c_str());
      ImGui::EndTooltip();
    }
  }
  if (own.more_below) {  // the cue: the page goes on below (right-aligned in the row)
    ImGui::PushFont(app_font(FontRole::Small));
    const char* cue = "▼ more below: scroll";
    const float w = ImGui::CalcTextSize(cue).x;
    ImGui::SetCursorPos(ImVec2(ImGui::GetWindowContentRegionMax().x - w, row_y));
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), "%s", cue);
    ImGui::PopFont();
    note_last_item(env.log, "text", "more_below");
  }
  ImGui::SetCursorPosY(row_y + status_row_height());
  ImGui::BeginDisabled(i == 0);
  if (ImGui::Button("◀ Back")) cmd.push(cmd::LessonBack{});
  ImGui::EndDisabled();
  note_last_item(env.log, "button", "lesson_back");
  ImGui::SameLine();
  const bool can_next = i + 1 < n || hints.hide_distribution;
  ImGui::BeginDisabled(!can_next);
  if (ImGui::Button(hints.hide_distribution ? "Reveal ▶" : "Next ▶")) cmd.push(cmd::LessonNext{});
  ImGui::EndDisabled();
  note_last_item(env.log, "button", "lesson_next");
  ImGui::SameLine();
  const char* keys = "PageDown / PageUp";
  if (ImGui::CalcTextSize(keys).x <= ImGui::GetContentRegionAvail().x)
    ImGui::TextDisabled("%s", keys);
  end_panel();
}

}  // namespace ts
