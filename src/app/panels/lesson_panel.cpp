// Lesson panel: the open lesson's title, the page's title and narration in a large font, page
// i of n, the page's question (while the distribution waits to be revealed), Back / Next (Next
// first reveals a pending question), and the page's checks evaluated against the session as it
// is now, shown small for the teacher (✓ / ✗ with the message). The runner itself lives in App;
// this panel only reads it and emits LessonNext / LessonBack / LessonOpen.
#include <algorithm>
#include <string>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "lesson/lesson_runner.h"

namespace ts {
namespace {

void lesson_picker(UiState& ui, Commands& cmd) {
  ImGui::TextWrapped("No lesson is open. Lessons walk the class through the loop page by page.");
  for (size_t i = 0; i < ui.lesson_files.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    const std::string& f = ui.lesson_files[i];
    const size_t slash = f.find_last_of('/');
    if (ImGui::Selectable(slash == std::string::npos ? f.c_str() : f.c_str() + slash + 1))
      cmd.push(cmd::LessonOpen{f});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.c_str());
    ImGui::PopID();
  }
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4.0f);
  ImGui::InputTextWithHint("##lesson_path", "lessons/01_tokens.md", &ui.lesson_path_edit);
  ImGui::SameLine();
  ImGui::BeginDisabled(ui.lesson_path_edit.empty());
  if (ImGui::Button("Open")) cmd.push(cmd::LessonOpen{ui.lesson_path_edit});
  ImGui::EndDisabled();
}

// Lesson narration is Markdown; the panel shows it as plain wrapped text: emphasis markers and
// code backticks dropped, list dashes as bullets. (Headings start pages and never get here.)
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

}  // namespace

void draw_lesson_panel(const Session& s, const LessonRunner* lesson, UiState& ui, Commands& cmd) {
  if (!begin_panel(ui, PanelId::Lesson)) return;
  if (!lesson || lesson->page() < 0 || lesson->page() >= lesson->page_count()) {
    lesson_picker(ui, cmd);
    end_panel();
    return;
  }
  const Palette& pal = palette(ui.theme);
  const LessonPage& page = lesson->current();
  const int i = lesson->page();
  const int n = lesson->page_count();

  ImGui::TextDisabled("%s", lesson->lesson().title.c_str());
  char progress[32];
  std::snprintf(progress, sizeof progress, "page %d of %d", i + 1, n);
  ImGui::ProgressBar(static_cast<float>(i + 1) / static_cast<float>(n), ImVec2(-1, 0), progress);
  ImGui::PushFont(app_font(FontRole::Large));
  ImGui::TextWrapped("%s", page.title.c_str());
  ImGui::PopFont();
  ui.note_drawn("lesson_title", page.title, ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y,
                ImGui::GetItemRectSize().x, ImGui::GetItemRectSize().y);

  // Buttons stay at the bottom; the narration scrolls above them.
  const float buttons_h = ImGui::GetFrameHeightWithSpacing() * 1.4f;
  const float checks_h = page.checks.empty() ? 0.0f : ImGui::GetTextLineHeightWithSpacing() * 1.2f;
  ImGui::BeginChild("page_text", ImVec2(0, -(buttons_h + checks_h)), false);
  ImGui::TextWrapped("%s", plain_text(page.text).c_str());
  const UiHints& hints = lesson->hints();
  if (!hints.ask.empty()) {
    ImGui::Spacing();
    ImGui::PushFont(app_font(FontRole::Bold));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.accent));
    ImGui::TextWrapped("%s", hints.ask.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    if (hints.hide_distribution) ImGui::TextDisabled("Predict, then press Next to reveal.");
  }
  ImGui::EndChild();

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

  ImGui::BeginDisabled(i == 0);
  if (ImGui::Button("◀ Back")) cmd.push(cmd::LessonBack{});
  ImGui::EndDisabled();
  note_last_item(ui, "button", "lesson_back");
  ImGui::SameLine();
  const bool can_next = i + 1 < n || hints.hide_distribution;
  ImGui::BeginDisabled(!can_next);
  if (ImGui::Button(hints.hide_distribution ? "Reveal ▶" : "Next ▶")) cmd.push(cmd::LessonNext{});
  ImGui::EndDisabled();
  note_last_item(ui, "button", "lesson_next");
  ImGui::SameLine();
  ImGui::TextDisabled("PageDown / PageUp");
  end_panel();
}

}  // namespace ts
